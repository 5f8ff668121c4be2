package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// BenchmarkLocalProcesses runs "mentalmj local --hands b.N": four separate
// join processes, each a libp2p node on 127.0.0.1 over TCP, play b.N hands
// with audits. It reports what local's stats line measures: the hand setup
// (seats and dice, 4 shuffle and 4 rekey passes, the deal of 53 tiles; the
// slowest node per hand), the tsumo latency over every draw of every node
// (previous dahai accepted → drawn tile decrypted), and the largest peak
// RSS of the four nodes. Run with -benchtime 20x for 20 hands.
func BenchmarkLocalProcesses(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "mentalmj")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	b.ResetTimer()
	out, err := exec.CommandContext(ctx, bin, "local", "--hands", strconv.Itoa(b.N), "--dir", filepath.Join(b.TempDir(), "run")).CombinedOutput()
	b.StopTimer()
	if err != nil {
		b.Fatalf("mentalmj local: %v\n%s", err, out)
	}
	re := regexp.MustCompile(`stats: hand setup median ([\d.]+) ms max [\d.]+ ms; tsumo latency median ([\d.]+) ms p99 ([\d.]+) ms over \d+ draws; peak RSS per node ([\d.]+) MB`)
	m := re.FindSubmatch(out)
	if m == nil {
		b.Fatalf("no stats line in:\n%s", out)
	}
	for i, unit := range []string{"setup-ms-median", "tsumo-ms-median", "tsumo-ms-p99", "peak-rss-MB"} {
		v, err := strconv.ParseFloat(string(m[i+1]), 64)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(v, unit)
	}
}
