package node

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	circuitproto "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/proto"
	"github.com/multiformats/go-multiaddr"
)

// pathLog records the paths one node reports (Config.OnPath).
type pathLog struct {
	mu    sync.Mutex
	paths map[peer.ID]Path
}

func (p *pathLog) onPath(path Path) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.paths == nil {
		p.paths = map[peer.ID]Path{}
	}
	p.paths[path.Peer] = path
}

func (p *pathLog) last(id peer.ID) Path {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.paths[id]
}

// startFirewalledTable starts four nodes on 127.0.0.1 with no relay but
// their own table relays, and a firewall (the gater's, as between two
// homes whose routers let nothing in) between nodes 0 and 1: their only
// path is through node 2 or 3. It seats them and returns them with their
// path logs.
func startFirewalledTable(tb testing.TB, ctx context.Context) ([]*Node, []*pathLog, []*faultLog) {
	tb.Helper()
	return startFirewalledTableWith(tb, ctx, nil)
}

// startFirewalledTableWith is startFirewalledTable with relays as the
// Config.Relays of the two players (nodes 2 and 3) that can relay the
// pair.
func startFirewalledTableWith(tb testing.TB, ctx context.Context, relays []peer.AddrInfo) ([]*Node, []*pathLog, []*faultLog) {
	tb.Helper()
	var nodes []*Node
	logs := make([]*pathLog, 4)
	faults := make([]*faultLog, 4)
	for i := range logs {
		logs[i], faults[i] = &pathLog{}, &faultLog{}
		c := Config{OnPath: logs[i].onPath, OnRelayFault: faults[i].onFault, OnRelay: faults[i].onRelay}
		if i >= 2 {
			c.Relays = relays
		}
		nodes = append(nodes, startNodes(tb, 1, tcpLoopback, c)[0])
	}
	nodes[0].gater.firewalled.Store(&map[peer.ID]bool{nodes[1].ID(): true})
	nodes[1].gater.firewalled.Store(&map[peer.ID]bool{nodes[0].ID(): true})
	seat(tb, ctx, nodes)
	return nodes, logs, faults
}

// A pair whose only path is through a player plays: nodes 0 and 1 cannot
// connect directly (a firewall on both sides), have no relay of anyone
// else's, and reach each other through the table relay of node 2 or 3.
// A hand is played clean (no blame, no fault), the pair's streams run
// through a player, the path line says "(a player)", and that player's
// relay carried bytes.
func TestPairThroughPlayerRelay(t *testing.T) {
	ctx := testContext(t, 2*time.Minute)
	nodes, logs, _ := startFirewalledTable(t, ctx)
	a, b := nodes[0], nodes[1]
	for _, pair := range [][2]*Node{{a, b}, {b, a}} {
		l, _ := pair[0].link(pair[1].ID())
		l.outMu.Lock()
		s := l.out
		l.outMu.Unlock()
		via := relayOf(s.Conn().RemoteMultiaddr())
		if via != nodes[2].ID() && via != nodes[3].ID() {
			t.Fatalf("stream %s -> %s runs over %s, not through a player", ShortID(pair[0].ID()), ShortID(pair[1].ID()), s.Conn().RemoteMultiaddr())
		}
	}
	checkCleanHands(t, playHands(t, ctx, nodes, 1), 1)
	p := logs[0].last(b.ID())
	if !p.RelayPlayer || p.Direct || (p.Relay != nodes[2].ID() && p.Relay != nodes[3].ID()) {
		t.Errorf("node 0's path to node 1 = %+v, want relayed via node 2 or 3 (a player)", p)
	}
	names := map[peer.ID]string{nodes[2].ID(): "carol", nodes[3].ID(): "dave"}
	if got := p.Describe(func(id peer.ID) string { return names[id] }); !strings.HasPrefix(got, "relayed via "+names[p.Relay]+" (a player)") {
		t.Errorf("path line %q, want it to start %q", got, "relayed via "+names[p.Relay]+" (a player)")
	}
	var carried int64
	for _, n := range nodes[2:] {
		carried += n.playerRelayStats.bytes.Load()
	}
	if carried == 0 {
		t.Error("the players' table relays carried no bytes")
	}
	t.Logf("bytes through the players' table relays for one hand: %d", carried)
	// The pairs that reach each other directly stay direct.
	for _, q := range nodes[2:] {
		if p := logs[0].last(q.ID()); !p.Direct {
			t.Errorf("node 0's path to a reachable player is %s", p)
		}
	}
}

// A player that drops the circuit it relays, and then refuses to relay,
// is a fault of that path, never a blame: the pair of
// TestPairThroughPlayerRelay, mid-hand, loses its circuit through the
// player (that player's node resets its relay streams and stops its table
// relay), reconnects through the table's other player, and both hands
// finish clean (no blame, no fault of any player). The drop is reported
// naming the relaying player as the relay.
func TestPlayerDroppingCircuitFallsBack(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	nodes, _, faults := startFirewalledTable(t, ctx)
	a, b := nodes[0], nodes[1]
	l, _ := a.link(b.ID())
	l.outMu.Lock()
	via := relayOf(l.out.Conn().RemoteMultiaddr())
	l.outMu.Unlock()
	relaying, other := relayingPlayer(nodes, via)
	if relaying == nil {
		t.Fatalf("node 0's stream to node 1 runs through %s, not a player", via)
	}
	dropped := make(chan struct{})
	go func() {
		defer close(dropped)
		// Mid-hand 1: once the player has relayed 30 kB of the pair's
		// game (a hand is about 100 kB).
		for relaying.playerRelayStats.bytes.Load() < 30_000 {
			if ctx.Err() != nil {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
		dropPlayerRelay(relaying)
	}()
	checkCleanHands(t, playHandsGrace(t, ctx, nodes, 2, 30*time.Second), 2)
	<-dropped
	for _, pair := range [][2]*Node{{a, b}, {b, a}} {
		l, _ := pair[0].link(pair[1].ID())
		l.outMu.Lock()
		got := relayOf(l.out.Conn().RemoteMultiaddr())
		l.outMu.Unlock()
		if got != other.ID() {
			t.Errorf("after the drop, %s's stream to %s runs through %s, want the other player %s", ShortID(pair[0].ID()), ShortID(pair[1].ID()), ShortID(got), ShortID(other.ID()))
		}
	}
	reported := 0
	for _, f := range faults[:2] {
		if rf, ok := f.find(RelayDroppedCircuit, relaying.ID()); ok {
			reported++
			t.Logf("fault: %s", rf)
		}
		if fs := f.about(other.ID()); len(fs) > 0 {
			t.Errorf("the other player's relay is reported: %v", fs)
		}
	}
	if reported == 0 {
		t.Error("neither node of the pair reported the player that dropped its circuit")
	}
}

// A stranger gets nothing from a player's table relay: its connection is
// refused (the gater), and a stranger the gater admits for another reason
// (here, a relay of the player's Config.Relays) is refused a reservation
// and a circuit by the relay's ACL. A table peer asking for a circuit to
// a stranger is refused too.
func TestStrangerRefusedByTableRelay(t *testing.T) {
	ctx := testContext(t, time.Minute)
	stranger, err := libp2p.New(libp2p.ListenAddrStrings(tcpLoopback))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stranger.Close() })
	strangerInfo := peer.AddrInfo{ID: stranger.ID(), Addrs: stranger.Addrs()}
	// Node 0 lists the stranger as one of its relays: its gater admits
	// it, as it would a spectator or a relay.
	var nodes []*Node
	asRelay := Config{Relays: []peer.AddrInfo{strangerInfo}}
	nodes = append(nodes, startNodes(t, 1, tcpLoopback, asRelay)...)
	nodes = append(nodes, startNodes(t, 3, tcpLoopback, Config{})...)
	seat(t, ctx, nodes)
	player, mate := nodes[0], nodes[1]
	playerInfo := peer.AddrInfo{ID: player.ID(), Addrs: player.host.Addrs()}

	// The gater admits the stranger; the ACL refuses its reservation.
	if _, err := client.Reserve(ctx, stranger, playerInfo); err == nil {
		t.Fatal("a stranger got a reservation on a player's table relay")
	} else {
		t.Logf("stranger's reservation: %v", err)
	}
	// And its circuit to a table peer that holds a reservation.
	waitPlayerReservation(t, ctx, mate, player.ID())
	circuit := multiaddr.StringCast(playerInfo.Addrs[0].String() + "/p2p/" + player.ID().String() + "/p2p-circuit")
	sctx := network.WithAllowLimitedConn(ctx, "test")
	if err := stranger.Connect(sctx, peer.AddrInfo{ID: mate.ID(), Addrs: []multiaddr.Multiaddr{circuit}}); err == nil {
		t.Fatal("a stranger reached a table peer through a player's table relay")
	} else {
		t.Logf("stranger's circuit: %v", err)
	}
	// A stranger the gater does not admit is refused before the relay.
	outsider, err := libp2p.New(libp2p.ListenAddrStrings(tcpLoopback))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = outsider.Close() })
	if _, err := client.Reserve(ctx, outsider, playerInfo); err == nil {
		t.Fatal("an outsider got a reservation on a player's table relay")
	}
	// A table peer may not use the relay to reach a stranger (its own
	// gater keeps it from dialling one; the ACL refuses it anyway).
	acl := tableACL{player}
	if acl.AllowConnect(mate.ID(), nil, stranger.ID()) || acl.AllowConnect(stranger.ID(), nil, mate.ID()) || acl.AllowReserve(stranger.ID(), nil) {
		t.Error("the table relay's ACL admits a stranger")
	}
	if !acl.AllowConnect(mate.ID(), nil, nodes[2].ID()) || !acl.AllowReserve(mate.ID(), nil) {
		t.Error("the table relay's ACL refuses the table")
	}
	st := &player.playerRelayStats
	if st.refusedRsv.Load() == 0 || st.refusedCircuits.Load() == 0 {
		t.Errorf("the table relay refused %d reservations and %d circuits, want ≥1 each (by its ACL)", st.refusedRsv.Load(), st.refusedCircuits.Load())
	}
	if st.circuits.Load() != 0 || st.bytes.Load() != 0 {
		t.Errorf("the table relay opened %d circuits and carried %d bytes for strangers", st.circuits.Load(), st.bytes.Load())
	}
}

// waitPlayerReservation waits until n holds a reservation on the table
// relay of the table peer p.
func waitPlayerReservation(tb testing.TB, ctx context.Context, n *Node, p peer.ID) {
	tb.Helper()
	for {
		if _, err := n.reserveOnPlayer(p); err == nil {
			return
		}
		select {
		case <-ctx.Done():
			tb.Fatalf("no reservation on %s", p)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// BenchmarkHandThroughPlayerRelay plays b.N hands at the table of
// TestPairThroughPlayerRelay (one pair of four reaches each other only
// through a player) and reports the bytes the players' table relays carried
// per hand (both directions summed) and the time from SetPeers until the
// pair's streams ran through a player.
func BenchmarkHandThroughPlayerRelay(b *testing.B) {
	ctx := testContext(b, 10*time.Minute)
	start := time.Now()
	nodes, _, _ := startFirewalledTable(b, ctx)
	toPath := time.Since(start)
	before := nodes[2].playerRelayStats.bytes.Load() + nodes[3].playerRelayStats.bytes.Load()
	b.ResetTimer()
	checkCleanHands(b, playHands(b, ctx, nodes, b.N), b.N)
	b.StopTimer()
	carried := nodes[2].playerRelayStats.bytes.Load() + nodes[3].playerRelayStats.bytes.Load() - before
	b.ReportMetric(float64(carried)/float64(b.N), "relayB/hand")
	b.ReportMetric(float64(toPath.Milliseconds()), "ms-to-seated")
}

// The dial ranker tries a circuit through a player before one through any
// other relay, and leaves direct addresses and dials with no player
// circuit as libp2p ranks them.
func TestPlayersFirst(t *testing.T) {
	nodes := startNodes(t, 3, tcpLoopback, Config{})
	n, carol := nodes[0], nodes[2]
	if err := n.SetPeers(tableOf(t, nodes, n)); err != nil {
		t.Fatal(err)
	}
	stranger, err := NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	relayID, err := peer.IDFromPrivateKey(stranger)
	if err != nil {
		t.Fatal(err)
	}
	direct := multiaddr.StringCast("/ip4/198.51.100.7/tcp/4001")
	public := multiaddr.StringCast("/ip4/198.51.100.9/tcp/4001/p2p/" + relayID.String() + "/p2p-circuit")
	viaCarol := multiaddr.StringCast("/p2p/" + carol.ID().String() + "/p2p-circuit")
	delays := func(ranked []network.AddrDelay) map[string]time.Duration {
		m := map[string]time.Duration{}
		for _, d := range ranked {
			m[d.Addr.String()] = d.Delay
		}
		return m
	}
	base := delays(swarmRank([]multiaddr.Multiaddr{direct, public, viaCarol}))
	got := delays(n.rankDials([]multiaddr.Multiaddr{direct, public, viaCarol}))
	if got[direct.String()] != base[direct.String()] || got[viaCarol.String()] != swarm.RelayDelay {
		t.Errorf("direct address moved, or the player circuit not at libp2p's relay delay: %v (libp2p's %v)", got, base)
	}
	if got[public.String()] != swarm.RelayDelay+otherRelayDelay {
		t.Errorf("the public relay's circuit at %v, want %v after the player's (libp2p's: %v)", got[public.String()], otherRelayDelay, base)
	}
	alone := delays(n.rankDials([]multiaddr.Multiaddr{direct, public}))
	if base2 := delays(swarmRank([]multiaddr.Multiaddr{direct, public})); alone[public.String()] != base2[public.String()] {
		t.Errorf("with no player circuit, the public relay's circuit moved: %v, libp2p's %v", alone, base2)
	}
}

// swarmRank is libp2p's own dial ranking, the test's second opinion.
func swarmRank(addrs []multiaddr.Multiaddr) []network.AddrDelay {
	return swarm.DefaultDialRanker(addrs)
}

// dropPlayerRelay makes player n drop every circuit it relays, as a
// player who stops relaying does: its table relay stops, and every
// circuit's hop stream (circuit relay v2) is reset.
func dropPlayerRelay(n *Node) {
	_ = n.playerRelay.Close()
	for _, c := range n.host.Network().Conns() {
		for _, s := range c.GetStreams() {
			if s.Protocol() == circuitproto.ProtoIDv2Hop {
				_ = s.Reset()
			}
		}
	}
}

// waitPairReservations waits until nodes 0 and 1, the pair, each hold a
// reservation on the table relays of the players nodes[2:].
func waitPairReservations(tb testing.TB, ctx context.Context, nodes []*Node) {
	tb.Helper()
	for _, n := range nodes[:2] {
		for _, p := range nodes[2:] {
			waitPlayerReservation(tb, ctx, n, p.ID())
		}
	}
}

// leaveLimitedRelays runs LeaveLimitedRelays on every node of movers at
// once, each within 10 s, and returns when all have.
func leaveLimitedRelays(ctx context.Context, movers []*Node) {
	var wg sync.WaitGroup
	for _, n := range movers {
		wg.Go(func() {
			lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			n.LeaveLimitedRelays(lctx)
		})
	}
	wg.Wait()
}

// relayingPlayer returns, of the players nodes[2:] that may relay the pair
// nodes 0 and 1, the one whose ID is via (nil if none) and the other.
func relayingPlayer(nodes []*Node, via peer.ID) (relaying, other *Node) {
	for _, n := range nodes[2:] {
		if n.ID() == via {
			relaying = n
		} else {
			other = n
		}
	}
	return relaying, other
}
