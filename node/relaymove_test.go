package node

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
)

// startPublicRelay starts a Relay on 127.0.0.1 with a public relay's
// circuit limits (2 minutes, 128 KiB each way), closed when the test ends.
func startPublicRelay(tb testing.TB) *Relay {
	tb.Helper()
	return startRelayWith(tb, tcpLoopback, RelayConfig{CircuitDuration: 2 * time.Minute, CircuitData: 128 << 10})
}

// seatOnPublicRelay starts four nodes on 127.0.0.1 holding a slot on a
// relay with a public relay's limits, with a firewall (the gater's)
// between nodes 0 and 1, and the table's reconnection on (MoveToDirect).
// Nodes 0 and 1 know each other only by their addresses through the
// public relay and meet there first, before anyone reaches a player, as
// a pair does that meets through a public relay and waits there for a
// hole punch; then all four connect. With noPlayerRelay at players 2 and
// 3, no player can relay the pair. It returns the nodes, their path and
// fault logs, and the relay.
func seatOnPublicRelay(tb testing.TB, ctx context.Context, noPlayerRelay bool) ([]*Node, []*pathLog, []*faultLog, *Relay) {
	tb.Helper()
	public := startPublicRelay(tb)
	var nodes []*Node
	paths := make([]*pathLog, 4)
	faults := make([]*faultLog, 4)
	for i := range 4 {
		paths[i], faults[i] = &pathLog{}, &faultLog{}
		cfg := Config{Relays: []peer.AddrInfo{relayInfo(tb, public)}, MoveToDirect: true,
			OnPath: paths[i].onPath, OnRelayFault: faults[i].onFault, OnRelay: faults[i].onRelay,
			NoPlayerRelay: noPlayerRelay && i >= 2}
		nodes = append(nodes, startNodes(tb, 1, tcpLoopback, cfg)[0])
	}
	waitAllReservations(tb, ctx, nodes)
	nodes[0].gater.firewalled.Store(&map[peer.ID]bool{nodes[1].ID(): true})
	nodes[1].gater.firewalled.Store(&map[peer.ID]bool{nodes[0].ID(): true})
	for _, n := range nodes {
		var table []peer.AddrInfo
		for _, m := range nodes {
			if m == n {
				continue
			}
			addr := m.Addrs()[0]
			if (n == nodes[0] && m == nodes[1]) || (n == nodes[1] && m == nodes[0]) {
				addr = m.RelayedAddrs()[0]
			}
			info, err := ParsePeer(addr.String())
			if err != nil {
				tb.Fatal(err)
			}
			table = append(table, info)
		}
		if err := n.SetPeers(table); err != nil {
			tb.Fatal(err)
		}
	}
	l, _ := nodes[0].link(nodes[1].ID())
	if err := nodes[0].connectPeer(ctx, l); err != nil {
		tb.Fatalf("node 0 to node 1 through the public relay: %v", err)
	}
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Go(func() { errs[i] = n.Connect(ctx) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			tb.Fatalf("node %d Connect: %v", i, err)
		}
	}
	return nodes, paths, faults, public
}

// streamRelay returns the relay the outbound stream of a to b runs
// through ("" for a direct connection).
func streamRelay(tb testing.TB, a, b *Node) peer.ID {
	tb.Helper()
	l, err := a.link(b.ID())
	if err != nil {
		tb.Fatal(err)
	}
	l.outMu.Lock()
	defer l.outMu.Unlock()
	if l.out == nil {
		tb.Fatalf("%s has no stream to %s", ShortID(a.ID()), ShortID(b.ID()))
	}
	return relayOf(l.out.Conn().RemoteMultiaddr())
}

// A pair that met on a public relay's limited circuits moves onto a
// player's table relay once the wait for direct paths is over
// (LeaveLimitedRelays): nodes 0 and 1, firewalled from each other, are
// connected through a relay with public limits; both move, their streams
// and paths then go through player 2 or 3 ("relayed via … (a player)",
// not limited), no connection between them goes through the public relay,
// and a hand played afterwards sends 0 B through the public relay's
// circuits while the relay still holds everyone's reservation. The check
// can fail: without the move (the tamper subtest, LeaveLimitedRelays not
// called) the pair stays on the public relay and the hand goes through it.
// The move-link-down subtest moves a pair whose link to the peer is down
// (its stream ended before the protocol ran), as the NAT lab met.
func TestLeavePublicRelayForPlayer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		move, down bool
	}{{"move", true, false}, {"move-link-down", true, true}, {"tamper-no-move", false, false}} {
		move := tc.move
		t.Run(tc.name, func(t *testing.T) {
			ctx := testContext(t, 2*time.Minute)
			nodes, paths, faults, public := seatOnPublicRelay(t, ctx, false)
			a, b := nodes[0], nodes[1]
			if r := streamRelay(t, a, b); r != public.ID() {
				t.Fatalf("before the move the pair's stream runs through %s, want the public relay %s", ShortID(r), ShortID(public.ID()))
			}
			if p := a.Paths()[0]; !p.Limited || p.Relay != public.ID() {
				t.Fatalf("before the move node 0's path to node 1 is %+v, want limited through the public relay", p)
			}
			// The pair reserves on the players it reaches directly.
			waitPairReservations(t, ctx, nodes)
			if tc.down {
				// As after a duplicate relayed connection closed under
				// the table's stream before the protocol runs: the link
				// is down and nobody redials it yet.
				l, _ := a.link(b.ID())
				a.lost(l, fmt.Errorf("test: stream ended: %w", protocol.ErrPeerGone), false)
			}
			if move {
				start := time.Now()
				movers := nodes
				if tc.down {
					movers = nodes[:1] // the side whose link is down alone
				}
				leaveLimitedRelays(ctx, movers)
				t.Logf("LeaveLimitedRelays on %d node(s) returned after %s", len(movers), time.Since(start).Round(time.Millisecond))
			}
			before := public.Stats()
			results := playHandsGrace(t, ctx, nodes, 1, 30*time.Second)
			checkCleanHands(t, results, 1)
			after := public.Stats()
			carried := after.CircuitBytes - before.CircuitBytes
			if !move {
				if carried == 0 {
					t.Errorf("without the move the hand sent 0 B through the public relay: the check cannot fail")
				}
				t.Logf("without the move: %d B through the public relay's circuits for one hand", carried)
				return
			}
			for _, pair := range [][2]*Node{{a, b}, {b, a}} {
				via := streamRelay(t, pair[0], pair[1])
				if via != nodes[2].ID() && via != nodes[3].ID() {
					t.Errorf("after the move %s's stream to %s runs through %s, want player 2 or 3", ShortID(pair[0].ID()), ShortID(pair[1].ID()), ShortID(via))
				}
				for _, c := range pair[0].host.Network().ConnsToPeer(pair[1].ID()) {
					if relayOf(c.RemoteMultiaddr()) == public.ID() {
						t.Errorf("a connection %s–%s still goes through the public relay", ShortID(pair[0].ID()), ShortID(pair[1].ID()))
					}
				}
			}
			p := paths[0].last(b.ID())
			if !p.RelayPlayer || p.Limited || (p.Relay != nodes[2].ID() && p.Relay != nodes[3].ID()) {
				t.Errorf("node 0's path to node 1 = %+v (%s), want relayed via player 2 or 3, not limited", p, p)
			}
			if moved, avoid := a.leftLimited(b.ID()); moved+func() int { m, _ := b.leftLimited(a.ID()); return m }() == 0 || !avoid {
				t.Errorf("node 0: moved %d times, avoiding %v", moved, avoid)
			}
			if carried != 0 {
				t.Errorf("the public relay's circuits carried %d B of the hand after the move, want 0", carried)
			}
			if after.Reservations == 0 {
				t.Errorf("the public relay holds no reservation: 0 B proves nothing")
			}
			t.Logf("after the move: %d B through the public relay's circuits for one hand; %d circuits there in all", carried, after.Circuits)
			for i, f := range faults {
				for _, rf := range f.faults {
					if rf.Relay == nodes[2].ID() || rf.Relay == nodes[3].ID() {
						t.Errorf("node %d reported a fault of a relaying player: %v", i, rf)
					}
				}
			}
		})
	}
}

// A pair on a public relay's limited circuits with no player to move onto
// (players 2 and 3 run no table relay, so every circuit through them is
// refused) stays where it is: the probes of its paths fail, a fault of
// those paths (the players named as relays that are not relays, never a
// blame), the pair keeps its connection through the public relay without
// a drop, does not avoid it, and messages flow in order between all four.
func TestLeavePublicRelayNowhereToGo(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 2*time.Minute)
	nodes, _, faults, public := seatOnPublicRelay(t, ctx, true)
	a, b := nodes[0], nodes[1]
	l, _ := a.link(b.ID())
	l.stMu.Lock()
	epoch := l.epoch
	l.stMu.Unlock()
	lctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	start := time.Now()
	paths := a.LeaveLimitedRelays(lctx)
	cancel()
	took := time.Since(start)
	var p Path
	for _, q := range paths {
		if q.Peer == b.ID() {
			p = q
		}
	}
	t.Logf("after %s: %s", took.Round(time.Millisecond), p)
	if p.Relay != public.ID() || !p.Limited {
		t.Errorf("node 0's path to node 1 = %+v, want still limited through the public relay", p)
	}
	if took < 2500*time.Millisecond {
		t.Errorf("LeaveLimitedRelays returned after %s, before its context's deadline, with a pair left on limited circuits", took)
	}
	if moved, avoid := a.leftLimited(b.ID()); moved != 0 || avoid {
		t.Errorf("node 0: moved %d times, avoiding %v; want neither", moved, avoid)
	}
	l.stMu.Lock()
	dropped := l.epoch != epoch
	l.stMu.Unlock()
	if dropped {
		t.Error("the pair's connection dropped although no path that carries a game leads to the peer")
	}
	if r := streamRelay(t, a, b); r != public.ID() {
		t.Errorf("node 0's stream to node 1 runs through %s, want the public relay", ShortID(r))
	}
	named := 0
	for _, player := range nodes[2:] {
		for _, f := range faults[0].about(player.ID()) {
			named++
			t.Logf("fault of that path: %s", f)
		}
	}
	if named == 0 {
		t.Error("node 0 named no player that refused to relay")
	}
	exchangeInOrder(t, ctx, nodes, 5)
}

// A player who drops the circuit it relays after the move is a fault of
// that path, never a blame: the pair of TestLeavePublicRelayForPlayer,
// moved onto a player, loses that circuit mid-hand (the player's node
// resets its relay streams and stops its table relay) and reconnects
// through the table's other player, still off the public relay: both
// hands finish clean, the public relay's circuits carry 0 B of them, and
// the dropping player is named as a relay that dropped a circuit.
func TestLeavePublicRelayPlayerDrops(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 3*time.Minute)
	nodes, _, faults, public := seatOnPublicRelay(t, ctx, false)
	a, b := nodes[0], nodes[1]
	waitPairReservations(t, ctx, nodes)
	leaveLimitedRelays(ctx, nodes)
	// The side that did not move the pair redials when its protocol
	// asks (WaitUp), as a game's first send does.
	for _, pair := range [][2]*Node{{a, b}, {b, a}} {
		if err := pair[0].WaitUp(ctx, pair[1].ID()); err != nil {
			t.Fatal(err)
		}
	}
	via := streamRelay(t, a, b)
	relaying, other := relayingPlayer(nodes, via)
	if relaying == nil {
		t.Fatalf("after the move node 0's stream to node 1 runs through %s, not a player", ShortID(via))
	}
	before := public.Stats()
	start := relaying.playerRelayStats.bytes.Load()
	dropped := make(chan struct{})
	go func() {
		defer close(dropped)
		for relaying.playerRelayStats.bytes.Load()-start < 30_000 { // mid-hand 1
			if ctx.Err() != nil {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
		dropPlayerRelay(relaying)
	}()
	checkCleanHands(t, playHandsGrace(t, ctx, nodes, 2, 30*time.Second), 2)
	<-dropped
	if carried := public.Stats().CircuitBytes - before.CircuitBytes; carried != 0 {
		t.Errorf("the public relay's circuits carried %d B after the player dropped the pair's circuit, want 0", carried)
	}
	for _, pair := range [][2]*Node{{a, b}, {b, a}} {
		if got := streamRelay(t, pair[0], pair[1]); got != other.ID() {
			t.Errorf("after the drop %s's stream to %s runs through %s, want the other player %s", ShortID(pair[0].ID()), ShortID(pair[1].ID()), ShortID(got), ShortID(other.ID()))
		}
	}
	reported := 0
	for _, f := range faults[:2] {
		if rf, ok := f.find(RelayDroppedCircuit, relaying.ID()); ok {
			reported++
			t.Logf("fault of that path: %s", rf)
		}
	}
	if reported == 0 {
		t.Error("neither node of the pair named the player that dropped its circuit")
	}
}

// When every player drops the moved pair's circuit mid-hand (both stop
// their table relays), the pair has no path that carries a game: after
// leaveBudget it stops avoiding the public relay and falls back onto it
// (the next path), the hand finishes clean (a pause, no blame), and the
// players are named as relays that dropped a circuit, never blamed.
func TestLeavePublicRelayFallsBackMidHand(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 3*time.Minute)
	nodes, _, faults, public := seatOnPublicRelay(t, ctx, false)
	a, b := nodes[0], nodes[1]
	waitPairReservations(t, ctx, nodes)
	leaveLimitedRelays(ctx, nodes)
	if _, avoid := a.leftLimited(b.ID()); !avoid {
		t.Fatal("after the move node 0 does not avoid the public relay")
	}
	start := nodes[2].playerRelayStats.bytes.Load() + nodes[3].playerRelayStats.bytes.Load()
	dropped := make(chan time.Time, 1)
	go func() {
		for nodes[2].playerRelayStats.bytes.Load()+nodes[3].playerRelayStats.bytes.Load()-start < 30_000 { // mid-hand 1
			if ctx.Err() != nil {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
		for _, relaying := range nodes[2:] {
			dropPlayerRelay(relaying)
		}
		dropped <- time.Now()
	}()
	before := public.Stats()
	checkCleanHands(t, playHandsGrace(t, ctx, nodes, 1, 60*time.Second), 1)
	at := <-dropped
	carried := public.Stats().CircuitBytes - before.CircuitBytes
	if carried == 0 {
		t.Error("the public relay carried nothing after both players dropped the pair: the pair did not fall back onto it")
	}
	if r := streamRelay(t, a, b); r != public.ID() {
		t.Errorf("after both players dropped, node 0's stream to node 1 runs through %s, want the public relay", ShortID(r))
	}
	if _, avoid := a.leftLimited(b.ID()); avoid {
		t.Error("node 0 still avoids the public relay with no other path")
	}
	for i, f := range faults {
		for _, rf := range f.faults {
			if rf.Relay == "" {
				t.Errorf("node %d reported a fault of no relay: %v", i, rf)
			}
		}
	}
	t.Logf("after both players dropped the circuit at %s: %d B of the hand through the public relay", at.Format("15:04:05.000"), carried)
}
