package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/mentalmj/mentalmj/node"
)

// directWait bounds how long a player waits, before the first hand, for
// its relayed pairs to become direct (hole punching) when they can.
const directWait = 15 * time.Second

// name records a player's nickname for the path lines.
func (r *reporter) name(id peer.ID, nick string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if nick == "" {
		return
	}
	if r.nicks == nil {
		r.nicks = map[peer.ID]string{}
	}
	r.nicks[id] = nick
}

// who names a player: its nickname once known, else its short peer ID.
func (r *reporter) who(id peer.ID) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := r.nicks[id]; n != "" {
		return n
	}
	return node.ShortID(id)
}

// path prints a change of how the node reaches a table peer:
// "bob: direct (QUIC, hole punched)".
func (r *reporter) path(p node.Path) {
	r.event(map[string]any{"event": "path", "peer": p.Peer.String(), "direct": p.Direct, "transport": p.Transport,
		"how": p.How, "relay": p.Relay.String(), "why": p.Why, "nat_peer": p.NATPeer.String(), "nat_self": p.NATSelf.String(), "text": p.String()},
		"%s: %s", r.who(p.Peer), p)
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
			"%s stays relayed: %s.\n  A public relay (limited circuits: 2 minutes, 128 KiB) cannot carry a game. Run \"mentalmj relay\" with real limits where both of you can reach it and pass it with --relay, or forward a port on one of your routers.", out.who(p.Peer), p)
	}
}

// usePublic decides whether a player's node joins the public libp2p
// network: not with --no-public; always with --bootstrap; otherwise only
// when no --relay is given and it listens on more than loopback (a node
// only on loopback is reached from this machine alone: tests, "mentalmj
// local").
func usePublic(noPublic, bootstrap, relays bool, listen []multiaddr.Multiaddr) bool {
	switch {
	case noPublic:
		return false
	case bootstrap:
		return true
	case relays:
		return false
	}
	for _, a := range listen {
		if !manet.IsIPLoopback(a) {
			return true
		}
	}
	return false
}

// publicWait bounds the wait for a relay found on the public network.
const publicWait = 20 * time.Second

// joinPublic joins the public network and, if needRelay, waits up to
// publicWait for a relay found there, saying what it waits for; either
// failing is a clear message, and the game can still go on with invites
// and --peer addresses.
func joinPublic(ctx context.Context, n *node.Node, out *reporter, stderr io.Writer, cmd string, needRelay bool) {
	out.event(map[string]any{"event": "public", "step": "bootstrap"}, "joining the public libp2p network (bootstrap peers, up to 10s)…")
	reached, err := n.JoinPublic(ctx)
	if err != nil {
		out.event(map[string]any{"event": "public-offline", "err": err.Error()}, "offline from the public libp2p network")
		fmt.Fprintf(stderr, "%s: offline from the public libp2p network: %v\n(invites and --peer addresses on reachable machines still work; --relay gives a relay of your own)\n", cmd, err)
		return
	}
	out.event(map[string]any{"event": "public", "step": "bootstrapped", "reached": reached}, "on the public libp2p network (%d bootstrap peer(s) answered)", reached)
	if !needRelay {
		return
	}
	out.event(map[string]any{"event": "public", "step": "relay", "timeout_ms": publicWait.Milliseconds()}, "looking for a public relay to be reachable through (up to %s)…", publicWait)
	wctx, cancel := context.WithTimeout(ctx, publicWait)
	_, err = n.WaitRelayed(wctx)
	cancel()
	if err != nil {
		out.event(map[string]any{"event": "public-norelay", "err": err.Error()}, "no public relay found")
		fmt.Fprintf(stderr, "%s: %v\n(players behind NAT cannot reach you without one: still looking in the background; --relay gives a relay of your own)\n", cmd, err)
	}
}
