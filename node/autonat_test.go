package node

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	"github.com/libp2p/go-libp2p/p2p/protocol/autonatv2"
)

// While a node waits for an AutoNAT v2 dial-back, a stranger that dials
// in is admitted, but it can open only the dial-back protocol: the game's
// protocol and the NAT protocol are reset by the node's resource manager
// before any handler runs, and nothing reaches Recv. Outside the window
// (before, and after the probe ends) the stranger is refused outright, and
// the table is unaffected throughout.
func TestDialBackWindowAdmitsOnlyTheDialBack(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 30*time.Second)
	nodes := startNodes(t, 2, tcpLoopback, Config{})
	a, b := nodes[0], nodes[1]
	seat(t, ctx, nodes)
	// The stranger admits anyone, so that only a's gater decides.
	stranger := startNodes(t, 1, tcpLoopback, Config{Meet: func(peer.ID) bool { return true }})[0]
	dial := func() bool {
		cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		if sw, ok := stranger.host.Network().(*swarm.Swarm); ok {
			sw.Backoff().Clear(a.ID()) // a refusal a moment ago is no reason not to dial
		}
		_ = stranger.host.Connect(cctx, peer.AddrInfo{ID: a.ID(), Addrs: a.host.Addrs()})
		time.Sleep(200 * time.Millisecond)
		return len(a.host.Network().ConnsToPeer(stranger.ID())) > 0
	}
	if dial() {
		t.Fatal("a stranger was admitted with no dial-back awaited")
	}

	a.gater.openDialBacks(dialBackWindow)
	if !dial() {
		t.Fatal("a stranger dialling in during a dial-back window was refused")
	}
	for _, id := range []protocol.ID{ProtocolID, NATProtocolID} {
		if err := openAndRead(ctx, stranger, a.ID(), id); !errors.Is(err, &network.StreamError{ErrorCode: network.StreamResourceLimitExceeded, Remote: true}) {
			t.Errorf("dial-back peer's %s stream: %v, want a reset by the resource manager", id, err)
		}
	}
	// The dial-back protocol itself is let through to libp2p's handler,
	// which resets a dial-back with a nonce it never sent, plainly.
	if err := openAndRead(ctx, stranger, a.ID(), autonatv2.DialBackProtocol); errors.Is(err, &network.StreamError{ErrorCode: network.StreamResourceLimitExceeded, Remote: true}) {
		t.Errorf("dial-back peer's dial-back stream refused: %v", err)
	}
	if _, err := a.Recv(ctx, stranger.ID()); !errors.Is(err, ErrNotInTable) {
		t.Errorf("Recv from the dial-back peer: %v, want ErrNotInTable", err)
	}
	// The table goes on meanwhile.
	sendThrough(t, ctx, b, a.ID(), "during the window")
	readUntil(t, ctx, a, b.ID(), "during the window")

	for _, p := range a.gater.closeDialBacks() {
		_ = a.host.Network().ClosePeer(p)
	}
	if len(a.host.Network().ConnsToPeer(stranger.ID())) != 0 {
		t.Error("the dial-back peer's connection outlived the probe")
	}
	if dial() {
		t.Error("a stranger was admitted after the dial-back window closed")
	}
}

// openAndRead opens a stream of protocol id from n to p, writes a frame's
// worth of bytes and returns the error of reading the answer (5 s at most).
func openAndRead(ctx context.Context, n *Node, p peer.ID, id protocol.ID) error {
	s, err := n.host.NewStream(ctx, p, id)
	if err != nil {
		return err
	}
	defer s.Reset()
	_, _ = s.Write([]byte{5, 'h', 'e', 'l', 'l', 'o'})
	_ = s.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err = s.Read(make([]byte, 1))
	return err
}
