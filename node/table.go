package node

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-msgio"
)

// inboxCapacity is how many received messages are queued per peer before
// the stream reader stops reading and the stream's flow control pushes back
// on the sender: at most inboxCapacity × MaxMessageSize = 2 MiB per peer.
// The game's pump empties it into a mailbox of its own (protocol's
// mailboxBytes, 256 KiB), so a peer that floods holds at most those two
// and what the stream's receive window (yamux or QUIC, under libp2p's
// resource manager) has taken in.
const inboxCapacity = 32

// ErrNotInTable is returned (wrapped, naming the peer) by Send and Recv for
// a peer that is not one of the table's peers.
var ErrNotInTable = errors.New("peer is not at this table")

// table is the fixed set of peers of a game, in the order they were given.
// It is immutable once built; the Node swaps it in at most once.
type table struct {
	order []peer.ID
	links map[peer.ID]*link
	// relays are the relays named in the peers' relayed addresses
	// (…/p2p/RELAY/p2p-circuit/p2p/PEER): the gater admits them so that
	// those peers can be dialled through them.
	relays map[peer.ID]bool
}

func newTable(self peer.ID, peers []peer.AddrInfo) (*table, error) {
	if len(peers) == 0 {
		return nil, errors.New("peer table is empty")
	}
	t := &table{links: make(map[peer.ID]*link, len(peers)), relays: make(map[peer.ID]bool)}
	for _, p := range peers {
		if err := p.ID.Validate(); err != nil {
			return nil, fmt.Errorf("peer table: invalid peer ID %q: %w", p.ID, err)
		}
		if p.ID == self {
			return nil, fmt.Errorf("peer table: %s is this node itself", p.ID)
		}
		if _, dup := t.links[p.ID]; dup {
			return nil, fmt.Errorf("peer table: %s given twice", p.ID)
		}
		if len(p.Addrs) == 0 {
			return nil, fmt.Errorf("peer table: %s has no address to dial", p.ID)
		}
		for _, a := range p.Addrs {
			if r := relayOf(a); r != "" {
				t.relays[r] = true
			}
		}
		t.order = append(t.order, p.ID)
		t.links[p.ID] = newLink(p)
	}
	return t, nil
}

// link is everything the node keeps about one peer: its addresses, the
// FIFO of messages read from its inbound stream, the outbound stream Send
// writes to, and the state of the connection (reconnect.go).
type link struct {
	info peer.AddrInfo

	// inbox holds messages from the peer in arrival order.
	inbox chan []byte

	// stMu guards the connection state below.
	stMu sync.Mutex
	// down is set when the connection dropped (the inbound stream broke,
	// a send failed, the last connection closed, or the peer opened a
	// new stream), until a new outbound stream is open (WaitUp redials).
	// left is set when the peer closed its stream: its node shut down.
	down, left bool
	downErr    error // why down or left
	// epoch counts the losses; seen is the last one Recv reported, so
	// that every loss is reported once even if the link is back before
	// Recv looks.
	epoch, seen int
	changed     chan struct{} // closed and replaced on every change
	redialing   bool

	inMu    sync.Mutex
	inbound network.Stream // the accepted inbound stream, nil before it arrives
	inEpoch int            // epoch when inbound was accepted

	dialing chan struct{} // holds a token while an attempt to open out runs
	// established is set once out was opened: from then on, losing every
	// connection to the peer means the link is down.
	established atomic.Bool

	outMu  sync.Mutex
	out    network.Stream // the long-lived outbound stream, nil until opened
	writer msgio.Writer   // varint framing over out
	outErr error          // set by Close: no more sends
}

func newLink(info peer.AddrInfo) *link {
	return &link{
		info:    info,
		inbox:   make(chan []byte, inboxCapacity),
		changed: make(chan struct{}),

		dialing: make(chan struct{}, 1),
	}
}

// acceptInbound makes s the peer's inbound stream and returns the one it
// replaces (nil if none). A peer opens one stream towards us per
// connection; a second one means it reconnected (after a drop, or a
// restart) and the old one is stale. unnoticed reports that no loss was
// recorded since the old stream was accepted: the peer restarted, or its
// old connection died without our noticing (a QUIC connection to a killed
// process lingers until its idle timeout), so our own outbound stream is
// stale too.
func (l *link) acceptInbound(s network.Stream) (old network.Stream, unnoticed bool) {
	l.stMu.Lock()
	epoch := l.epoch
	l.stMu.Unlock()
	l.inMu.Lock()
	defer l.inMu.Unlock()
	old, l.inbound = l.inbound, s
	unnoticed = old != nil && l.inEpoch == epoch
	l.inEpoch = epoch
	return old, unnoticed
}

// isInbound reports whether s is the peer's current inbound stream.
func (l *link) isInbound(s network.Stream) bool {
	l.inMu.Lock()
	defer l.inMu.Unlock()
	return l.inbound == s
}
