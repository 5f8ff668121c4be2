package node

import (
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
)

func testPeerID(t *testing.T) peer.ID {
	t.Helper()
	k, err := NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestParsePeer(t *testing.T) {
	t.Parallel()
	id := testPeerID(t)
	relay := testPeerID(t)
	good := map[string]string{
		"/ip4/192.0.2.7/tcp/4001/p2p/" + id.String():                                        "/ip4/192.0.2.7/tcp/4001",
		"/ip6/::1/udp/4001/quic-v1/p2p/" + id.String():                                      "/ip6/::1/udp/4001/quic-v1",
		"/ip4/192.0.2.9/tcp/4001/p2p/" + relay.String() + "/p2p-circuit/p2p/" + id.String(): "/ip4/192.0.2.9/tcp/4001/p2p/" + relay.String() + "/p2p-circuit",
		"/dns4/mj.example.org/tcp/4001/p2p/" + id.String():                                  "/dns4/mj.example.org/tcp/4001",
	}
	for in, wantAddr := range good {
		info, err := ParsePeer(in)
		if err != nil {
			t.Errorf("ParsePeer(%q): %v", in, err)
			continue
		}
		if info.ID != id {
			t.Errorf("ParsePeer(%q).ID = %s, want %s", in, info.ID, id)
		}
		if len(info.Addrs) != 1 || info.Addrs[0].String() != wantAddr {
			t.Errorf("ParsePeer(%q).Addrs = %v, want [%s]", in, info.Addrs, wantAddr)
		}
	}
	bad := []string{
		"/ip4/192.0.2.7/tcp/4001",           // no /p2p
		"/p2p/" + id.String(),               // no transport address
		"192.0.2.7:4001",                    // not a multiaddr
		"/ip4/192.0.2.7/tcp/4001/p2p/QmBad", // bad peer ID
		"",
		"/ip4/192.0.2.9/tcp/4001/p2p-circuit/p2p/" + id.String(), // relayed, but no relay named
	}
	for _, in := range bad {
		_, err := ParsePeer(in)
		if err == nil {
			t.Errorf("ParsePeer(%q) accepted", in)
			continue
		}
		if !strings.Contains(err.Error(), `"`+in+`"`) {
			t.Errorf("ParsePeer(%q): error %q does not quote the argument", in, err)
		}
	}
}

func TestParseListen(t *testing.T) {
	t.Parallel()
	if _, err := ParseListen("/ip4/127.0.0.1/udp/0/quic-v1"); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"127.0.0.1:4001", "/ip4/127.0.0.1/tcp/1/p2p/" + testPeerID(t).String()} {
		if _, err := ParseListen(in); err == nil || !strings.Contains(err.Error(), in) {
			t.Errorf("ParseListen(%q) = %v, want an error quoting it", in, err)
		}
	}
}

func TestParseRelay(t *testing.T) {
	t.Parallel()
	relay := testPeerID(t)
	info, err := ParseRelay("/ip4/198.51.100.4/udp/4001/quic-v1/p2p/" + relay.String())
	if err != nil || info.ID != relay || len(info.Addrs) != 1 || info.Addrs[0].String() != "/ip4/198.51.100.4/udp/4001/quic-v1" {
		t.Fatalf("ParseRelay = %v, %v", info, err)
	}
	for _, in := range []string{
		"/ip4/198.51.100.4/tcp/4001", // no /p2p
		"/p2p/" + relay.String(),     // no transport address
		"/ip4/198.51.100.4/tcp/4001/p2p/" + testPeerID(t).String() + "/p2p-circuit/p2p/" + relay.String(), // relayed
		"198.51.100.4:4001",
	} {
		if _, err := ParseRelay(in); err == nil || !strings.Contains(err.Error(), `"`+in+`"`) {
			t.Errorf("ParseRelay(%q) = %v, want an error quoting it", in, err)
		}
	}
}

func TestRelayOf(t *testing.T) {
	t.Parallel()
	id, relay := testPeerID(t), testPeerID(t)
	for in, want := range map[string]peer.ID{
		"/ip4/192.0.2.9/tcp/4001/p2p/" + relay.String() + "/p2p-circuit/p2p/" + id.String(): relay,
		"/ip4/192.0.2.9/tcp/4001/p2p/" + relay.String() + "/p2p-circuit":                    relay,
		"/ip4/192.0.2.9/tcp/4001/p2p/" + id.String():                                        "",
		"/ip4/192.0.2.9/tcp/4001/p2p-circuit/p2p/" + id.String():                            "",
	} {
		if got := relayOf(multiaddr.StringCast(in)); got != want {
			t.Errorf("relayOf(%s) = %q, want %q", in, got, want)
		}
	}
}

// Dialable drops what another machine cannot dial and keeps loopback only
// when nothing else is left.
func TestDialable(t *testing.T) {
	t.Parallel()
	const relayed = "/ip4/198.51.100.4/tcp/4001/p2p/12D3KooWAEKiG8Z8YqVsGbJNwQfyaDtqubZ5BzGaVkrvPDssJbD1/p2p-circuit"
	for _, c := range []struct{ in, want []string }{
		{[]string{"/ip4/0.0.0.0/tcp/1", "/ip4/127.0.0.1/tcp/1", "/ip4/192.0.2.7/tcp/1", "/ip6/fe80::1/tcp/1", "/ip6/::/tcp/1", relayed},
			[]string{"/ip4/192.0.2.7/tcp/1", relayed}},
		{[]string{"/ip4/127.0.0.1/tcp/1", "/ip6/::1/udp/2/quic-v1", "/ip4/0.0.0.0/tcp/1"}, []string{"/ip4/127.0.0.1/tcp/1", "/ip6/::1/udp/2/quic-v1"}},
		{[]string{"/ip4/0.0.0.0/tcp/1"}, nil},
	} {
		var in []multiaddr.Multiaddr
		for _, s := range c.in {
			in = append(in, multiaddr.StringCast(s))
		}
		var got []string
		for _, a := range Dialable(in) {
			got = append(got, a.String())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Dialable(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

// LoopbackPorts gives distinct ports that a listener can take.
func TestLoopbackPorts(t *testing.T) {
	t.Parallel()
	ports, err := LoopbackPorts(8)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, p := range ports {
		if p <= 0 || seen[p] {
			t.Fatalf("ports %v: not 8 distinct ports", ports)
		}
		if p < loopbackPortsFrom || p >= ephemeralStart() {
			t.Errorf("port %d is outside %d–%d: the kernel may give it to another program's connection", p, loopbackPortsFrom, ephemeralStart()-1)
		}
		seen[p] = true
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			t.Fatalf("port %d was not free: %v", p, err)
		}
		l.Close()
	}
}
