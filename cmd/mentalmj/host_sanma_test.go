package main

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/node/invite"
)

// TestHostSanmaInvite runs "mentalmj host --players 3" and two "mentalmj
// join INVITE" processes on 127.0.0.1: the invite says three players, the
// host gathers two guests ("3 of 3"), the three play a three-player hand,
// and their transcripts audit as a sanma game and agree.
func TestHostSanmaInvite(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test starts three processes")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	common := func(name string) []string {
		return []string{"--bot", "--name", name, "--hands", "1", "--listen", "/ip4/127.0.0.1/tcp/0",
			"--data-dir", filepath.Join(dir, name), "--transcript", filepath.Join(dir, name+".mjt"),
			"--timeout", "20s", "--connect-timeout", "60s"}
	}
	h := startHost(t, ctx, bin, append([]string{"host", "--table", "sunday", "--players", "3"}, common("alice")...)...)
	if inv, err := invite.Parse(h.invite); err != nil || inv.PlayerCount() != 3 {
		t.Fatalf("printed invite: %+v %v", inv, err)
	}
	var rest bytes.Buffer
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(&rest, h.lines); close(copied) }()

	names := []string{"bob", "carol"}
	h.join(t, ctx, bin, names, common, 300*time.Millisecond)
	h.wg.Wait()
	hostWait := h.host.Wait()
	<-copied
	if hostWait != nil {
		t.Fatalf("host: %v\n%s\n%s", hostWait, rest.String(), h.hostErr.String())
	}
	for i, err := range h.errs {
		if err != nil {
			t.Fatalf("%s: %v\n%s", names[i], err, h.outs[i].String())
		}
	}
	for i, want := range []string{"bob joined, 2 of 3", "carol joined, 3 of 3", "all 1 hands audited ok"} {
		if !strings.Contains(rest.String(), want) {
			t.Errorf("host output lacks %d %q:\n%s", i, want, rest.String())
		}
	}
	if !strings.Contains(h.outs[0].String(), "at the table: alice (host), bob (you); 2 of 3") {
		t.Errorf("bob's output does not show the arrivals of 3:\n%s", h.outs[0].String())
	}
	paths := []string{filepath.Join(dir, "alice.mjt")}
	for _, name := range names {
		paths = append(paths, filepath.Join(dir, name+".mjt"))
	}
	out, err := exec.CommandContext(ctx, bin, append([]string{"audit"}, paths...)...).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "three-player (sanma)") {
		t.Errorf("mentalmj audit of the three transcripts: %v\n%s", err, out)
	}
}
