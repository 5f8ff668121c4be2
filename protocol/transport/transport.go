// Package transport is the contract between the protocol and what carries
// its messages: the Transport and Reconnecting interfaces, the largest
// message (MaxMessageSize) and the error of a peer that is gone
// (ErrPeerGone).
//
// It stands apart from package protocol, which re-exports each of them
// under the same name (protocol.Transport is transport.Transport, as
// os.ErrNotExist is fs.ErrNotExist), so that a transport can be written
// without importing the protocol: the in-memory network of package
// memnet, which protocol's own tests use, could not otherwise be imported
// by them. The node's libp2p transport (package node) and memnet both
// implement Reconnecting.
package transport

import (
	"context"
	"errors"

	"github.com/libp2p/go-libp2p/core/peer"
)

// MaxMessageSize is the largest envelope, in bytes, a transport accepts from
// a peer. The largest message of a hand is a shuffle pass with its proof
// (136 elements, the key commitment and a 22 048-byte shuffle argument,
// plus framing and signature): under 27 KiB.
const MaxMessageSize = 64 << 10

// ErrPeerGone is returned (wrapped, naming the peer) by Transport.Recv when
// the peer disconnected or its stream closed before a message arrived.
var ErrPeerGone = errors.New("peer disconnected")

// Transport carries opaque signed envelopes between the four players of a
// table. The protocol never touches the network itself: the node implements
// Transport over libp2p streams, tests implement it in memory (package
// memnet).
//
// Messages from one peer are delivered to Recv in the order that peer sent
// them; there is no ordering across peers. Send must not wait for the
// receiver to process the message (it may buffer), so that the lockstep
// driver can send to three peers before receiving from them.
type Transport interface {
	// Send delivers msg (at most MaxMessageSize bytes) to peer to. It
	// returns an error naming the peer if the message cannot be handed to
	// the peer's stream.
	Send(ctx context.Context, to peer.ID, msg []byte) error
	// Recv returns the next message received from peer from, blocking until
	// one arrives, ctx is done (ctx.Err() is returned, wrapped) or the peer
	// is gone (ErrPeerGone, wrapped). A message larger than MaxMessageSize
	// is an error naming the peer, never a panic.
	Recv(ctx context.Context, from peer.ID) ([]byte, error)
}

// Reconnecting is a Transport that can bring a dropped connection back:
// the node's libp2p transport redials the peer and accepts the streams of
// a peer that restarted. The protocol then pauses the hand, waits up to
// its Config.ReconnectGrace for WaitUp, and asks the peer with a Sync for
// the entries it missed (see "Reconnection" in package protocol's doc).
type Reconnecting interface {
	Transport
	// WaitUp blocks until peer p is connected again after Recv reported
	// ErrPeerGone, and returns nil; or returns ctx's error, or an error
	// wrapping ErrPeerGone if p left for good (it closed its side: its
	// node shut down) or the transport was closed.
	WaitUp(ctx context.Context, p peer.ID) error
}
