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
