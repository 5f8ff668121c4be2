package main

import (
	"context"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/node"
)

// directWait bounds how long a player waits, before the first hand, for
// its relayed pairs to become direct (hole punching) when they can.
const directWait = 15 * time.Second

// reportPath prints a change of how the node reaches a table peer:
// "path: 12D3…xyz direct (QUIC, hole punched)".
func (r *reporter) path(p node.Path) {
	r.event(map[string]any{"event": "path", "peer": p.Peer.String(), "direct": p.Direct, "transport": p.Transport,
		"how": p.How, "relay": p.Relay.String(), "why": p.Why, "nat_peer": p.NATPeer.String(), "nat_self": p.NATSelf.String(), "text": p.String()},
		"path to %s: %s", node.ShortID(p.Peer), p)
}

// relay prints that the node lost or regained its slot on a relay. A lost
// relay is named, never a player: the pairs it carried go on directly or
// through another relay, and the game pauses only if one has no path left.
func (r *reporter) relay(id peer.ID, held bool, err error) {
	if held {
		r.event(map[string]any{"event": "relay", "relay": id.String(), "held": true},
			"relay %s: slot reserved again", node.ShortID(id))
		return
	}
	r.event(map[string]any{"event": "relay", "relay": id.String(), "held": false, "err": err.Error()},
		"relay %s lost (%v): direct pairs are unaffected, relayed ones go through another relay; reserving again", node.ShortID(id), err)
}

// awaitDirect waits up to directWait for the table's relayed pairs to
// become direct, saying what it waits for, and then names every pair that
// stays relayed, with why and what to do about it: before the first hand,
// so that players on public relays (limited circuits) know at once.
func awaitDirect(ctx context.Context, n *node.Node, out *reporter) {
	relayed := 0
	for _, p := range n.Paths() {
		if !p.Direct {
			relayed++
		}
	}
	if relayed == 0 {
		return
	}
	out.event(map[string]any{"event": "direct-wait", "relayed": relayed, "timeout_ms": directWait.Milliseconds()},
		"waiting up to %s for %d relayed pair(s) to become direct (hole punching)…", directWait, relayed)
	wctx, cancel := context.WithTimeout(ctx, directWait)
	paths := n.WaitDirect(wctx)
	cancel()
	for _, p := range paths {
		if p.Direct {
			continue
		}
		out.event(map[string]any{"event": "stays-relayed", "peer": p.Peer.String(), "relay": p.Relay.String(), "why": p.Why,
			"nat_peer": p.NATPeer.String(), "nat_self": p.NATSelf.String()},
			"%s stays relayed: %s.\n  A public relay (limited circuits: 2 minutes, 128 KiB) cannot carry a game. Run \"mentalmj relay\" with real limits where both of you can reach it and pass it with --relay, or forward a port on one of your routers.", node.ShortID(p.Peer), p)
	}
}
