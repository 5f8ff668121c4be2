package node

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	pbv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/pb"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	"github.com/multiformats/go-multiaddr"

	"github.com/mentalmj/mentalmj/protocol"
)

// Hostile relays, built from go-libp2p's own circuit relay v2 service with
// its ACL, resource limits and address factory, on 127.0.0.1. libp2p's
// dialer tries a peer's relayed addresses lowest port first, so each test
// puts the hostile relay on the lowest of a few free ports: the node meets
// it before the good path, every time.

// tcpAt is the 127.0.0.1 TCP listen address on port.
func tcpAt(port int) multiaddr.Multiaddr {
	return multiaddr.StringCast(fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", port))
}

// sortedPorts returns count free loopback TCP ports, lowest first, none
// of them returned before in this test process: a test that leaves its
// port unbound on purpose (TestBadRelayInInvite's relay that is down)
// must not see a test running beside it take that port. (It happened:
// two cases of that test drew the same port from LoopbackPorts's range,
// and the "down" relay's address led to the other case's host.)
func sortedPorts(tb testing.TB, count int) []int {
	tb.Helper()
	for range 100 {
		ports, err := LoopbackPorts(count)
		if err != nil {
			tb.Fatal(err)
		}
		if portsGiven.take(ports) {
			slices.Sort(ports)
			return ports
		}
	}
	tb.Fatalf("no %d loopback ports not given before in 100 tries", count)
	return nil
}

// portsGiven is the set of ports sortedPorts has returned in this test
// process.
var portsGiven = &givenPorts{given: map[int]bool{}}

// givenPorts is a set of ports, safe for concurrent use.
type givenPorts struct {
	mu    sync.Mutex
	given map[int]bool
}

// take adds ports to the set and reports true if none was in it;
// otherwise it leaves the set as it was and reports false.
func (g *givenPorts) take(ports []int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, p := range ports {
		if g.given[p] {
			return false
		}
	}
	for _, p := range ports {
		g.given[p] = true
	}
	return true
}

// acl is a circuit relay v2 ACL (relay.ACLFilter) that allows or refuses
// every reservation and every circuit.
type acl struct{ reserve, connect bool }

func (a acl) AllowReserve(peer.ID, multiaddr.Multiaddr) bool          { return a.reserve }
func (a acl) AllowConnect(peer.ID, multiaddr.Multiaddr, peer.ID) bool { return a.connect }

// hostile configures startHostileRelay.
type hostile struct {
	acl relay.ACLFilter
	// maxReservations, if set, is the relay's reservation limit (-1: 0).
	maxReservations int
	// limit, if set, is the relay's per-circuit limit.
	limit *relay.RelayLimit
	// claim, if set, is what the relay says its addresses are (identify,
	// and the reservation's addresses) instead of its own.
	claim []multiaddr.Multiaddr
}

// startHostileRelay starts a circuit relay v2 (libp2p's relay service on
// a plain libp2p host) on 127.0.0.1:port with h's misbehaviour, closed when
// the test ends, and returns its host and its address as a player is given
// it.
func startHostileRelay(tb testing.TB, port int, h hostile) (host.Host, peer.AddrInfo) {
	tb.Helper()
	opts := []libp2p.Option{libp2p.ListenAddrs(tcpAt(port)), libp2p.DisableRelay(), libp2p.DisableMetrics()}
	if h.claim != nil {
		opts = append(opts, libp2p.AddrsFactory(func([]multiaddr.Multiaddr) []multiaddr.Multiaddr { return h.claim }))
	}
	rh, err := libp2p.New(opts...)
	if err != nil {
		tb.Fatal(err)
	}
	rc := relay.DefaultResources()
	rc.Limit = &relay.RelayLimit{Duration: RelayCircuitDuration, Data: RelayCircuitData}
	if h.limit != nil {
		rc.Limit = h.limit
	}
	if h.maxReservations < 0 {
		rc.MaxReservations = 0
	}
	ropts := []relay.Option{relay.WithResources(rc)}
	if h.acl != nil {
		ropts = append(ropts, relay.WithACL(h.acl))
	}
	if h.claim != nil {
		// Tell the lie in the reservation too (libp2p's relay keeps only
		// public addresses there by default).
		ropts = append(ropts, relay.WithReservationAddressFilter(func(multiaddr.Multiaddr) bool { return true }))
	}
	svc, err := relay.New(rh, ropts...)
	if err != nil {
		_ = rh.Close()
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = svc.Close(); _ = rh.Close() })
	return rh, peer.AddrInfo{ID: rh.ID(), Addrs: []multiaddr.Multiaddr{tcpAt(port)}}
}

// startGoodRelay starts a Relay (NewRelay, as "mentalmj relay" runs) on
// 127.0.0.1:port.
func startGoodRelay(tb testing.TB, port int) *Relay {
	tb.Helper()
	key, err := NewIdentity()
	if err != nil {
		tb.Fatal(err)
	}
	r, err := NewRelay(context.Background(), RelayConfig{Identity: key, Listen: []multiaddr.Multiaddr{tcpAt(port)}})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = r.Close() })
	return r
}

// faultLog collects what a node reports through Config.OnRelay and
// Config.OnRelayFault.
type faultLog struct {
	mu     sync.Mutex
	faults []RelayFault
	lost   []error // OnRelay(…, false, err)
}

func (f *faultLog) onFault(rf RelayFault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults = append(f.faults, rf)
}

func (f *faultLog) onRelay(_ peer.ID, held bool, err error) {
	if held {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lost = append(f.lost, err)
}

// find returns the first fault of kind reported about relay r.
func (f *faultLog) find(kind RelayFaultKind, r peer.ID) (RelayFault, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, rf := range f.faults {
		if rf.Kind == kind && rf.Relay == r {
			return rf, true
		}
	}
	return RelayFault{}, false
}

// about returns the faults that name relay r.
func (f *faultLog) about(r peer.ID) []RelayFault {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []RelayFault
	for _, rf := range f.faults {
		if rf.Relay == r {
			out = append(out, rf)
		}
	}
	return out
}

// startWatchedNodes starts count nodes on 127.0.0.1 TCP with relays, each
// reporting into its own faultLog.
func startWatchedNodes(tb testing.TB, count int, relays []peer.AddrInfo) ([]*Node, []*faultLog) {
	tb.Helper()
	nodes := make([]*Node, count)
	logs := make([]*faultLog, count)
	for i := range nodes {
		logs[i] = &faultLog{}
		nodes[i] = startNodes(tb, 1, tcpLoopback, Config{Relays: relays, OnRelay: logs[i].onRelay, OnRelayFault: logs[i].onFault})[0]
	}
	return nodes, logs
}

// allRelayedTableOf returns the peers of table by every relayed address
// each holds (one per relay with a reservation), as an invite carries
// them, plus extra[peer] addresses.
func allRelayedTableOf(extra func(*Node) []multiaddr.Multiaddr) func(testing.TB, []*Node, *Node) []peer.AddrInfo {
	return func(tb testing.TB, table []*Node, except *Node) []peer.AddrInfo {
		tb.Helper()
		var out []peer.AddrInfo
		for _, n := range table {
			if n == except {
				continue
			}
			info := peer.AddrInfo{ID: n.ID()}
			if extra != nil {
				info.Addrs = append(info.Addrs, extra(n)...)
			}
			for _, a := range n.RelayedAddrs() {
				t, _ := peer.SplitAddr(a)
				info.Addrs = append(info.Addrs, t)
			}
			if len(info.Addrs) == 0 {
				tb.Fatalf("node %s has no relayed address", n.ID())
			}
			out = append(out, info)
		}
		return out
	}
}

// waitAllReservations waits (at most 10 s) until every node holds a
// reservation on every relay it was given.
func waitAllReservations(tb testing.TB, ctx context.Context, nodes []*Node) {
	tb.Helper()
	for i, n := range nodes {
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_, err := n.WaitReservations(wctx)
		cancel()
		if err != nil {
			tb.Fatalf("node %d: %v", i, err)
		}
	}
}

// drainLosses reads the dropped connections n has still to report for
// peer p (ErrPeerGone from Recv, after WaitUp brought the link back),
// until none comes within 300 ms; a message, or more than three losses,
// fails the test.
func drainLosses(t *testing.T, ctx context.Context, n *Node, p peer.ID) {
	t.Helper()
	for range 3 {
		if err := n.WaitUp(ctx, p); err != nil {
			t.Fatal(err)
		}
		rctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		got, err := n.Recv(rctx, p)
		cancel()
		switch {
		case errors.Is(err, protocol.ErrPeerGone):
			continue
		case rctx.Err() != nil && ctx.Err() == nil:
			return
		default:
			t.Fatalf("draining the losses: %q, %v", got, err)
		}
	}
	t.Fatalf("%s reports a fourth lost connection to %s", ShortID(n.ID()), ShortID(p))
}

// checkStreamsVia checks that every node's stream to every table peer runs
// through relay r ("": a direct connection).
func checkStreamsVia(tb testing.TB, nodes []*Node, r peer.ID) {
	tb.Helper()
	for _, why := range streamsNotVia(nodes, r) {
		tb.Error(why)
	}
}

// waitStreamsVia is checkStreamsVia once the streams have settled: it
// checks again every 20 ms until they all run through r or ctx ends (a
// stream that a move closed may be on its way back).
func waitStreamsVia(tb testing.TB, ctx context.Context, nodes []*Node, r peer.ID) {
	tb.Helper()
	for {
		whys := streamsNotVia(nodes, r)
		if len(whys) == 0 {
			return
		}
		select {
		case <-ctx.Done():
			for _, why := range whys {
				tb.Error(why)
			}
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// streamsNotVia says, for each node's stream to a table peer that does
// not run through relay r ("": a direct connection), or is missing, why.
func streamsNotVia(nodes []*Node, r peer.ID) []string {
	var whys []string
	for i, n := range nodes {
		for _, p := range n.Peers() {
			l, _ := n.link(p)
			l.outMu.Lock()
			s := l.out
			l.outMu.Unlock()
			if s == nil {
				whys = append(whys, fmt.Sprintf("node %d has no stream to %s", i, p))
				continue
			}
			if got := relayOf(s.Conn().RemoteMultiaddr()); got != r {
				whys = append(whys, fmt.Sprintf("node %d's stream to %s runs over %s, not through relay %s", i, p, s.Conn().RemoteMultiaddr(), r))
			}
		}
	}
	return whys
}

// checkCleanHands checks that every player played hands hands, all
// without blame or fault, with player 0's walls.
func checkCleanHands(tb testing.TB, results [][]protocol.HandResult, hands int) {
	tb.Helper()
	for i, rs := range results {
		if len(rs) != hands {
			tb.Fatalf("player %d played %d hands, want %d", i, len(rs), hands)
		}
		for h, r := range rs {
			if len(r.Blame) > 0 || len(r.Faults) > 0 || len(r.Yama) != 136 || !slices.Equal(r.Yama, results[0][h].Yama) {
				tb.Errorf("player %d hand %d: blame %v, faults %v, or a wall other than player 0's", i, h+1, r.Blame, r.Faults)
			}
		}
	}
}

// mustContain fails tb unless msg contains every one of want.
func mustContain(tb testing.TB, what, msg string, want ...string) {
	tb.Helper()
	for _, w := range want {
		if !strings.Contains(msg, w) {
			tb.Errorf("%s %q does not say %q", what, msg, w)
		}
	}
}

// A relay that refuses reservations, by its ACL (PERMISSION_DENIED) or by
// its resources (RESERVATION_REFUSED): the node says which relay (peer ID,
// address) refused and why, holds its slot on the good relay, advertises
// only that one, and its table plays through it.
func TestRelayRefusingReservationsIsNamed(t *testing.T) {
	t.Parallel() // waits on timeouts; checks no path's end
	ctx := testContext(t, time.Minute)
	ports := sortedPorts(t, 3)
	_, byACL := startHostileRelay(t, ports[0], hostile{acl: acl{reserve: false, connect: true}})
	_, full := startHostileRelay(t, ports[1], hostile{maxReservations: -1})
	good := startGoodRelay(t, ports[2])
	nodes, logs := startWatchedNodes(t, 2, []peer.AddrInfo{byACL, full, relayInfo(t, good)})

	for i, n := range nodes {
		wctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		addrs, err := n.WaitReservations(wctx)
		cancel()
		if err == nil {
			t.Fatalf("node %d: WaitReservations succeeded with two refusing relays", i)
		}
		t.Logf("node %d: %v", i, err)
		mustContain(t, "WaitReservations error", err.Error(),
			byACL.ID.String(), tcpAt(ports[0]).String(), "refused the reservation (PERMISSION_DENIED)",
			full.ID.String(), tcpAt(ports[1]).String(), "refused the reservation (RESERVATION_REFUSED)")
		if strings.Contains(err.Error(), good.ID().String()) {
			t.Errorf("node %d's error names the good relay: %v", i, err)
		}
		if len(addrs) == 0 {
			t.Fatalf("node %d has no relayed address", i)
		}
		for _, a := range addrs {
			if relayOf(a) != good.ID() {
				t.Errorf("node %d advertises %s, not through the good relay", i, a)
			}
		}
		logs[i].mu.Lock()
		lost := slices.Clone(logs[i].lost)
		logs[i].mu.Unlock()
		var said []string
		for _, e := range lost {
			said = append(said, e.Error())
		}
		mustContain(t, "OnRelay reports", strings.Join(said, "\n"), byACL.ID.String()+" at "+tcpAt(ports[0]).String(), "PERMISSION_DENIED", "RESERVATION_REFUSED")
	}
	seatWith(t, ctx, nodes, allRelayedTableOf(nil))
	checkStreamsVia(t, nodes, good.ID())
	exchangeInOrder(t, ctx, nodes, 20)
}

// A relay that holds every player's reservation but refuses every
// circuit (its ACL: PERMISSION_DENIED), met first: every node reaches
// every other through the good relay, the refusal is reported naming the
// relay, its address and the status, and a hand plays clean.
func TestRelayRefusingCircuitsIsNamed(t *testing.T) {
	ctx := testContext(t, 2*time.Minute)
	ports := sortedPorts(t, 2)
	_, refuser := startHostileRelay(t, ports[0], hostile{acl: acl{reserve: true, connect: false}})
	good := startGoodRelay(t, ports[1])
	nodes, logs := startWatchedNodes(t, protocol.Players, []peer.AddrInfo{refuser, relayInfo(t, good)})
	waitAllReservations(t, ctx, nodes)
	seatWith(t, ctx, nodes, allRelayedTableOf(nil))
	checkStreamsVia(t, nodes, good.ID())

	reported := 0
	for i, l := range logs {
		if f, ok := l.find(RelayRefusedCircuit, refuser.ID); ok {
			reported++
			if f.Status != "PERMISSION_DENIED" {
				t.Errorf("node %d: status %q, want PERMISSION_DENIED", i, f.Status)
			}
			mustContain(t, "message", f.Message("bob"), "relay "+ShortID(refuser.ID), "at "+tcpAt(ports[0]).String(),
				"refused a circuit", "(PERMISSION_DENIED)", "going on over other paths")
		}
		if fs := l.about(good.ID()); len(fs) > 0 {
			t.Errorf("node %d blames the good relay: %v", i, fs)
		}
	}
	if reported == 0 {
		t.Fatal("no node reported the relay that refused its circuits")
	}
	checkCleanHands(t, playHands(t, ctx, nodes, 1), 1)
}

// A relay that says its address is another relay's (identify and its
// reservation answer) is not believed: the node's relayed addresses use
// the address the player was given, the table plays through it, and when
// the node dials the relay again, the handshake at the claimed address
// authenticates the other relay, which the node reports naming the liar.
func TestRelayLyingAboutItsAddressIsNotTrusted(t *testing.T) {
	ctx := testContext(t, time.Minute)
	ports := sortedPorts(t, 2)
	other := startGoodRelay(t, ports[0])
	claim := []multiaddr.Multiaddr{tcpAt(ports[0])}
	_, liar := startHostileRelay(t, ports[1], hostile{claim: claim})

	// The lie, seen by a second code path: libp2p's client reads the
	// reservation's addresses as the relay sent them.
	probe := startNodes(t, 1, tcpLoopback, Config{Relays: []peer.AddrInfo{liar}})[0]
	rsv, err := client.Reserve(ctx, probe.host, liar)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := peer.SplitAddr(rsv.Addrs[0]); len(rsv.Addrs) != 1 || !got.Equal(claim[0]) {
		t.Fatalf("the relay's reservation says %v; the test wants it to claim %v", rsv.Addrs, claim)
	}

	nodes, logs := startWatchedNodes(t, 2, []peer.AddrInfo{liar})
	waitAllReservations(t, ctx, nodes)
	for i, n := range nodes {
		for _, a := range n.RelayedAddrs() {
			if tr, _ := splitCircuit(a); !tr.Equal(tcpAt(ports[1])) {
				t.Errorf("node %d advertises %s: the relay's claim, not its given address %s", i, a, tcpAt(ports[1]))
			}
		}
	}
	seatWith(t, ctx, nodes, allRelayedTableOf(nil))
	checkStreamsVia(t, nodes, liar.ID)
	exchangeInOrder(t, ctx, nodes, 10)

	// The liar's signed identify record put its claim in the peerstore;
	// reserving again dials it (lowest port first) and learns the truth.
	a := nodes[0]
	if !slices.ContainsFunc(a.host.Peerstore().Addrs(liar.ID), claim[0].Equal) {
		t.Fatalf("peerstore addresses of the liar %v lack its claim %s", a.host.Peerstore().Addrs(liar.ID), claim[0])
	}
	if err := a.host.Network().ClosePeer(liar.ID); err != nil {
		t.Fatal(err)
	}
	var f RelayFault
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for {
		var ok bool
		if f, ok = logs[0].find(RelayWrongPeer, liar.ID); ok {
			break
		}
		if wctx.Err() != nil {
			t.Fatal("the node never reported that the liar's claimed address leads to another peer")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if f.Actual != other.ID() {
		t.Errorf("wrong peer reported as %s, want %s", f.Actual, other.ID())
	}
	mustContain(t, "message", f.String(), "relay "+ShortID(liar.ID), "at "+claim[0].String(), "is someone else", ShortID(other.ID()), "not trusted")
	addrs, err := a.WaitReservations(wctx)
	if err != nil {
		t.Fatalf("no reservation again at the given address: %v", err)
	}
	if tr, _ := splitCircuit(addrs[0]); len(addrs) != 1 || !tr.Equal(tcpAt(ports[1])) {
		t.Errorf("after reserving again the node advertises %v, want the given address %s", addrs, tcpAt(ports[1]))
	}
}

// A relay in the invite that is down, and a relay address in the invite
// that leads to someone else (another libp2p host answers there): the
// node's reservation error names the relay, its address and what is
// wrong; a player dialling a peer through that address is told the same
// by a RelayFault; and the table plays through the good relay.
func TestBadRelayInInvite(t *testing.T) {
	t.Parallel() // waits on timeouts; checks no path's end
	for _, tc := range []struct {
		name    string
		kind    RelayFaultKind
		reserve string // what the reservation error says
		message string // what the RelayFault says
	}{
		{"down", RelayUnreachable, "is unreachable", "is unreachable"},
		{"someone else", RelayWrongPeer, "that address leads to another peer", "is someone else"},
		{"not a relay", RelayNotRelay, "is not a circuit relay v2 relay", "is not a relay"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each case waits out its own reservation timeout
			ctx := testContext(t, time.Minute)
			ports := sortedPorts(t, 2)
			good := startGoodRelay(t, ports[1])
			key, _ := NewIdentity()
			badID, _ := peer.IDFromPrivateKey(key)
			bad := peer.AddrInfo{ID: badID, Addrs: []multiaddr.Multiaddr{tcpAt(ports[0])}}
			var decoy host.Host
			switch tc.kind {
			case RelayWrongPeer:
				decoy, _ = startHostileRelay(t, ports[0], hostile{})
			case RelayNotRelay:
				// A plain libp2p host, at the address given for it.
				plain, err := libp2p.New(libp2p.ListenAddrs(tcpAt(ports[0])), libp2p.DisableRelay(), libp2p.DisableMetrics())
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = plain.Close() })
				badID, bad.ID = plain.ID(), plain.ID()
			}
			// The host holds a slot on both relays; the guest, which dials
			// the host through them, on the good one only.
			host, hostLog := startWatchedNodes(t, 1, []peer.AddrInfo{bad, relayInfo(t, good)})
			guest, guestLog := startWatchedNodes(t, 1, []peer.AddrInfo{relayInfo(t, good)})
			nodes, logs := append(host, guest...), append(hostLog, guestLog...)
			wctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			_, err := nodes[0].WaitReservations(wctx)
			cancel()
			if err == nil {
				t.Fatal("WaitReservations succeeded on a bad relay")
			}
			t.Logf("reservation: %v", err)
			mustContain(t, "WaitReservations error", err.Error(), "relay "+badID.String()+" at "+tcpAt(ports[0]).String(), tc.reserve)
			if decoy != nil {
				mustContain(t, "WaitReservations error", err.Error(), decoy.ID().String())
			}
			waitGood := func(n *Node) {
				for !slices.ContainsFunc(n.RelayedAddrs(), func(a multiaddr.Multiaddr) bool { return relayOf(a) == good.ID() }) {
					if ctx.Err() != nil {
						t.Fatal("no reservation on the good relay")
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
			waitGood(nodes[0])
			waitGood(nodes[1])
			// The invite also carries each peer's address through the bad
			// relay, as one made while it answered would.
			badCircuit := func(*Node) []multiaddr.Multiaddr {
				return []multiaddr.Multiaddr{tcpAt(ports[0]).Encapsulate(multiaddr.StringCast("/p2p/" + badID.String() + "/p2p-circuit"))}
			}
			// The guest dials first (as a guest does, with the invite).
			tableOf := allRelayedTableOf(badCircuit)
			for _, n := range nodes {
				if err := n.SetPeers(tableOf(t, nodes, n)); err != nil {
					t.Fatal(err)
				}
			}
			for _, n := range []*Node{guest[0], host[0]} {
				if err := n.Connect(ctx); err != nil {
					t.Fatal(err)
				}
			}
			checkStreamsVia(t, nodes, good.ID())
			reported := 0
			for _, l := range logs {
				f, ok := l.find(tc.kind, badID)
				if !ok {
					continue
				}
				reported++
				t.Logf("fault: %s", f)
				mustContain(t, "message", f.String(), "relay "+ShortID(badID), "at "+tcpAt(ports[0]).String(), tc.message, "going on over other paths")
				if decoy != nil && f.Actual != decoy.ID() {
					t.Errorf("wrong peer reported as %s, want %s", f.Actual, decoy.ID())
				}
			}
			if reported == 0 {
				t.Fatalf("no node reported the bad relay address as %q", tc.kind)
			}
			exchangeInOrder(t, ctx, nodes, 10)
		})
	}
}

// seatWithDropper seats four nodes that hold slots on two relays on
// 127.0.0.1: first (lowest port) one that drops circuits at limit (nil:
// a good one), then a good one; with behindNAT, the nodes dial one
// another only through relays. It returns the nodes, their fault logs and
// the two relays' IDs.
func seatWithDropper(tb testing.TB, ctx context.Context, limit *relay.RelayLimit, behindNAT bool) ([]*Node, []*faultLog, peer.AddrInfo, *Relay) {
	tb.Helper()
	ports := sortedPorts(tb, 2)
	_, dropper := startHostileRelay(tb, ports[0], hostile{limit: limit})
	good := startGoodRelay(tb, ports[1])
	nodes, logs := startWatchedNodes(tb, protocol.Players, []peer.AddrInfo{dropper, relayInfo(tb, good)})
	for _, n := range nodes {
		n.relayOnly.Store(behindNAT)
	}
	waitAllReservations(tb, ctx, nodes)
	seatWith(tb, ctx, nodes, allRelayedTableOf(nil))
	return nodes, logs, dropper, good
}

// A relay that drops circuits mid-hand, met first: one that resets every
// circuit once it has carried 16 KiB one way (circuit relay v2's data
// limit, as public relays do at 128 KiB), and one that resets every
// circuit 300 ms after it opened (its duration limit). The pairs
// reconnect within the reconnect grace (directly over 127.0.0.1, which
// identify made known; or, with direct dials off as behind NATs, through
// the good relay), both hands finish clean (no fault, no blame), and the
// drop is reported naming the relay, never a player.
func TestRelayDroppingCircuitsMidHand(t *testing.T) {
	for _, tc := range []struct {
		name      string
		limit     relay.RelayLimit
		behindNAT bool
	}{
		{"after 16 KiB", relay.RelayLimit{Duration: time.Hour, Data: 16 << 10}, false},
		{"after 16 KiB behind NAT", relay.RelayLimit{Duration: time.Hour, Data: 16 << 10}, true},
		{"after 300 ms behind NAT", relay.RelayLimit{Duration: 300 * time.Millisecond, Data: RelayCircuitData}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testContext(t, 3*time.Minute)
			nodes, logs, dropper, good := seatWithDropper(t, ctx, &tc.limit, tc.behindNAT)
			if tc.limit.Duration == time.Hour {
				checkStreamsVia(t, nodes, dropper.ID) // met first: the hands start over it
			}

			checkCleanHands(t, playHandsGrace(t, ctx, nodes, 2, 30*time.Second), 2)
			reported := 0
			for i, l := range logs {
				if f, ok := l.find(RelayDroppedCircuit, dropper.ID); ok {
					reported++
					mustContain(t, "message", f.Message("bob"), "relay "+ShortID(dropper.ID), "dropped the circuit to bob", "reconnecting over another path")
				}
				if fs := l.about(good.ID()); len(fs) > 0 {
					t.Errorf("node %d blames the good relay: %v", i, fs)
				}
			}
			if reported == 0 {
				t.Fatal("no node reported the relay that dropped its circuits")
			}
			// The streams settle after the hands: a stream the dropper
			// reset at the last message may still be on its way back
			// (seen in a CI run: two streams on the dropper's circuit
			// when the hands ended).
			sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			if tc.behindNAT {
				waitStreamsVia(t, sctx, nodes, good.ID())
			} else {
				waitStreamsVia(t, sctx, nodes, "")
			}
		})
	}
}

// Moving the table onto a direct connection closes the relayed one at
// both ends; neither end may take that for its relay dropping a circuit.
// Two nodes seated through a relay with MoveToDirect are given a direct
// connection (as a hole punch would): both move their streams onto it,
// the relayed connections close, messages still flow, and no RelayFault
// is reported.
func TestMoveToDirectIsNoRelayFault(t *testing.T) {
	ctx := testContext(t, time.Minute)
	r := startRelay(t, tcpLoopback)
	logs := []*faultLog{{}, {}}
	var nodes []*Node
	for _, l := range logs {
		nodes = append(nodes, startNodes(t, 1, tcpLoopback, Config{Relays: []peer.AddrInfo{relayInfo(t, r)}, MoveToDirect: true,
			OnRelay: l.onRelay, OnRelayFault: l.onFault})[0])
	}
	waitAllReservations(t, ctx, nodes)
	seatViaRelay(t, ctx, nodes)
	checkStreamsVia(t, nodes, r.ID())
	a, b := nodes[0], nodes[1]
	direct := network.WithForceDirectDial(ctx, "test: as a hole punch")
	if err := a.host.Connect(direct, peer.AddrInfo{ID: b.ID(), Addrs: b.host.Addrs()}); err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]*Node{{a, b}, {b, a}} {
		n, p := pair[0], pair[1]
		for {
			relayed := 0
			for _, c := range n.host.Network().ConnsToPeer(p.ID()) {
				if isCircuit(c.RemoteMultiaddr()) {
					relayed++
				}
			}
			if relayed == 0 && pathOf(n, p.ID()).Direct {
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("%s still has %d relayed connections to %s, path %s", n.ID(), relayed, p.ID(), pathOf(n, p.ID()))
			}
			// A side whose stream the other side's move reset redials
			// when it is next asked to send, as the protocol does; only
			// then, its stream on the direct connection, does it close
			// the relayed one (seen under load: the relayed connection
			// stayed for a minute while nothing asked).
			if l, _ := n.link(p.ID()); l.downError() != nil {
				if err := n.WaitUp(ctx, p.ID()); err != nil {
					t.Fatal(err)
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	// Each side reads the move as a dropped connection (once, or twice
	// when both sides' moves crossed); then the messages flow over the
	// direct connection.
	for _, pair := range [][2]*Node{{a, b}, {b, a}} {
		from, to := pair[0], pair[1]
		if err := from.WaitUp(ctx, to.ID()); err != nil {
			t.Fatal(err)
		}
		readLoss(t, ctx, to, from.ID())
	}
	waitStreamsVia(t, ctx, nodes, "")
	for _, pair := range [][2]*Node{{a, b}, {b, a}} {
		drainLosses(t, ctx, pair[0], pair[1].ID())
	}
	exchangeInOrder(t, ctx, nodes, 10)
	time.Sleep(pathTick) // a late notification would be reported by now
	for i, l := range logs {
		l.mu.Lock()
		if len(l.faults) > 0 {
			t.Errorf("node %d reported %v", i, l.faults)
		}
		l.mu.Unlock()
	}
}

// A peer address in the invite (or --peer) at which another peer answers:
// the security handshake names that peer, the node reports the address as
// leading to someone else, naming the peer it was given for (no relay),
// and reaches the peer at its other address.
func TestPeerAddressLeadingToSomeoneElse(t *testing.T) {
	ctx := testContext(t, 30*time.Second)
	ports := sortedPorts(t, 3)
	// Any libp2p host as the decoy. Its port is the lowest, so libp2p
	// dials it first, and once its TCP connection is up the dialler holds
	// the next address back for 500 ms while the handshake runs, which
	// fails at once, naming the decoy.
	decoy, _ := startHostileRelay(t, ports[0], hostile{})
	logs := []*faultLog{{}, {}}
	var nodes []*Node
	for i, l := range logs {
		nodes = append(nodes, startNodes(t, 1, tcpAt(ports[1+i]).String(), Config{OnRelayFault: l.onFault})[0])
	}
	host, guest := nodes[0], nodes[1]
	real := host.Addrs()[0]
	realTransport, _ := peer.SplitAddr(real)
	if err := host.SetPeers([]peer.AddrInfo{{ID: guest.ID(), Addrs: []multiaddr.Multiaddr{guest.host.Addrs()[0]}}}); err != nil {
		t.Fatal(err)
	}
	if err := guest.SetPeers([]peer.AddrInfo{{ID: host.ID(), Addrs: []multiaddr.Multiaddr{tcpAt(ports[0]), realTransport}}}); err != nil {
		t.Fatal(err)
	}
	if err := guest.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	if err := host.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	logs[1].mu.Lock()
	faults := slices.Clone(logs[1].faults)
	logs[1].mu.Unlock()
	if len(faults) != 1 || faults[0].Kind != RelayWrongPeer || faults[0].Relay != "" || faults[0].Peer != host.ID() || faults[0].Actual != decoy.ID() {
		t.Fatalf("guest reported %+v; want one wrong peer at %s for the host, authenticated as %s", faults, tcpAt(ports[0]), decoy.ID())
	}
	mustContain(t, "message", faults[0].Message("alice"), "the address "+tcpAt(ports[0]).String()+" given for alice leads to another peer",
		ShortID(decoy.ID()), "not trusted", "alice's other addresses")
	exchangeInOrder(t, ctx, nodes, 5)
}

// BenchmarkHandWithDroppingRelay measures, on 127.0.0.1 over TCP, what a
// relay that drops circuits costs a hand: four nodes that reach one
// another only through relays (as behind NATs) play one hand, first
// through a good relay ("good"), then with a relay met first that resets
// every circuit after 16 KiB ("dropping": every pair reconnects through
// the good relay mid-hand). Each iteration seats a fresh table (the
// seating is not timed) and reports the hand's wall time.
func BenchmarkHandWithDroppingRelay(b *testing.B) {
	for _, bc := range []struct {
		name  string
		limit *relay.RelayLimit
	}{
		{"good", nil},
		{"dropping", &relay.RelayLimit{Duration: time.Hour, Data: 16 << 10}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var total time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				ctx := testContext(b, 2*time.Minute)
				nodes, _, _, _ := seatWithDropper(b, ctx, bc.limit, true)
				b.StartTimer()
				start := time.Now()
				checkCleanHands(b, playHandsGrace(b, ctx, nodes, 1, 30*time.Second), 1)
				total += time.Since(start)
			}
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "hand-ms")
		})
	}
}

// Only the table's relays and the node's own are named: on the public
// network the DHT's peers are dialled through relays that are none of
// the table's business, and their refusals are not shown. The refusal's
// text is the one libp2p's circuit client gives (client/dial.go).
func TestDialFaultsOnlyForTheTablesRelays(t *testing.T) {
	n := startNodes(t, 1, tcpLoopback, Config{})[0]
	tableRelay, stranger, bob := testPeerID(t), testPeerID(t), testPeerID(t)
	relayAddr := tcpAt(4001)
	circuit := func(r peer.ID) multiaddr.Multiaddr {
		return relayAddr.Encapsulate(multiaddr.StringCast("/p2p/" + r.String() + "/p2p-circuit"))
	}
	if err := n.SetPeers([]peer.AddrInfo{{ID: bob, Addrs: []multiaddr.Multiaddr{circuit(tableRelay)}}}); err != nil {
		t.Fatal(err)
	}
	refused := fmt.Errorf("error opening relay circuit: %s (%d)", pbv2.Status_PERMISSION_DENIED, pbv2.Status_PERMISSION_DENIED)
	f, ok := n.classifyDialError(circuit(tableRelay), refused)
	if !ok || f.Kind != RelayRefusedCircuit || f.Relay != tableRelay || f.Status != "PERMISSION_DENIED" || !f.Addr.Equal(relayAddr) {
		t.Errorf("through the table's relay: %+v, %v", f, ok)
	}
	if f, ok := n.classifyDialError(circuit(stranger), refused); ok {
		t.Errorf("through a stranger's relay: reported %v", f)
	}
	if f, ok := n.classifyDialError(circuit(tableRelay), errors.New("concurrent active dial succeeded")); ok {
		t.Errorf("the circuit client's de-duplication reported as %v", f)
	}
}
