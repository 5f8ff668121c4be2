package node

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-msgio"

	"github.com/mentalmj/mentalmj/protocol"
)

// ErrFrameTooLarge is returned (wrapped, naming the peer and the size in
// bytes) by Recv when a peer announced a frame larger than
// protocol.MaxMessageSize, and by Send for such a message. After it the
// peer's inbound stream is reset, so Recv's error also wraps
// protocol.ErrPeerGone.
var ErrFrameTooLarge = errors.New("frame larger than MaxMessageSize")

// errFrameTooLarge is readFrames' report of an oversized frame.
type errFrameTooLarge struct{ size int }

func (e errFrameTooLarge) Error() string {
	return fmt.Sprintf("%v: %d bytes, limit %d", ErrFrameTooLarge, e.size, protocol.MaxMessageSize)
}

func (e errFrameTooLarge) Unwrap() error { return ErrFrameTooLarge }

// readFrames reads varint-length-delimited frames (go-msgio's varint
// framing: an unsigned LEB128 length, then that many bytes) from r and
// hands each to deliver, in order, until r fails or deliver returns false.
// It returns io.EOF if r ended cleanly between frames, an errFrameTooLarge
// if a frame announces more than protocol.MaxMessageSize bytes (its body is
// not read), and r's or the varint decoder's error otherwise (a truncated
// frame gives io.ErrUnexpectedEOF). It returns nil if deliver returned
// false. Nothing r can send makes it panic or allocate more than one
// frame of at most MaxMessageSize bytes at a time.
func readFrames(r io.Reader, deliver func([]byte) bool) error {
	fr := msgio.NewVarintReaderSize(r, protocol.MaxMessageSize)
	for {
		size, err := fr.NextMsgLen()
		if err != nil {
			return err
		}
		if size < 0 || size > protocol.MaxMessageSize {
			return errFrameTooLarge{size: size}
		}
		// An exact-size buffer of our own (msgio's ReadMsg would hand out
		// a pooled one rounded up to a power of two), kept by Recv's caller.
		msg := make([]byte, size)
		if _, err := fr.Read(msg); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
		if !deliver(msg) {
			return nil
		}
	}
}

// tableWait bounds how long an inbound stream from a peer admitted by
// Config.Meet waits for SetPeers before it is reset as coming from outside
// the table.
const tableWait = 5 * time.Second

// handleStream serves an inbound ProtocolID stream: it admits one stream
// per table peer and reads its frames into the peer's inbox until the
// stream ends. The host runs it in a goroutine of its own per stream.
func (n *Node) handleStream(s network.Stream) {
	from := s.Conn().RemotePeer()
	t := n.table.Load()
	if t == nil && n.gater.meet != nil && n.gater.meet(from) {
		// A peer met before the table is set (an invite's host, which
		// sets its table and opens the game's streams as soon as it has
		// sent the seating list) may open its stream a moment before this
		// node has read that list and set the same table: wait for it.
		select {
		case <-n.tableSet:
		case <-n.closed:
		case <-time.After(tableWait):
		}
		t = n.table.Load()
	}
	var l *link
	if t != nil {
		l = t.links[from]
	}
	if l == nil {
		// The gater normally closes such connections before any stream.
		n.log.Warn("reset stream from a peer outside the table",
			"peer", from.String(), "remote", s.Conn().RemoteMultiaddr().String())
		_ = s.ResetWithError(network.StreamGated)
		return
	}
	n.closeMu.Lock()
	if n.isClosed() {
		n.closeMu.Unlock()
		_ = s.Reset()
		return
	}
	n.readers.Add(1)
	n.closeMu.Unlock()
	defer n.readers.Done()

	if old, unnoticed := l.acceptInbound(s); old != nil {
		// The peer reconnected (after a drop, or restarted): its old
		// stream is stale.
		n.log.Info("peer opened a new stream: it reconnected", "peer", from.String(), "unnoticed", unnoticed)
		_ = old.Reset()
		if unnoticed {
			// We never saw the old connection go: it and our outbound
			// stream on it are dead. Close it and start over on the new.
			if c := old.Conn(); c != s.Conn() {
				n.closeOwn(c)
			}
			n.lost(l, fmt.Errorf("peer %s: reconnected with a new stream: %w", from, protocol.ErrPeerGone), false)
		}
	}
	n.log.Debug("inbound stream open", "peer", from.String())
	goodbye := false
	err := readFrames(s, func(msg []byte) bool {
		if len(msg) == 0 {
			goodbye = true // the peer's node is closing (closeOutbound)
			return true
		}
		select {
		case l.inbox <- msg:
			return true
		default: // queue full: wait for Recv, unless the node closes
		}
		select {
		case l.inbox <- msg:
			return true
		case <-n.closed:
			return false
		}
	})
	n.endInbound(l, from, s, err, goodbye)
}

// endInbound closes or resets the inbound stream s from peer from after
// readFrames returned err, and records why the peer is gone.
// A stream replaced by a newer one from the same peer ends without
// changing the link's state.
func (n *Node) endInbound(l *link, from peer.ID, s network.Stream, err error, goodbye bool) {
	if !l.isInbound(s) {
		_ = s.Reset()
		return
	}
	var tooLarge errFrameTooLarge
	switch {
	case err == nil: // the node is closing
		_ = s.Reset()
		n.lost(l, fmt.Errorf("peer %s: %w: %w", from, ErrClosed, protocol.ErrPeerGone), true)
	case errors.Is(err, io.EOF) && goodbye:
		// The peer said goodbye and closed its side after its last
		// frame: its node shut down. Closing ours tells its Close that
		// everything was read.
		_ = s.Close()
		n.log.Info("peer left: it closed its stream", "peer", from.String())
		n.lost(l, fmt.Errorf("peer %s: stream closed: %w", from, protocol.ErrPeerGone), true)
	case errors.Is(err, io.EOF):
		// Closed without a goodbye: its connection was shut under it.
		_ = s.Close()
		n.log.Info("peer's stream closed without a goodbye", "peer", from.String())
		n.lost(l, fmt.Errorf("peer %s: stream closed: %w", from, protocol.ErrPeerGone), false)
	case errors.As(err, &tooLarge):
		_ = s.ResetWithError(network.StreamProtocolViolation)
		n.log.Warn("reset stream: frame too large", "peer", from.String(), "bytes", tooLarge.size)
		n.lost(l, fmt.Errorf("peer %s: %w: %w", from, tooLarge, protocol.ErrPeerGone), false)
	default:
		_ = s.Reset()
		n.log.Info("inbound stream ended", "peer", from.String(), "err", err)
		n.lost(l, fmt.Errorf("peer %s: stream broken: %v: %w", from, err, protocol.ErrPeerGone), false)
	}
}
