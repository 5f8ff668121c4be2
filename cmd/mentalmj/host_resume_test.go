//go:build unix

package main

import (
	"bufio"
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
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
	t.Parallel()
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
	h := startHost(t, ctx, bin, append([]string{"host", "--table", "friday"}, common("alice")...)...)
	names := []string{"bob", "carol", "dave"}
	h.join(t, ctx, bin, names, common, 0)
	lines := bufio.NewScanner(h.lines)
	killed := false
	for lines.Scan() {
		if strings.HasPrefix(lines.Text(), "hand 1 (") {
			h.host.Process.Signal(syscall.SIGKILL)
			killed = true
			break
		}
	}
	h.host.Wait()
	if !killed {
		t.Fatalf("the host never finished hand 1:\n%s", h.hostErr.String())
	}
	again := exec.CommandContext(ctx, bin, "host", "--table", "friday", "--data-dir", filepath.Join(dir, "alice"), "--bot", "--resume")
	out, err := again.CombinedOutput()
	h.wg.Wait()
	if err != nil {
		t.Fatalf("the host started again with --resume: %v\n%s", err, out)
	}
	for _, want := range []string{"resuming the game at table", `--name "alice"`, "3 hands of a hanchan"} {
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
		// A guest sees alice go either as a wait on her ("waiting for
		// alice to reconnect") or, when she is back before the guest
		// needs a message from her, only as her connection line going
		// to "not connected".
		o := h.outs[i].String()
		sawLoss := strings.Contains(o, "waiting for alice to reconnect") || strings.Contains(o, "alice: not connected")
		if h.errs[i] != nil || !strings.Contains(o, "all "+m2[1]+" hands audited ok") || !sawLoss {
			t.Errorf("%s: %v; want all %s hands audited after losing alice:\n%s", name, h.errs[i], m2[1], o)
		}
		paths = append(paths, filepath.Join(dir, name+".mjt"))
	}
	if out, err := exec.CommandContext(ctx, bin, append([]string{"audit"}, paths...)...).CombinedOutput(); err != nil {
		t.Errorf("mentalmj audit of the four transcripts: %v\n%s", err, out)
	}
}
