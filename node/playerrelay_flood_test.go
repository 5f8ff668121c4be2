package node

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	pbv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/pb"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/proto"
	"github.com/libp2p/go-msgio/pbio"
)

// A flood of relay requests from strangers reaches nothing (issue 29,
// "Bad input"): while the table of TestPairThroughPlayerRelay plays a
// hand with its pair through a player's table relay, strangers send both
// relaying players (nodes 2 and 3) reservation and CONNECT requests (to
// node 0, which holds a reservation on each) at once: floodOutsiders
// hosts the gater does not admit, and one stranger it does admit (it is
// in the players' Config.Relays, as a relay or spectator would be), which
// sends floodRequests of each kind to each player concurrently. Every
// request is refused; the ACL refuses each one that reaches it; the
// relays open no circuit but the pair's and carry nothing for strangers
// (no stranger is connected to a table peer through them), and the hand
// ends clean (no blame, no fault).
func TestStrangerFloodRefusedByTableRelay(t *testing.T) {
	t.Parallel()
	const (
		floodOutsiders = 20
		floodRequests  = 20
	)
	ctx := testContext(t, time.Minute)
	admitted, err := libp2p.New(libp2p.ListenAddrStrings(tcpLoopback))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = admitted.Close() })
	nodes, _, _ := startFirewalledTableWith(t, ctx, []peer.AddrInfo{{ID: admitted.ID(), Addrs: admitted.Addrs()}})
	players := nodes[2:]
	for _, p := range players {
		waitPlayerReservation(t, ctx, nodes[0], p.ID())
	}
	outsiders := make([]host.Host, floodOutsiders)
	for i := range outsiders {
		if outsiders[i], err = libp2p.New(libp2p.ListenAddrStrings(tcpLoopback)); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = outsiders[i].Close() })
	}
	// The pair's circuits run already; whatever the relays open from now
	// on must be the pair's.
	start := time.Now()
	var circuitsBefore, refusedRsvBefore, refusedConnBefore int64
	for _, p := range players {
		circuitsBefore += p.playerRelayStats.circuits.Load()
		refusedRsvBefore += p.playerRelayStats.refusedRsv.Load()
		refusedConnBefore += p.playerRelayStats.refusedCircuits.Load()
	}

	var granted atomic.Int64 // stranger requests that succeeded
	var wg sync.WaitGroup
	fctx, fcancel := context.WithTimeout(ctx, 20*time.Second)
	defer fcancel()
	ask := func(h host.Host, p *Node) {
		info := peer.AddrInfo{ID: p.ID(), Addrs: p.host.Addrs()}
		if _, err := client.Reserve(fctx, h, info); err == nil {
			granted.Add(1)
			t.Errorf("stranger %s got a reservation on player %s's table relay", ShortID(h.ID()), ShortID(p.ID()))
		}
		// A CONNECT of its own on a new hop stream: the swarm would
		// merge concurrent dials of one peer into one, and back off.
		if status, err := hopConnect(fctx, h, info, nodes[0].ID()); err == nil && status == pbv2.Status_OK {
			granted.Add(1)
			t.Errorf("stranger %s got a circuit to a table peer through player %s's table relay", ShortID(h.ID()), ShortID(p.ID()))
		}
	}
	for _, p := range players {
		for range floodRequests {
			wg.Go(func() { ask(admitted, p) })
		}
		for _, o := range outsiders {
			wg.Go(func() { ask(o, p) })
		}
	}
	results := playHands(t, ctx, nodes, 1)
	wg.Wait()
	t.Logf("flood of %d requests over %v, with a hand played", 2*len(players)*(floodRequests+floodOutsiders), time.Since(start).Round(time.Millisecond))
	checkCleanHands(t, results, 1)
	if granted.Load() != 0 {
		t.Fatalf("%d stranger requests granted", granted.Load())
	}

	// The ACL refused every request of the admitted stranger (the
	// outsiders never got past the gater).
	var circuits, refusedRsv, refusedConn int64
	for _, p := range players {
		circuits += p.playerRelayStats.circuits.Load()
		refusedRsv += p.playerRelayStats.refusedRsv.Load()
		refusedConn += p.playerRelayStats.refusedCircuits.Load()
	}
	if got, want := refusedRsv-refusedRsvBefore, int64(len(players)*floodRequests); got < want {
		t.Errorf("the table relays' ACL refused %d reservations during the flood, want ≥ %d (the admitted stranger's)", got, want)
	}
	if got, want := refusedConn-refusedConnBefore, int64(len(players)*floodRequests); got < want {
		t.Errorf("the table relays refused %d circuits during the flood, want ≥ %d (the admitted stranger's)", got, want)
	}
	// No circuit for a stranger: every circuit opened since the flood
	// began is one the pair holds (nodes 0 and 1 through a player).
	var pairCircuits int64
	for _, c := range nodes[0].host.Network().ConnsToPeer(nodes[1].ID()) {
		if isCircuit(c.RemoteMultiaddr()) && !c.Stat().Opened.Before(start) {
			pairCircuits++
		}
	}
	if opened := circuits - circuitsBefore; opened > pairCircuits {
		t.Errorf("the table relays opened %d circuits during the flood, the pair holds %d of them: a stranger got a circuit", opened, pairCircuits)
	}
	for _, n := range nodes {
		for _, s := range append(outsiders, admitted) {
			for _, c := range n.host.Network().ConnsToPeer(s.ID()) {
				if isCircuit(c.RemoteMultiaddr()) {
					t.Errorf("table peer %s holds a circuit from stranger %s: %s", ShortID(n.ID()), ShortID(s.ID()), c.RemoteMultiaddr())
				}
			}
		}
	}
}

// hopConnect sends one circuit relay v2 CONNECT for dest to relay r from
// h on a new hop stream and returns the relay's answer (a relay that
// accepts would go on to carry the stream: it is reset here).
func hopConnect(ctx context.Context, h host.Host, r peer.AddrInfo, dest peer.ID) (pbv2.Status, error) {
	ctx, cancel := context.WithTimeout(network.WithAllowLimitedConn(ctx, "test"), 5*time.Second)
	defer cancel()
	h.Peerstore().AddAddrs(r.ID, r.Addrs, time.Minute)
	s, err := h.NewStream(ctx, r.ID, proto.ProtoIDv2Hop)
	if err != nil {
		return 0, err
	}
	defer func() { _ = s.Reset() }()
	if d, ok := ctx.Deadline(); ok {
		_ = s.SetDeadline(d)
	}
	msg := &pbv2.HopMessage{Type: pbv2.HopMessage_CONNECT.Enum(), Peer: &pbv2.Peer{Id: []byte(dest)}}
	if err := pbio.NewDelimitedWriter(s).WriteMsg(msg); err != nil {
		return 0, err
	}
	var resp pbv2.HopMessage
	if err := pbio.NewDelimitedReader(s, 4096).ReadMsg(&resp); err != nil {
		return 0, err
	}
	return resp.GetStatus(), nil
}
