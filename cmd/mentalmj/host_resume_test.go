//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestHostResumesAfterKill builds the binary, seats a host and three
// guests by invite, kills the host (SIGKILL) once the first hand is over
// and starts it again with only --table, --data-dir, --bot and --resume:
// it takes the rest from its data directory and transcript, the guests
// wait for it, and all four finish the three hands with transcripts that
// audit clean together.
func TestHostResumesAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test starts five processes")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	common := func(name string) []string {
		return []string{"--bot", "--name", name, "--hands", "3", "--listen", "/ip4/127.0.0.1/tcp/0",
			"--data-dir", filepath.Join(dir, name), "--transcript", filepath.Join(dir, name+".mjt"),
			"--timeout", "20s", "--connect-timeout", "60s", "--reconnect-grace", "60s"}
	}
	host := exec.CommandContext(ctx, bin, append([]string{"host", "--table", "friday"}, common("alice")...)...)
	hostOut, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var hostErr bytes.Buffer
	host.Stderr = &hostErr
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(hostOut)
	if !lines.Scan() {
		t.Fatalf("host printed nothing:\n%s", hostErr.String())
	}
	m := regexp.MustCompile(`^mentalmj join (mmj1[a-z2-7]+)$`).FindStringSubmatch(lines.Text())
	if m == nil {
		t.Fatalf("host's first line %q is not 'mentalmj join mmj1…'", lines.Text())
	}
	names := []string{"bob", "carol", "dave"}
	outs := make([]bytes.Buffer, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		cmd := exec.CommandContext(ctx, bin, append([]string{"join", m[1]}, common(name)...)...)
		cmd.Stdout, cmd.Stderr = &outs[i], &outs[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { errs[i] = cmd.Wait() })
	}
	killed := false
	for lines.Scan() {
		if strings.HasPrefix(lines.Text(), "hand 1 (") {
			host.Process.Signal(syscall.SIGKILL)
			killed = true
			break
		}
	}
	host.Wait()
	if !killed {
		t.Fatalf("the host never finished hand 1:\n%s", hostErr.String())
	}
	again := exec.CommandContext(ctx, bin, "host", "--table", "friday", "--data-dir", filepath.Join(dir, "alice"), "--bot", "--resume")
	out, err := again.CombinedOutput()
	wg.Wait()
	if err != nil {
		t.Fatalf("the host started again with --resume: %v\n%s", err, out)
	}
	for _, want := range []string{"resuming the game at table", `--name "alice" --hands 3`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the resumed host's output lacks %q:\n%s", want, out)
		}
	}
	// Three hands, or two if a player went below zero in hand 2.
	done := regexp.MustCompile(`all ([23]) hands audited ok`)
	m2 := done.FindStringSubmatch(string(out))
	if m2 == nil {
		t.Fatalf("the resumed host did not finish the game:\n%s", out)
	}
	paths := []string{filepath.Join(dir, "alice.mjt")}
	for i, name := range names {
		if errs[i] != nil || !strings.Contains(outs[i].String(), "all "+m2[1]+" hands audited ok") || !strings.Contains(outs[i].String(), "waiting for alice to reconnect") {
			t.Errorf("%s: %v; want all %s hands audited after waiting for alice:\n%s", name, errs[i], m2[1], outs[i].String())
		}
		paths = append(paths, filepath.Join(dir, name+".mjt"))
	}
	if out, err := exec.CommandContext(ctx, bin, append([]string{"audit"}, paths...)...).CombinedOutput(); err != nil {
		t.Errorf("mentalmj audit of the four transcripts: %v\n%s", err, out)
	}
}
