package protocol

import "github.com/mentalmj/mentalmj/protocol/transport"

// MaxMessageSize is the largest envelope, in bytes, a transport accepts
// from a peer: transport.MaxMessageSize (64 KiB), re-exported.
const MaxMessageSize = transport.MaxMessageSize

// ErrPeerGone is returned (wrapped, naming the peer) by Transport.Recv when
// the peer disconnected or its stream closed before a message arrived: the
// error value of transport.ErrPeerGone, re-exported.
var ErrPeerGone = transport.ErrPeerGone

// Transport carries opaque signed envelopes between the players of a
// table: transport.Transport, re-exported (package transport says why it
// stands apart). The node implements it over libp2p streams, tests in
// memory (package memnet).
type Transport = transport.Transport

// Reconnecting is a Transport that can bring a dropped connection back:
// transport.Reconnecting, re-exported. The protocol then pauses the hand,
// waits up to Config.ReconnectGrace for WaitUp, and asks the peer with a
// Sync for the entries it missed (see "Reconnection" in the package doc).
type Reconnecting = transport.Reconnecting
