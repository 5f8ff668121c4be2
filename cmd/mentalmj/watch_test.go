package main

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/node/spectate"
)

// TestWatchHostedTable runs "mentalmj host --spectators 2", a
// "mentalmj watch" of the link it prints, and three guests on 127.0.0.1:
// the spectator prints a verified line for each of the two hands and the
// audit's verdict, exits 0, and the entries it saved audit again with
// "mentalmj audit" to the same walls as a player's transcript.
func TestWatchHostedTable(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test starts five processes")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	common := func(name string) []string {
		return []string{"--bot", "--name", name, "--hands", "2", "--listen", "/ip4/127.0.0.1/tcp/0",
			"--data-dir", filepath.Join(dir, name), "--transcript", filepath.Join(dir, name+".mjt"),
			"--timeout", "20s", "--connect-timeout", "60s"}
	}
	h := startHost(t, ctx, bin, append([]string{"host", "--table", "friday", "--spectators", "2"}, common("alice")...)...)
	var err error
	var line string
	for !strings.HasPrefix(line, "mentalmj watch") {
		if line, err = h.lines.ReadString('\n'); err != nil {
			t.Fatalf("host printed no watch link: %v\n%s", err, h.hostErr.String())
		}
	}
	m := regexp.MustCompile(`^mentalmj watch (mmjw1[a-z2-7]+)\n$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("the host's second line %q is not 'mentalmj watch mmjw1…'", line)
	}
	link, err := spectate.ParseLink(m[1])
	if err != nil || link.Table != "friday" {
		t.Fatalf("watch link: %+v %v", link, err)
	}
	go func() { _, _ = io.Copy(io.Discard, h.lines) }()
	var wout, werr bytes.Buffer
	watch := exec.CommandContext(ctx, bin, "watch", m[1], "--no-public", "--listen", "/ip4/127.0.0.1/tcp/0", "--data-dir", filepath.Join(dir, "spectator"), "--idle", "60s", "--events")
	watch.Stdout, watch.Stderr = &wout, &werr
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second) // the spectator dials the host
	h.join(t, ctx, bin, []string{"bob", "carol", "dave"}, common, 300*time.Millisecond)
	h.wg.Wait()
	if err := h.host.Wait(); err != nil {
		t.Fatalf("host: %v\n%s", err, h.hostErr.String())
	}
	for i, err := range h.errs {
		if err != nil {
			t.Fatalf("guest %d: %v\n%s", i, err, h.outs[i].String())
		}
	}
	if err := watch.Wait(); err != nil {
		t.Fatalf("watch: %v\n%s\n%s", err, wout.String(), werr.String())
	}
	out := wout.String()
	for _, want := range []string{"alice sits at table", " dahai ", "hand 1 (East ", "hand 2 (East ", "audit: wall verified", "verified"} {
		if !strings.Contains(out, want) {
			t.Errorf("watch output lacks %q:\n%s\n%s", want, out, werr.String())
		}
	}
	saved := regexp.MustCompile(`watched entries: (\S+\.mjt)`).FindStringSubmatch(out)
	if saved == nil {
		t.Fatalf("watch names no saved file:\n%s", out)
	}
	audit := exec.CommandContext(ctx, bin, "audit", "--json", saved[1])
	a, err := audit.Output()
	if err != nil {
		t.Fatalf("audit of the watched entries: %v\n%s", err, a)
	}
	player := exec.CommandContext(ctx, bin, "audit", "--json", filepath.Join(dir, "bob.mjt"))
	b, err := player.Output()
	if err != nil {
		t.Fatalf("audit of bob's transcript: %v\n%s", err, b)
	}
	yama := regexp.MustCompile(`"yama": \[[^\]]*\]`)
	if ws, bs := yama.FindAllString(string(a), -1), yama.FindAllString(string(b), -1); len(ws) != 2 || strings.Join(ws, "") != strings.Join(bs, "") {
		t.Errorf("the spectator's walls (%d) differ from bob's audit's (%d)", len(ws), len(bs))
	}
}
