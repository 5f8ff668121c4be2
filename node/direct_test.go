package node

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
)

// obs is an observation by observer over transport tr: local socket
// local:lport seen at seen:sport.
func obs(observer peer.ID, tr, local string, lport int, seen string, sport int) observation {
	return observation{observer: observer, transport: tr, localIP: local, localPort: lport, obsIP: seen, obsPrt: sport}
}

// What a NAT does to ports, read off observations worked out by hand: a
// home player at 10.0.1.2 listening on 4001, seen by relays R1 and R2.
func TestSelfNAT(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		obs  []observation
		want NAT
	}{
		{"nothing observed", nil, NATUnknown},
		{"seen at its own address", []observation{obs("R1", "TCP", "198.51.100.7", 4001, "198.51.100.7", 4001)}, NATNone},
		{"port kept, one observer", []observation{obs("R1", "TCP", "10.0.1.2", 4001, "198.51.100.101", 4001)}, NATKeepsPort},
		{"port kept, two observers, both transports", []observation{
			obs("R1", "TCP", "10.0.1.2", 4001, "198.51.100.101", 4001),
			obs("R2", "TCP", "10.0.1.2", 4001, "198.51.100.101", 4001),
			obs("R1", "QUIC", "10.0.1.2", 4001, "198.51.100.101", 4001),
		}, NATKeepsPort},
		{"another port, one observer", []observation{obs("R1", "QUIC", "10.0.1.2", 4001, "198.51.100.101", 61234)}, NATChangesPort},
		{"the same other port for two observers (port taken, mapping kept)", []observation{
			obs("R1", "TCP", "10.0.1.3", 4001, "198.51.100.101", 1025),
			obs("R2", "TCP", "10.0.1.3", 4001, "198.51.100.101", 1025),
		}, NATChangesPort},
		{"two observers, two ports: a new port per destination", []observation{
			obs("R1", "TCP", "10.0.1.2", 4001, "198.51.100.101", 4001),
			obs("R2", "TCP", "10.0.1.2", 4001, "198.51.100.101", 37002),
		}, NATPortPerDestination},
	} {
		n := &Node{obs: c.obs}
		if got := n.selfNATLocked(); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestPathString(t *testing.T) {
	t.Parallel()
	relay, err := peer.Decode("12D3KooWJCWxBq7eAqRQ4ZM8Pk64eSSSyveWjhecbjqDpJmXmMMw")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		p    Path
		want string
	}{
		{Path{Direct: true, Transport: "QUIC", How: "hole punched"}, "direct (QUIC, hole punched)"},
		{Path{Direct: true, Transport: "QUIC", Family: "IPv6", How: "hole punched"}, "direct (QUIC, IPv6, hole punched)"},
		{Path{Direct: true, Transport: "TCP", How: "LAN"}, "direct (TCP, LAN)"},
		{Path{Relay: relay, Why: "their NAT gives a new port for every destination"}, "relayed via 12D3Ko…mMMw: their NAT gives a new port for every destination"},
		{Path{Relay: relay, RelayPlayer: true}, "relayed via 12D3Ko…mMMw (a player)"},
		{Path{Relay: relay, RelayPlayer: true, Why: "hole punching"}, "relayed via 12D3Ko…mMMw (a player): hole punching"},
		{Path{}, "not connected"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}

func TestTransportAndGivenAddr(t *testing.T) {
	t.Parallel()
	m := multiaddr.StringCast
	for a, want := range map[string]string{
		"/ip4/198.51.100.2/udp/4001/quic-v1": "QUIC",
		"/ip4/198.51.100.2/tcp/4001":         "TCP",
		"/ip4/198.51.100.2/tcp/4001/p2p/12D3KooWJCWxBq7eAqRQ4ZM8Pk64eSSSyveWjhecbjqDpJmXmMMw/p2p-circuit": "TCP",
		"/ip6/::1/udp/9/quic-v1/webtransport": "QUIC",
	} {
		if got := transportName(m(a)); got != want {
			t.Errorf("transportName(%s) = %q, want %q", a, got, want)
		}
	}
	given := []multiaddr.Multiaddr{m("/ip4/198.51.100.101/tcp/4001"), m("/ip4/10.0.1.2/udp/4001/quic-v1")}
	if !givenAddr(given, m("/ip4/198.51.100.101/tcp/4001")) {
		t.Error("the dialled address is not recognised as given")
	}
	if givenAddr(given, m("/ip4/198.51.100.101/tcp/33001")) {
		t.Error("another port (a hole punched mapping) counted as given")
	}
}

// A peer's answer about its NAT is only its word: garbage is ignored, and
// a stranger is not answered.
func TestNATAnswers(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 20*time.Second)
	nodes := startNodes(t, 2, tcpLoopback, Config{})
	a, b := nodes[0], nodes[1]
	stranger := startNodes(t, 1, tcpLoopback, Config{Meet: func(peer.ID) bool { return true }})[0]
	seat(t, ctx, []*Node{a, b})

	// b tells a the truth: nothing observed on loopback.
	a.askNAT(b.ID())
	if p := pathOf(a, b.ID()); p.NATPeer != NATUnknown {
		t.Errorf("NATPeer = %v, want unknown", p.NATPeer)
	}
	// A tampered answer: b's handler replaced by one that lies out of
	// range; a ignores it.
	b.host.SetStreamHandler(NATProtocolID, func(s network.Stream) {
		_, _ = s.Write([]byte{200})
		_ = s.Close()
	})
	a.askNAT(b.ID())
	if p := pathOf(a, b.ID()); p.NATPeer != NATUnknown {
		t.Errorf("after an out-of-range answer NATPeer = %v, want unknown", p.NATPeer)
	}
	// An honest answer in range is recorded.
	b.host.SetStreamHandler(NATProtocolID, func(s network.Stream) {
		_, _ = s.Write([]byte{byte(NATPortPerDestination)})
		_ = s.Close()
	})
	a.askNAT(b.ID())
	if p := pathOf(a, b.ID()); p.NATPeer != NATPortPerDestination {
		t.Errorf("NATPeer = %v, want %v", p.NATPeer, NATPortPerDestination)
	}

	// A stranger (not at a's table) gets no answer: a's gater refuses
	// the connection before any stream.
	stranger.host.Peerstore().AddAddrs(a.ID(), a.host.Addrs(), time.Minute)
	sctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if s, err := stranger.host.NewStream(sctx, a.ID(), NATProtocolID); err == nil {
		var buf [1]byte
		_ = s.SetReadDeadline(time.Now().Add(2 * time.Second))
		if n, _ := s.Read(buf[:]); n > 0 {
			t.Errorf("a stranger got a's NAT class %d", buf[0])
		}
	}
}

// pathOf returns n's recorded path to p (its NATPeer is what askNAT
// stored).
func pathOf(n *Node, p peer.ID) Path {
	n.pathMu.Lock()
	defer n.pathMu.Unlock()
	if st := n.paths[p]; st != nil {
		return st.path
	}
	return Path{}
}

// On the public network the gater lets the node dial anyone, but a
// stranger still cannot connect to it, and a stranger it dialled still
// cannot open the game's stream.
func TestPublicGater(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 30*time.Second)
	r := startRelay(t, tcpLoopback) // also a DHT server: the bootstrap peer
	nodes := startNodes(t, 2, tcpLoopback, Config{Public: true, Bootstrap: []peer.AddrInfo{relayInfo(t, r)}})
	a, b := nodes[0], nodes[1]
	// The stranger admits anyone (as an invite's host does before its
	// table is set), so that only a's gater decides.
	strangers := startNodes(t, 1, tcpLoopback, Config{Meet: func(peer.ID) bool { return true }})
	stranger := strangers[0]
	seat(t, ctx, []*Node{a, b})
	if reached, err := a.JoinPublic(ctx); err != nil || reached != 1 {
		t.Fatalf("JoinPublic = %d, %v; want the relay reached", reached, err)
	}

	// Inbound from a stranger: refused.
	cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	_ = stranger.host.Connect(cctx, peer.AddrInfo{ID: a.ID(), Addrs: a.host.Addrs()})
	cancel()
	time.Sleep(200 * time.Millisecond)
	if conns := a.host.Network().ConnsToPeer(stranger.ID()); len(conns) != 0 {
		t.Errorf("a public node keeps %d connections a stranger dialled", len(conns))
	}

	// Outbound to the stranger: allowed, but the game stream the
	// stranger opens over it is reset as gated.
	if err := a.host.Connect(ctx, peer.AddrInfo{ID: stranger.ID(), Addrs: stranger.host.Addrs()}); err != nil {
		t.Fatalf("a public node could not dial: %v", err)
	}
	s, err := stranger.host.NewStream(ctx, a.ID(), ProtocolID)
	if err != nil {
		t.Fatalf("the stranger could not open a stream on a's connection: %v", err)
	}
	_, _ = s.Write([]byte{5, 'h', 'e', 'l', 'l', 'o'})
	_ = s.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err = s.Read(make([]byte, 1))
	if !errors.Is(err, &network.StreamError{ErrorCode: network.StreamGated, Remote: true}) {
		t.Errorf("stranger's game stream: read error %v, want a reset as gated", err)
	}
	if _, err := a.Recv(ctx, stranger.ID()); !errors.Is(err, ErrNotInTable) {
		t.Errorf("Recv from the stranger: %v, want ErrNotInTable", err)
	}
}

// JoinPublic with nobody to answer says so, naming the bootstrap peer,
// and does not hang.
func TestJoinPublicOffline(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 30*time.Second)
	r := startRelay(t, tcpLoopback)
	info := relayInfo(t, r)
	_ = r.Close() // gone before anyone bootstraps from it
	nodes := startNodes(t, 1, tcpLoopback, Config{Public: true, Bootstrap: []peer.AddrInfo{info}})
	start := time.Now()
	reached, err := nodes[0].JoinPublic(ctx)
	if err == nil || reached != 0 {
		t.Fatalf("JoinPublic = %d, %v; want an error", reached, err)
	}
	if !strings.Contains(err.Error(), info.ID.String()) {
		t.Errorf("error does not name the bootstrap peer %s: %v", info.ID, err)
	}
	if time.Since(start) > bootstrapTimeout+5*time.Second {
		t.Errorf("JoinPublic took %s", time.Since(start))
	}
	if _, err := startNodes(t, 1, tcpLoopback, Config{})[0].JoinPublic(ctx); err == nil {
		t.Error("JoinPublic on a node off the public network succeeded")
	}
}

// The hole punch retries 0.5 s doubling to 15 s (SPEC §21): the cap is
// reached, not an earlier one.
func TestPunchWait(t *testing.T) {
	t.Parallel()
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 15 * time.Second, 15 * time.Second}
	for i, w := range want {
		if got := punchWait(i + 1); got != w {
			t.Errorf("after attempt %d: wait %s, want %s", i+1, got, w)
		}
	}
	if got := punchWait(1000); got != maxPunchWait {
		t.Errorf("after attempt 1000: wait %s, want %s", got, maxPunchWait)
	}
}

// TestInferredAddrs: an observed TCP address whose port the NAT kept
// yields the QUIC listen address at the observed IP (and the reverse); a
// changed port, another family or no NAT yields nothing. The expected
// addresses are written out by hand.
func TestInferredAddrs(t *testing.T) {
	t.Parallel()
	m := multiaddr.StringCast
	listen := []multiaddr.Multiaddr{m("/ip4/0.0.0.0/tcp/4001"), m("/ip4/0.0.0.0/udp/4001/quic-v1"),
		m("/ip6/::/tcp/4001"), m("/ip6/::/udp/4003/quic-v1")}
	for _, c := range []struct {
		name string
		o    observation
		want []string
	}{
		{"TCP port kept", obs("R1", "TCP", "10.0.1.2", 4001, "198.51.100.101", 4001), []string{"/ip4/198.51.100.101/udp/4001/quic-v1"}},
		{"QUIC port kept", obs("R1", "QUIC", "10.0.1.2", 4001, "198.51.100.101", 4001), []string{"/ip4/198.51.100.101/tcp/4001"}},
		{"IPv6 behind a port-keeping NAT66", obs("R1", "TCP", "fd00::2", 4001, "2001:db8::7", 4001), []string{"/ip6/2001:db8::7/udp/4003/quic-v1"}},
		{"port changed", obs("R1", "TCP", "10.0.1.2", 4001, "198.51.100.101", 61234), nil},
		{"no NAT", obs("R1", "TCP", "198.51.100.7", 4001, "198.51.100.7", 4001), nil},
	} {
		var got []string
		for _, a := range inferredAddrs([]observation{c.o}, listen) {
			got = append(got, a.String())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// A node whose peer runs DCUtR (the peer accepted our relayed
// connection) dials none of the peer's addresses while a punch can get
// through, since a dial of ours to the same address is joined by the
// punch's synchronised dial and nothing goes out at the punch's moment
// (the natlab tables whose host had all three pairs relayed). It still
// dials when either NAT changes ports (a forwarded or mapped port is then
// the way), and whenever it is DCUtR's initiator itself.
func TestWaitForPeerPunch(t *testing.T) {
	all := []NAT{NATUnknown, NATNone, NATKeepsPort, NATChangesPort, NATPortPerDestination}
	keeps := func(n NAT) bool { return n == NATUnknown || n == NATNone || n == NATKeepsPort }
	for _, self := range all {
		for _, peer := range all {
			if waitForPeerPunch(false, self, peer) {
				t.Errorf("self %v, peer %v: waits although the peer does not initiate", self, peer)
			}
			if got, want := waitForPeerPunch(true, self, peer), keeps(self) && keeps(peer); got != want {
				t.Errorf("self %v, peer %v, the peer initiates: waits %v, want %v", self, peer, got, want)
			}
		}
	}
}
