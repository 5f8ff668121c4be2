package node

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/ping"
)

// A direct connection whose path died without a word: the peer's home
// was renumbered (a new WAN address, its NAT's state lost), or a router
// on the way rebooted. A TCP connection learns it from the reset the
// peer's router sends to the new address's first segment; a QUIC
// connection hears nothing until its idle timeout (30 s), as long as the
// table's own silence timeout, so the hand ended with a silence fault
// (issue 29, natlab's renumber scenario). The node therefore pings every
// table peer it reaches directly every livenessEvery (libp2p's ping
// protocol, a few dozen bytes, on the direct connection the host
// prefers) and closes its direct connections to a peer that missed
// livenessMisses pings in a row: the table's stream then reconnects
// (SPEC §18.2) through a relay or a new hole punch, the hand paused, not
// lost. Only with Config.MoveToDirect, whose reconnection closing a
// connection needs.
//
// The node's connection to each relay of Config.Relays dies the same way,
// and with it the reservation: the relay would keep sending the peers'
// circuit requests (STOP) to the old address until the connection's idle
// timeout, longer than a reconnection grace of 20 s (natlab's renumber
// scenario: "connection to relay lost, reserving again" too late, the game
// ended in hand 2). So while a table is set the node pings its relays too,
// and closes a relay's dead connections after livenessMisses misses: the
// reservation is made again at once on a fresh dial (keepReservation). A
// relay that does not speak the ping protocol answered all the same.
const (
	livenessEvery  = 2 * time.Second
	livenessMisses = 3
)

// startLiveness runs the pings until Close.
func (n *Node) startLiveness() {
	n.bg.Go(func() {
		missed := map[peer.ID]int{}
		var mu sync.Mutex
		tick := time.NewTicker(livenessEvery)
		defer tick.Stop()
		for {
			select {
			case <-n.bgCtx.Done():
				return
			case <-tick.C:
			}
			t := n.table.Load()
			if t == nil {
				continue
			}
			var wg sync.WaitGroup
			for _, id := range n.livenessTargets(t.order) {
				direct := n.directConns(id)
				if len(direct) == 0 {
					mu.Lock()
					delete(missed, id)
					mu.Unlock()
					continue
				}
				wg.Go(func() {
					ok := n.pingOnce(id)
					mu.Lock()
					if ok {
						missed[id] = 0
					} else {
						missed[id]++
					}
					dead := missed[id] >= livenessMisses
					if dead {
						missed[id] = 0
					}
					mu.Unlock()
					if dead && n.bgCtx.Err() == nil {
						if slices.Contains(t.order, id) {
							n.log.Warn("direct connection stopped answering pings: closing it, the table's stream reconnects", "peer", id.String(), "misses", livenessMisses)
						} else {
							n.log.Warn("connection to relay stopped answering pings: closing it, reserving again", "relay", id.String(), "misses", livenessMisses)
						}
						for _, c := range n.directConns(id) {
							_ = c.Close()
						}
					}
				})
			}
			wg.Wait()
		}
	})
}

// livenessTargets returns the table's peers (order) followed by the
// relays of Config.Relays that are not among them, each once.
func (n *Node) livenessTargets(order []peer.ID) []peer.ID {
	out := slices.Clone(order)
	for _, s := range n.relays {
		if !slices.Contains(out, s.info.ID) {
			out = append(out, s.info.ID)
		}
	}
	return out
}

// directConns returns the node's direct (not relayed) connections to id.
func (n *Node) directConns(id peer.ID) []network.Conn {
	var out []network.Conn
	for _, c := range n.host.Network().ConnsToPeer(id) {
		if !isCircuit(c.RemoteMultiaddr()) && !c.Stat().Limited {
			out = append(out, c)
		}
	}
	return out
}

// pingOnce pings id once (libp2p's ping, over the connection the host
// prefers: a direct one when there is one), bounded by livenessEvery. A
// peer that refuses the ping protocol (go-multistream's "protocols not
// supported") answered: its connection is alive.
func (n *Node) pingOnce(id peer.ID) bool {
	ctx, cancel := context.WithTimeout(n.bgCtx, livenessEvery)
	defer cancel()
	select {
	case r := <-ping.Ping(ctx, n.host, id):
		return r.Error == nil || strings.Contains(r.Error.Error(), "protocols not supported")
	case <-ctx.Done():
		return false
	}
}
