package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLocalWithLatency runs "mentalmj local --hands 1 --rtt 60ms --jitter
// 10ms": the four nodes' connections run through the delaying relays, the
// hand is played and audited, and the pause before its first turn, which
// joins report as pause_ms, is at least its twelve one-way hops of at
// least 20 ms each (SPEC.md §9.4: a lower bound no load can break).
func TestLocalWithLatency(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test starts four processes")
	}
	bin := buildBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "local", "--hands", "1", "--rtt", "60ms", "--jitter", "10ms", "--data-dir", filepath.Join(t.TempDir(), "run"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mentalmj local: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, "delayed by 30ms ± 10ms each way (round trip 60ms)") {
		t.Errorf("local does not say how it delays the connections:\n%s", out)
	}
	if !strings.Contains(out, "audit ok (4 of 4 audits agree)") {
		t.Errorf("the hand did not pass its audits:\n%s", out)
	}
	m := regexp.MustCompile(`timing: pause between hands median ([\d.]+) ms`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no timing line:\n%s", out)
	}
	pause, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	if least := 12 * 20.0; pause < least {
		t.Errorf("pause before the first turn %.1f ms, less than 12 hops of at least 20 ms (%.0f ms)", pause, least)
	}
	// The pause alone could pass undelayed (hand 1's setup with proofs
	// takes a few hundred ms of CPU); play cannot. A discard cycle is
	// three one-way hops (the tsumo keys, the dahai, the answers) for four
	// or five events, so with every one-way delay at least 20 ms the
	// median event takes over 10 ms; undelayed it takes 1–5 ms
	// (docs/BENCHMARKS.md, "Latency": RTT 0).
	m = regexp.MustCompile(`play per event median ([\d.]+) ms`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no play-per-event figure:\n%s", out)
	}
	perEvent, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	if perEvent < 10 {
		t.Errorf("play per event %.2f ms at 60 ms RTT, under the 10 ms that three hops of at least 20 ms over five events take: are the connections delayed?", perEvent)
	}
}
