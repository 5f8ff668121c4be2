package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/node"
)

// poolWait bounds the look-up of the community relay pool before a player's
// node starts.
const poolWait = 15 * time.Second

// lookPool looks the community relay pool up on the DHT (from bootstrap;
// the public bootstrap peers when empty) and returns the pool relays whose
// circuits carry a game, to reserve on before any public relay. Each pool
// relay skipped is named (a "relay-fault" event of kind "pool" and a line
// on stderr); a failed look-up is a line on stderr, and the game goes on
// without the pool.
func lookPool(ctx context.Context, bootstrap []peer.AddrInfo, out *progress.Reporter, stderr io.Writer, cmd string) []peer.AddrInfo {
	out.Event(progress.Public{Step: "pool", TimeoutMs: new(poolWait.Milliseconds())}, "looking up the community relay pool (up to %s)…", poolWait)
	found, faults, err := node.FindPoolRelays(ctx, node.PoolConfig{Bootstrap: bootstrap, Timeout: poolWait})
	for _, f := range faults {
		out.Event(progress.RelayFault{Kind: "pool", Relay: f.Relay.String(), Text: f.Error()}, "%v", f)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n(looking for public relays instead: they can only help punch holes, never carry a game; --relay gives a relay of your own)\n", cmd, err)
		return nil
	}
	infos := make([]peer.AddrInfo, len(found))
	for i, r := range found {
		infos[i] = r.Info
	}
	n := len(found)
	out.Event(progress.Public{Step: "pool-found", Reached: &n}, "community relay pool: %d relay(s) whose circuits carry a game%s", n, poolList(found))
	return infos
}

// poolList writes the pool relays found as ": ID (limits), …" ("" for none).
func poolList(found []node.PoolRelay) string {
	s := ""
	for i, r := range found {
		sep := ", "
		if i == 0 {
			sep = ": "
		}
		s += fmt.Sprintf("%s%s (%s, %d MiB a circuit)", sep, node.ShortID(r.Info.ID), r.Duration, r.Data>>20)
	}
	return s
}
