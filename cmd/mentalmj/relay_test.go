package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/node"
)

// startRelayCommand runs "mentalmj relay" in-process on 127.0.0.1 with its
// identity in dir, and returns its first printed relay address and a
// function that interrupts it and returns its exit code and the lines it
// printed after "relaying until interrupted". extra are further flags.
func startRelayCommand(t *testing.T, ctx context.Context, dir string, extra ...string) (string, func() (int, string)) {
	t.Helper()
	rctx, cancel := context.WithCancel(ctx)
	pr, pw := io.Pipe()
	code := make(chan int, 1)
	var stderr bytes.Buffer
	go func() {
		code <- run(rctx, append([]string{"relay", "--listen", "/ip4/127.0.0.1/tcp/0", "--data-dir", dir}, extra...), pw, &stderr)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var addr string
	for sc.Scan() {
		if a, ok := strings.CutPrefix(sc.Text(), "relay address: "); ok && addr == "" {
			addr = a
		}
		if sc.Text() == "relaying until interrupted" {
			break
		}
	}
	var rest bytes.Buffer
	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(&rest, pr)
		close(copied)
	}()
	if addr == "" {
		cancel()
		t.Fatalf("relay printed no address (exit %d): %s", <-code, stderr.String())
	}
	return addr, func() (int, string) {
		cancel()
		c := <-code
		<-copied
		return c, rest.String()
	}
}

// TestJoinThroughRelayCommand runs "mentalmj relay" and four "mentalmj join
// --bot --relay" in-process, each given the others only by relayed
// addresses composed from the relay's printed address and their peer IDs;
// they play a hand, each prints its relayed peer address, and the relay
// keeps its identity (so its address) across a restart.
func TestJoinThroughRelayCommand(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	dir := t.TempDir()
	relayDir := filepath.Join(dir, "relay")
	relayAddr, stop := startRelayCommand(t, ctx, relayDir)
	key, err := node.ReadIdentity(filepath.Join(relayDir, node.IdentityFile))
	if err != nil {
		t.Fatal(err)
	}
	relayID, _ := peer.IDFromPrivateKey(key)
	if !strings.HasSuffix(relayAddr, "/p2p/"+relayID.String()) {
		t.Fatalf("relay address %s does not end in the relay's identity %s", relayAddr, relayID)
	}

	ct := playThroughCircuits(t, ctx, dir, relayAddr, "relayed", "--relay", relayAddr, "--connect-timeout", "60s")
	circuit, dirs, outs, errs, codes := ct.circuit, ct.dirs, ct.outs, ct.errs, ct.codes
	const players = 4
	for i := range players {
		if codes[i] != 0 {
			t.Fatalf("player %d: exit %d\n%s\n%s", i, codes[i], outs[i].String(), errs[i].String())
		}
		var printed, done bool
		for line := range strings.Lines(outs[i].String()) {
			ev, err := progress.Decode([]byte(line))
			if err != nil {
				t.Fatalf("player %d: bad progress line %q: %v", i, line, err)
			}
			a, isAddr := ev.(progress.Address)
			printed = printed || isAddr && a.Addr == circuit[i]
			_, isDone := ev.(progress.Done)
			done = done || isDone
		}
		if !printed || !done {
			t.Errorf("player %d: relayed address %s printed %v, done %v:\n%s", i, circuit[i], printed, done, outs[i].String())
		}
	}
	code, out := stop()
	if code != 0 {
		t.Errorf("relay exit %d after interrupt, want 0", code)
	}
	checkRelayCarried(t, out, filepath.Join(dirs[0], "t.mjt"))
	again, stop := startRelayCommand(t, ctx, relayDir)
	_, _ = stop()
	if !strings.HasSuffix(again, "/p2p/"+relayID.String()) {
		t.Errorf("restarted relay has address %s, not identity %s", again, relayID)
	}
}

// checkRelayCarried checks the relay's stats line at exit, out, after a
// table played through it: it counts at least the bytes of a player's
// transcript (at transcript, the envelopes the player sent or received,
// each of which crossed a circuit at least once, framed as on the wire)
// as relayed through circuits, and no circuit left open.
func checkRelayCarried(t *testing.T, out, transcript string) {
	t.Helper()
	st, err := os.Stat(transcript)
	if err != nil {
		t.Fatal(err)
	}
	line := ""
	for l := range strings.Lines(out) {
		if strings.HasPrefix(l, "relay stats at exit: ") {
			line = l
		}
	}
	var held, open, circuits, relayed int64
	if _, err := fmt.Sscanf(strings.TrimPrefix(line, "relay stats at exit: "), "%d reservations held, %d circuits open (%d in all), %d B relayed through circuits",
		&held, &open, &circuits, &relayed); err != nil {
		t.Fatalf("relay printed no stats at exit (%v):\n%s", err, out)
	}
	t.Logf("a transcript of %d bytes; %s", st.Size(), strings.TrimSpace(line))
	if relayed < st.Size() || circuits == 0 || open != 0 {
		t.Errorf("relay stats at exit: %d circuits (%d open), %d bytes relayed; want none open and at least the %d bytes of a player's transcript:\n%s",
			circuits, open, relayed, st.Size(), line)
	}
}

func TestRelayBadArguments(t *testing.T) {
	t.Parallel()
	id := "12D3KooWAEKiG8Z8YqVsGbJNwQfyaDtqubZ5BzGaVkrvPDssJbD1"
	peers := []string{"--peer", "/ip4/127.0.0.1/tcp/1/p2p/" + id, "--peer", "/ip4/127.0.0.1/tcp/2/p2p/" + id, "--peer", "/ip4/127.0.0.1/tcp/3/p2p/" + id}
	for _, args := range [][]string{
		append([]string{"join", "--table", "t", "--relay", "/ip4/127.0.0.1/tcp/4001"}, peers...),
		append([]string{"join", "--table", "t", "--relay", "/ip4/127.0.0.1/tcp/4001/p2p/" + id + "/p2p-circuit"}, peers...),
		{"relay", "--listen", "nonsense"},
		{"relay", "extra"},
		{"relay", "--stats", "-1s"},
		{"relay", "--progress", "xml"},
		{"relay", "--pool", "--limit-duration", "2m", "--limit-data", "128KiB"},
		{"relay", "--bootstrap", "/ip4/127.0.0.1/tcp/1/p2p/" + id},
		{"relay", "--pool", "--bootstrap", "nonsense"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
		want := "--relay"
		if args[0] == "relay" {
			want = "mentalmj relay"
		}
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("%v: stderr does not name %q:\n%s", args, want, stderr.String())
		}
	}
}

// circuitTable is four "mentalmj join --bot" run in-process, each with
// its own data directory dirs[i] and transcript DIR/t.mjt, given the
// others only at their circuit addresses through one relay (circuit[i]:
// RELAY/p2p-circuit/p2p/ID), and what each printed and returned.
type circuitTable struct {
	dirs, circuit, ids []string
	outs, errs         []bytes.Buffer
	codes              []int
}

// playThroughCircuits plays one hand of table at four such players under
// dir, with their circuits through relayAddr; args are the flags every
// join gets besides (how it finds relays, its connect timeout).
func playThroughCircuits(t *testing.T, ctx context.Context, dir, relayAddr, table string, args ...string) *circuitTable {
	t.Helper()
	const players = 4
	ct := &circuitTable{dirs: make([]string, players), circuit: make([]string, players), ids: make([]string, players),
		outs: make([]bytes.Buffer, players), errs: make([]bytes.Buffer, players), codes: make([]int, players)}
	for i := range players {
		ct.dirs[i] = filepath.Join(dir, fmt.Sprintf("p%d", i))
		k, err := node.LoadOrCreateIdentity(ct.dirs[i])
		if err != nil {
			t.Fatal(err)
		}
		id, _ := peer.IDFromPrivateKey(k)
		ct.ids[i] = id.String()
		ct.circuit[i] = relayAddr + "/p2p-circuit/p2p/" + id.String()
	}
	var wg sync.WaitGroup
	for i := range players {
		a := append([]string{"join", "--bot", "--table", table, "--hands", "1", "--listen", "/ip4/127.0.0.1/tcp/0",
			"--data-dir", ct.dirs[i], "--transcript", filepath.Join(ct.dirs[i], "t.mjt"),
			"--progress", "json", "--timeout", "20s"}, args...)
		for j := range players {
			if j != i {
				a = append(a, "--peer", ct.circuit[j])
			}
		}
		wg.Go(func() { ct.codes[i] = run(ctx, a, &ct.outs[i], &ct.errs[i]) })
	}
	wg.Wait()
	return ct
}
