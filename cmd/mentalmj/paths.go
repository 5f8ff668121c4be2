package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/node"
)

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
func joinPublic(ctx context.Context, n *node.Node, out *progress.Reporter, stderr io.Writer, cmd string, needRelay bool) {
	out.Event(progress.Public{Step: "bootstrap"}, "joining the public libp2p network (bootstrap peers, up to 10s)…")
	reached, err := n.JoinPublic(ctx)
	if err != nil {
		out.Event(progress.PublicOffline{Err: err.Error()}, "offline from the public libp2p network")
		fmt.Fprintf(stderr, "%s: offline from the public libp2p network: %v\n(invites and --peer addresses on reachable machines still work; --relay gives a relay of your own)\n", cmd, err)
		return
	}
	out.Event(progress.Public{Step: "bootstrapped", Reached: &reached}, "on the public libp2p network (%d bootstrap peer(s) answered)", reached)
	if !needRelay {
		return
	}
	out.Event(progress.Public{Step: "relay", TimeoutMs: new(publicWait.Milliseconds())}, "looking for a public relay to be reachable through (up to %s)…", publicWait)
	wctx, cancel := context.WithTimeout(ctx, publicWait)
	_, err = n.WaitRelayed(wctx)
	cancel()
	if err != nil {
		out.Event(progress.PublicNoRelay{Err: err.Error()}, "no public relay found")
		fmt.Fprintf(stderr, "%s: %v\n(players behind NAT cannot reach you without one: still looking in the background; --relay gives a relay of your own)\n", cmd, err)
	}
}
