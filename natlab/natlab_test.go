package natlab

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// bin is the mentalmj binary under test, built once by TestMain with the
// natlab tag; "" if no lab can run here (the tests skip).
var bin string

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(func() int {
		if Available() != nil || testing.Short() {
			return m.Run()
		}
		dir, err := os.MkdirTemp("", "natlab")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		bin = filepath.Join(dir, "mentalmj")
		out, err := exec.Command("go", "build", "-tags", "natlab", "-o", bin, "github.com/mentalmj/mentalmj/cmd/mentalmj").CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
			return 1
		}
		return m.Run()
	}())
}

// newLab builds an empty lab for t, deleted at the end of t, or skips t
// with the reason a lab cannot be built here.
func newLab(t *testing.T, ctx context.Context) *Lab {
	t.Helper()
	if err := Available(); err != nil {
		t.Skip(err)
	}
	if bin == "" {
		t.Skip("natlab: -short")
	}
	l, err := New(ctx, fmt.Sprintf("mmj%d", os.Getpid()%100000))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := l.Close(); err != nil {
			t.Errorf("cleaning up the lab: %v", err)
		}
	})
	return l
}

// event is one line of a node's --progress json output.
type event map[string]any

func parseEvent(line string) event {
	var e event
	if json.Unmarshal([]byte(line), &e) != nil {
		return nil
	}
	return e
}

func isEvent(kind string) func(string) bool {
	return func(line string) bool { return parseEvent(line)["event"] == kind }
}

// events returns p's events of the given kind so far.
func events(p *Proc, kind string) []event {
	var out []event
	for _, ln := range p.Lines() {
		if e := parseEvent(ln); e["event"] == kind {
			out = append(out, e)
		}
	}
	return out
}

// startRelay runs `mentalmj relay` on h with extra flags and returns it
// with its first address.
func startRelay(t *testing.T, ctx context.Context, l *Lab, h Host, flags ...string) (*Proc, string) {
	t.Helper()
	args := append([]string{"relay", "--data-dir", filepath.Join(t.TempDir(), h.Name)}, flags...)
	p, err := l.Start(ctx, h, nil, bin, args...)
	if err != nil {
		t.Fatal(err)
	}
	line, err := p.WaitLine(ctx, "the relay's address", func(s string) bool { return strings.HasPrefix(s, "relay address: /ip4/"+PublicNet) })
	if err != nil {
		t.Fatal(err)
	}
	return p, strings.TrimPrefix(line, "relay address: ")
}

// table is four players in the lab: the host first.
type table struct {
	procs []*Proc
}

// playFlags are the flags every player of a lab table gets: bots, few
// hands, bounded waits.
func playFlags(dir string, hands int) []string {
	return []string{"--bot", "--hands", fmt.Sprint(hands), "--progress", "json", "--data-dir", dir,
		"--connect-timeout", "60s", "--timeout", "20s", "--turn-timeout", "20s", "--ui-linger", "0s", "-v"}
}

// startTable starts a host on players[0] and joins on the others with
// its invite; extra are flags for every node.
func startTable(t *testing.T, ctx context.Context, l *Lab, players []Host, hands int, extra ...string) *table {
	t.Helper()
	dir := t.TempDir()
	env := []string{"XDG_CONFIG_HOME=" + dir}
	args := append([]string{"host", "--table", "lab", "--name", players[0].Name}, playFlags(filepath.Join(dir, players[0].Name), hands)...)
	host, err := l.Start(ctx, players[0], env, bin, append(args, extra...)...)
	if err != nil {
		t.Fatal(err)
	}
	line, err := host.WaitLine(ctx, "the invite", isEvent("invite"))
	if err != nil {
		t.Fatal(err)
	}
	code, _ := parseEvent(line)["invite"].(string)
	tb := &table{procs: []*Proc{host}}
	for _, h := range players[1:] {
		args := append([]string{"join", code, "--name", h.Name}, playFlags(filepath.Join(dir, h.Name), hands)...)
		p, err := l.Start(ctx, h, env, bin, append(args, extra...)...)
		if err != nil {
			t.Fatal(err)
		}
		tb.procs = append(tb.procs, p)
	}
	return tb
}

// waitAll waits for every node of tb to exit and checks that each exited
// 0 having audited every hand.
func (tb *table) waitAll(t *testing.T, ctx context.Context, hands int) {
	t.Helper()
	for _, p := range tb.procs {
		code, err := p.Wait(ctx)
		if err != nil {
			t.Errorf("%v; stderr:\n%s", err, tail(p.Stderr(), 4000))
			continue
		}
		if code != 0 {
			t.Errorf("%s exited %d; stdout:\n%s\nstderr:\n%s", p.Name, code, tail(strings.Join(p.Lines(), "\n"), 3000), tail(p.Stderr(), 4000))
			continue
		}
		n := 0
		for _, h := range events(p, "hand") {
			if h["audit_ok"] != true {
				t.Errorf("%s: hand %v not audited ok: %v", p.Name, h["hand"], h)
			}
			n++
		}
		if n != hands {
			t.Errorf("%s played %d hands, want %d", p.Name, n, hands)
		}
	}
}

// lastPaths returns, per peer, the last connected path event p printed
// (at the end of the game the others leave: "not connected").
func lastPaths(p *Proc) map[string]event {
	out := map[string]event{}
	for _, e := range events(p, "path") {
		if e["text"] != "not connected" {
			out[e["peer"].(string)] = e
		}
	}
	return out
}

// checkDirect checks that every node of tb ended with every peer direct.
func (tb *table) checkDirect(t *testing.T) {
	t.Helper()
	for _, p := range tb.procs {
		paths := lastPaths(p)
		if len(paths) != len(tb.procs)-1 {
			t.Errorf("%s reported paths to %d peers, want %d", p.Name, len(paths), len(tb.procs)-1)
		}
		for peer, e := range paths {
			if e["direct"] != true {
				t.Errorf("%s: path to %s is %v", p.Name, peer, e["text"])
			}
		}
	}
}

// TestHomes runs the lab's scenarios in sequence: see each subtest.
func TestHomes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	l := newLab(t, ctx)
	relayHost, err := l.AddPublic(ctx, "relay")
	if err != nil {
		t.Fatal(err)
	}
	var players []Host
	for i, name := range []string{"alice", "bob", "carol", "dave"} {
		hs, err := l.AddHome(ctx, Home{Name: fmt.Sprintf("home%d", i+1), Players: []string{name}})
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, hs...)
	}
	_, relayAddr := startRelay(t, ctx, l, relayHost)
	tb := startTable(t, ctx, l, players, 2, "--relay", relayAddr)
	tb.waitAll(t, ctx, 2)
	tb.checkDirect(t)
	if t.Failed() {
		for _, p := range tb.procs {
			t.Logf("%s stderr:\n%s", p.Name, tail(p.Stderr(), 6000))
		}
	}
}
