package node

import (
	"sync/atomic"
	"testing"
	"time"

	circuitproto "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/proto"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
)

// A relay that claims to be in the pool but cuts circuits is named, and
// another is used (issue 29, "Bad input"). A local DHT (a plain relay as
// the bootstrap peer, on 127.0.0.1) holds two pool relays that announce
// and grant a game's limits; FindPoolRelays finds both, and four nodes
// given what it found (as host and join give it, Config.Relays), dialling
// one another only through relays (as behind NATs), seat through one of
// them. Mid-hand 1, once that relay carried 30 kB of the game, it cuts
// every circuit and stops relaying. The hand finishes clean (no blame, no
// fault: the pairs reconnect within the reconnect grace), every stream
// then runs through the other pool relay, and the cut is reported as a
// RelayFault (RelayDroppedCircuit) naming the cutting relay, and never
// naming the other relay or a player.
func TestPoolRelayCuttingCircuitsIsNamed(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 2*time.Minute)
	boot := startRelay(t, tcpLoopback)
	pool := []*Relay{startPoolRelay(t, ctx, boot, nil, nil), startPoolRelay(t, ctx, boot, nil, nil)}
	found, faults, err := FindPoolRelays(ctx, PoolConfig{Bootstrap: []peer.AddrInfo{relayInfo(t, boot)}, Want: 2, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 2 || len(faults) != 0 {
		t.Fatalf("found %v and faults %v, want both pool relays and no fault", found, faults)
	}
	var relays []peer.AddrInfo
	for _, f := range found {
		relays = append(relays, f.Info)
	}
	nodes, logs := startWatchedNodes(t, protocol.Players, relays)
	for _, n := range nodes {
		n.relayOnly.Store(true)
	}
	waitAllReservations(t, ctx, nodes)
	seatWith(t, ctx, nodes, allRelayedTableOf(nil))
	// The relay node 0's stream to node 1 runs through cuts circuits;
	// the other one is the way on.
	l, _ := nodes[0].link(nodes[1].ID())
	l.outMu.Lock()
	via := relayOf(l.out.Conn().RemoteMultiaddr())
	l.outMu.Unlock()
	var cutter, other *Relay
	for _, r := range pool {
		if r.ID() == via {
			cutter = r
		} else {
			other = r
		}
	}
	if cutter == nil {
		t.Fatalf("node 0's stream to node 1 runs through %s, not a pool relay", via)
	}

	cut := make(chan struct{})
	var handDone, cutMidHand atomic.Bool
	go func() {
		defer close(cut)
		before := cutter.Stats().CircuitBytes
		for cutter.Stats().CircuitBytes-before < 30_000 {
			if ctx.Err() != nil {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
		// It stops relaying (reservations and circuits refused from now
		// on) and resets every circuit it carries.
		_ = cutter.service.Close()
		for _, c := range cutter.host.Network().Conns() {
			for _, s := range c.GetStreams() {
				if p := s.Protocol(); p == circuitproto.ProtoIDv2Hop || p == circuitproto.ProtoIDv2Stop {
					_ = s.Reset()
				}
			}
		}
		cutMidHand.Store(!handDone.Load())
	}()
	results := playHandsGrace(t, ctx, nodes, 1, 30*time.Second)
	handDone.Store(true)
	checkCleanHands(t, results, 1)
	<-cut
	if !cutMidHand.Load() {
		t.Fatal("the pool relay did not cut its circuits before the hand ended")
	}
	checkStreamsVia(t, nodes, other.ID())

	players := map[peer.ID]bool{}
	for _, n := range nodes {
		players[n.ID()] = true
	}
	reported := 0
	for i, fl := range logs {
		if f, ok := fl.find(RelayDroppedCircuit, cutter.ID()); ok {
			reported++
			mustContain(t, "message", f.Message("bob"), "relay "+ShortID(cutter.ID()), "dropped the circuit", "reconnecting over another path")
		}
		if fs := fl.about(other.ID()); len(fs) > 0 {
			t.Errorf("node %d names the pool relay that kept carrying: %v", i, fs)
		}
		fl.mu.Lock()
		for _, f := range fl.faults {
			if players[f.Relay] {
				t.Errorf("node %d names a player as a relay at fault: %s", i, f)
			}
		}
		fl.mu.Unlock()
	}
	if reported == 0 {
		t.Fatal("no node named the pool relay that cut its circuits")
	}
	t.Logf("pool relay %s cut its circuits; %d node(s) named it; the game went on through %s", ShortID(cutter.ID()), reported, ShortID(other.ID()))
}
