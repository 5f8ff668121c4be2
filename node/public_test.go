package node

import (
	"context"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	"github.com/multiformats/go-multiaddr"
)

// AutoRelay may ask its peer source for candidates while libp2p is still
// building the host, before New holds it: relayCandidates waits for the
// host instead of reading a nil one (a CI run's node panicked there), and
// then offers the bootstrap peers it has addresses for.
func TestRelayCandidatesBeforeTheHost(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	boot, other := testPeerID(t), testPeerID(t)
	n := &Node{bootstrap: []peer.AddrInfo{{ID: boot}, {ID: other}}}
	out := n.relayCandidates(ctx, 4) // no host yet

	h, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableRelay(), libp2p.DisableMetrics())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	addr := multiaddr.StringCast("/ip4/127.0.0.1/tcp/4001")
	h.Peerstore().AddAddr(boot, addr, peerstore.PermanentAddrTTL)
	time.Sleep(50 * time.Millisecond)
	hh := host.Host(h)
	n.published.Store(&hh)

	var got []peer.AddrInfo
	for c := range out {
		got = append(got, c)
	}
	// other has no known address: only boot is a candidate.
	if len(got) != 1 || got[0].ID != boot || len(got[0].Addrs) != 1 || !got[0].Addrs[0].Equal(addr) {
		t.Fatalf("candidates %v, want %s at %s alone", got, boot, addr)
	}
}
