package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"

	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/node/invite"
)

// TestHostAndJoinInvite builds the binary and runs "mentalmj host" and
// three "mentalmj join INVITE" processes on 127.0.0.1: the host prints
// one invite line and each arrival, the guests show who has arrived, the
// four play a hand, and their four transcripts audit and agree.
func TestHostAndJoinInvite(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test starts four processes")
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
	h := startHost(t, ctx, bin, append([]string{"host", "--table", "friday"}, common("alice")...)...)
	inv, err := invite.Parse(h.invite)
	if err != nil || inv.Table != "friday" {
		t.Fatalf("printed invite: %+v %v", inv, err)
	}
	var rest bytes.Buffer
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(&rest, h.lines); close(copied) }()

	names := []string{"bob", "carol", "dave"}
	h.join(t, ctx, bin, names, common, 300*time.Millisecond) // arrive one after another
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
	for i, want := range []string{"bob joined, 2 of 4", "carol joined, 3 of 4", "dave joined, 4 of 4", `table "friday" is complete`, "all 1 hands audited ok"} {
		if !strings.Contains(rest.String(), want) {
			t.Errorf("host output lacks %d %q:\n%s", i, want, rest.String())
		}
	}
	if !strings.Contains(h.outs[0].String(), "at the table: alice (host), bob (you); 2 of 4") ||
		!strings.Contains(h.outs[0].String(), "dave joined, 4 of 4") && !strings.Contains(h.outs[0].String(), "is complete: alice, bob (you), carol, dave") {
		t.Errorf("bob's output does not show the arrivals:\n%s", h.outs[0].String())
	}
	paths := []string{filepath.Join(dir, "alice.mjt")}
	for i, name := range names {
		if !strings.Contains(h.outs[i].String(), "all 1 hands audited ok") {
			t.Errorf("%s did not finish the hand:\n%s", name, h.outs[i].String())
		}
		paths = append(paths, filepath.Join(dir, name+".mjt"))
	}
	// join ends by naming the game's tenhou.net/6 JSON and the command
	// that replays it; the tenhou.net/6 viewer link is not in the text.
	var games []string
	for i, name := range names {
		out := h.outs[i].String()
		js := filepath.Join(dir, name, "games")
		if !regexp.MustCompile(`(?m)^  watch it again: mentalmj view `+regexp.QuoteMeta(js)+`/[^ /]+\.json$`).MatchString(out) ||
			strings.Contains(out, "tenhou.net/6/#") || strings.Contains(out, "https://") {
			t.Errorf("%s's end of game does not name mentalmj view for %s/…json, or prints a link:\n%s", name, js, out)
		}
		games = append(games, js)
	}
	// stats reads what join wrote: the three guests' JSON and the four
	// transcripts are one game.
	var so, se bytes.Buffer
	if code := run(ctx, append(append([]string{"stats"}, games...), paths...), &so, &se); code != 0 ||
		!strings.Contains(so.String(), "Four-player: 1 game, 1 kyoku") || !strings.Contains(se.String(), "7 records read, 6 left out as copies") {
		t.Errorf("stats over the guests' games and the transcripts: exit %d\n%s\n%s", code, so.String(), se.String())
	}
	// Exit 0: every transcript verifies and they agree with each other.
	if out, err := exec.CommandContext(ctx, bin, append([]string{"audit"}, paths...)...).CombinedOutput(); err != nil {
		t.Errorf("mentalmj audit of the four transcripts: %v\n%s", err, out)
	}
}

// hostedTable is a "mentalmj host" process and the guests that joined by
// the invite it printed, for the end-to-end tests.
type hostedTable struct {
	host    *exec.Cmd
	hostErr bytes.Buffer
	// lines is the host's standard output after its invite line.
	lines  *bufio.Reader
	invite string // the mmj1… invite
	// outs and errs are each guest's combined output and exit error,
	// once wg is done.
	outs []bytes.Buffer
	errs []error
	wg   sync.WaitGroup
}

// startHost starts bin with args (a "host" command line) and reads the
// invite line it prints first; it fails t if there is none.
func startHost(t *testing.T, ctx context.Context, bin string, args ...string) *hostedTable {
	t.Helper()
	h := &hostedTable{host: exec.CommandContext(ctx, bin, args...)}
	out, err := h.host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	h.host.Stderr = &h.hostErr
	if err := h.host.Start(); err != nil {
		t.Fatal(err)
	}
	h.lines = bufio.NewReader(out)
	first, err := h.lines.ReadString('\n')
	if err != nil {
		t.Fatalf("host printed nothing: %v\n%s", err, h.hostErr.String())
	}
	m := regexp.MustCompile(`^mentalmj join (mmj1[a-z2-7]+)\n$`).FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("host's first line %q is not 'mentalmj join mmj1…'", first)
	}
	h.invite = m[1]
	return h
}

// join starts a guest per name, "join INVITE" with args(name), pause
// apart; h.wg is done when all have exited.
func (h *hostedTable) join(t *testing.T, ctx context.Context, bin string, names []string, args func(string) []string, pause time.Duration) {
	t.Helper()
	h.outs = make([]bytes.Buffer, len(names))
	h.errs = make([]error, len(names))
	for i, name := range names {
		cmd := exec.CommandContext(ctx, bin, append([]string{"join", h.invite}, args(name)...)...)
		cmd.Stdout, cmd.Stderr = &h.outs[i], &h.outs[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		h.wg.Go(func() { h.errs[i] = cmd.Wait() })
		time.Sleep(pause)
	}
}

// Bad invites and bad host or join command lines exit 2 naming the
// problem; a host that refuses makes join exit 1; a host or peer that
// cannot be reached is a fault, exit 3, as a connection lost in the game.
func TestInviteBadUsage(t *testing.T) {
	t.Parallel()
	key, err := node.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	id, _ := peer.IDFromPrivateKey(key)
	good, err := invite.Invite{Table: "friday", Host: id, Addrs: []multiaddr.Multiaddr{multiaddr.StringCast("/ip4/127.0.0.1/tcp/9")}}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"join", "mmj1nonsense"}, "invite"},
		{[]string{"join", good[:len(good)-3]}, "cut short"},
		{[]string{"join", "mmj2" + good[4:]}, "version"},
		{[]string{"join", good, "--table", "saturday"}, "--table"},
		{[]string{"join", good, "--peer", "/ip4/127.0.0.1/tcp/1/p2p/" + id.String()}, "not both"},
		{[]string{"join", good, good}, "unexpected argument"},
		{[]string{"join", good, "--name", "a\x07b"}, "--name"},
		{[]string{"host"}, "--table"},
		{[]string{"host", "--table", "a\nb"}, "--table"},
		{[]string{"host", "--table", "t", "extra"}, "unexpected argument"},
		{[]string{"host", "--table", "t", "--hands", "-1"}, "--hands"},
		{[]string{"host", "--table", "t", "--players", "5"}, "--players"},
		{[]string{"local", "--players", "2"}, "--players"},
		{[]string{"join", "--table", "t", "--peer", "/ip4/127.0.0.1/tcp/1/p2p/" + id.String()}, "--peer"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), c.args, &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2\n%s", c.args, code, stderr.String())
		}
		if !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%q: stderr does not say %q:\n%s", c.args, c.want, stderr.String())
		}
	}

	// Nobody listens at the invite's address. (--yes: a guest who
	// declines, as one without a terminal does, spends up to 30 s trying
	// to tell the unreachable host so.)
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"join", good, "--yes", "--listen", "/ip4/127.0.0.1/tcp/0", "--data-dir", t.TempDir(), "--connect-timeout", "1s"}, &stdout, &stderr); code != 3 || !strings.Contains(stderr.String(), "cannot reach the host") {
		t.Errorf("unreachable host: exit %d, want 3 (a fault):\n%s", code, stderr.String())
	}

	// Nobody listens at the three --peer addresses.
	joinArgs := []string{"join", "--table", "t", "--bot", "--no-public", "--listen", "/ip4/127.0.0.1/tcp/0", "--data-dir", t.TempDir(), "--connect-timeout", "1s"}
	for i := range 3 {
		k, err := node.NewIdentity()
		if err != nil {
			t.Fatal(err)
		}
		p, _ := peer.IDFromPrivateKey(k)
		joinArgs = append(joinArgs, "--peer", fmt.Sprintf("/ip4/127.0.0.1/tcp/%d/p2p/%s", 9+i, p))
	}
	stdout.Reset()
	stderr.Reset()
	if code := run(context.Background(), joinArgs, &stdout, &stderr); code != 3 || !strings.Contains(stderr.String(), "could not reach 3 of 3 peers") {
		t.Errorf("unreachable peers: exit %d, want 3 (a fault) naming them:\n%s", code, stderr.String())
	}

	// A host of table friday refuses an invite for saturday.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pr, pw := io.Pipe()
	hostDone := make(chan int, 1)
	var hostErr bytes.Buffer
	go func() {
		hostDone <- run(ctx, []string{"host", "--table", "friday", "--bot", "--listen", "/ip4/127.0.0.1/tcp/0", "--data-dir", t.TempDir(), "--transcript", filepath.Join(t.TempDir(), "h.mjt")}, pw, &hostErr)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if err != nil {
		t.Fatalf("host: %v %s", err, hostErr.String())
	}
	real, err := invite.Parse(strings.TrimPrefix(strings.TrimSpace(line), "mentalmj join "))
	if err != nil {
		t.Fatal(err)
	}
	real.Table = "saturday"
	other, err := real.Encode()
	if err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	code := run(ctx, []string{"join", other, "--yes", "--listen", "/ip4/127.0.0.1/tcp/0", "--data-dir", t.TempDir(), "--connect-timeout", "20s"}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "refused") || !strings.Contains(stderr.String(), `"friday"`) {
		t.Errorf("invite for another table: exit %d, want 1 and the host's refusal naming its table:\n%s", code, stderr.String())
	}
	cancel()
	if code := <-hostDone; code != 1 {
		t.Errorf("interrupted host: exit %d, want 1", code)
	}
}
