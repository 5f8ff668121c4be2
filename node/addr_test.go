package node

import (
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
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
	if _, err := ParseListen("/ip4/127.0.0.1/udp/0/quic-v1"); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"127.0.0.1:4001", "/ip4/127.0.0.1/tcp/1/p2p/" + testPeerID(t).String()} {
		if _, err := ParseListen(in); err == nil || !strings.Contains(err.Error(), in) {
			t.Errorf("ParseListen(%q) = %v, want an error quoting it", in, err)
		}
	}
}
