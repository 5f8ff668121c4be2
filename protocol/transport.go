package protocol

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
// Transport over libp2p streams, tests implement it in memory.
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
