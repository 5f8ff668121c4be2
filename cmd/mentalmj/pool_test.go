package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/node"
)

// TestJoinThroughPoolRelay runs a plain "mentalmj relay" as the DHT's
// bootstrap peer, a "mentalmj relay --pool --bootstrap" announcing itself
// there, and four "mentalmj join --bot --bootstrap" given only the
// bootstrap peer and each other's addresses through the pool relay: each
// finds the pool relay in the DHT (a "pool-found" event with 1), reserves
// on it, and they play a hand through it (it carries circuit bytes).
func TestJoinThroughPoolRelay(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	dir := t.TempDir()
	bootAddr, stopBoot := startRelayCommand(t, ctx, filepath.Join(dir, "boot"))
	defer stopBoot()
	poolAddr, stopPool := startRelayCommand(t, ctx, filepath.Join(dir, "pool"), "--pool", "--bootstrap", bootAddr)
	// The pool relay announces itself in the background: wait for the
	// DHT to hold its record (a look-up as the players make it).
	bootInfo, _ := node.ParseRelay(bootAddr)
	for {
		found, _, err := node.FindPoolRelays(ctx, node.PoolConfig{Bootstrap: []peer.AddrInfo{bootInfo}, Timeout: 5 * time.Second})
		if err == nil && len(found) == 1 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("pool relay never found in the DHT: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}

	ct := playThroughCircuits(t, ctx, dir, poolAddr, "pooled", "--bootstrap", bootAddr, "--connect-timeout", "60s")
	dirs, outs, errs, codes := ct.dirs, ct.outs, ct.errs, ct.codes
	const players = 4
	for i := range players {
		if codes[i] != 0 {
			t.Fatalf("player %d: exit %d\n%s\n%s", i, codes[i], outs[i].String(), errs[i].String())
		}
		var pooled, done bool
		for line := range strings.Lines(outs[i].String()) {
			ev, err := progress.Decode([]byte(line))
			if err != nil {
				continue // an event this test does not look at
			}
			if p, ok := ev.(progress.Public); ok && p.Step == "pool-found" && p.Reached != nil && *p.Reached == 1 {
				pooled = true
			}
			_, isDone := ev.(progress.Done)
			done = done || isDone
		}
		if !pooled || !done {
			t.Errorf("player %d: pool relay found %v, done %v:\n%s", i, pooled, done, outs[i].String())
		}
	}
	code, out := stopPool()
	if code != 0 {
		t.Errorf("pool relay exit %d after interrupt, want 0", code)
	}
	checkRelayCarried(t, out, filepath.Join(dirs[0], "t.mjt"))
}

// TestNoPathCanCarryRefusesToStart: four "mentalmj join --bot" reach each
// other only through a relay with a public relay's limits (2 minutes,
// 128 KiB; on 127.0.0.1 no hole can be punched, and no pool relay or
// player relay is there): no player plays a hand or exits 0; a player
// that refuses (at least one) said before, for each of the three others,
// that the pair stays on limited circuits, and its error names them and
// the remedies, with exit code 3. The others may fail to reach a player
// that refused first (the refusal is not agreed by the table).
func TestNoPathCanCarryRefusesToStart(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	dir := t.TempDir()
	relayAddr, stop := startRelayCommand(t, ctx, filepath.Join(dir, "relay"), "--limit-duration", "2m", "--limit-data", "128KiB")
	defer stop()
	ct := playThroughCircuits(t, ctx, dir, relayAddr, "limited", "--relay", relayAddr, "--connect-timeout", "30s")
	ids, outs, errs, codes := ct.ids, ct.outs, ct.errs, ct.codes
	const players = 4
	refused := 0
	for i := range players {
		for line := range strings.Lines(outs[i].String()) {
			if ev, err := progress.Decode([]byte(line)); err == nil {
				if _, ok := ev.(progress.Hand); ok {
					t.Errorf("player %d played a hand on limited circuits", i)
				}
			}
		}
		if codes[i] == 0 {
			t.Errorf("player %d: exit 0 on limited circuits alone\n%s", i, errs[i].String())
		}
		if codes[i] != 3 {
			// A player whose peer refused first may fail to reach it
			// (exit 1): the refusal is each node's own, not agreed by
			// the table (docs/networking.md).
			t.Logf("player %d: exit %d: %s", i, codes[i], errs[i].String())
			continue
		}
		refused++
		stays := 0
		for line := range strings.Lines(outs[i].String()) {
			ev, err := progress.Decode([]byte(line))
			if err != nil {
				continue // an event this test does not look at
			}
			if e, ok := ev.(progress.StaysRelayed); ok && e.Limited {
				stays++
			}
		}
		if stays != players-1 {
			t.Errorf("player %d: %d pairs said to stay on limited circuits, want %d", i, stays, players-1)
		}
		msg := errs[i].String()
		want := []string{"not starting a game the network cannot carry", "mentalmj relay --pool", "--relay", "forward a port"}
		for j := range players {
			if j != i {
				want = append(want, node.ShortID(mustDecodeID(t, ids[j])))
			}
		}
		for _, w := range want {
			if !strings.Contains(msg, w) {
				t.Errorf("player %d: error does not say %q:\n%s", i, w, msg)
			}
		}
	}
	if refused == 0 {
		t.Errorf("no player refused to start with exit 3")
	}
}

// mustDecodeID decodes a peer ID's string form.
func mustDecodeID(t *testing.T, s string) peer.ID {
	t.Helper()
	id, err := peer.Decode(s)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
