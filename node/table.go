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
// on the sender: at most inboxCapacity × MaxMessageSize = 16 MiB per peer.
const inboxCapacity = 256

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
// FIFO of messages read from its inbound stream, and the outbound stream
// Send writes to.
type link struct {
	info peer.AddrInfo

	// inbox holds messages from the peer in arrival order.
	inbox chan []byte
	// gone is closed, after goneErr is set, when no further message will
	// arrive: the inbound stream ended, was reset, or broke the framing.
	gone     chan struct{}
	goneOnce sync.Once
	goneErr  error

	inMu    sync.Mutex
	inbound network.Stream // the accepted inbound stream, nil before it arrives

	dialing chan struct{} // holds a token while an attempt to open out runs
	// established is set once out was opened: from then on, losing every
	// connection to the peer means it is gone.
	established atomic.Bool

	outMu  sync.Mutex
	out    network.Stream // the long-lived outbound stream, nil until opened
	writer msgio.Writer   // varint framing over out
	outErr error          // set once a write failed; out is then reset
}

func newLink(info peer.AddrInfo) *link {
	return &link{
		info:  info,
		inbox: make(chan []byte, inboxCapacity),
		gone:  make(chan struct{}),

		dialing: make(chan struct{}, 1),
	}
}

// markGone records why no more messages will come from the peer. Only the
// first reason is kept; it reports whether err was that first reason.
func (l *link) markGone(err error) (first bool) {
	l.goneOnce.Do(func() {
		l.goneErr = err
		close(l.gone)
		first = true
	})
	return first
}

// acceptInbound makes s the peer's inbound stream. It reports false if the
// peer already opened one: a peer has exactly one stream towards us per
// game, so a second one is refused rather than merged out of order.
func (l *link) acceptInbound(s network.Stream) bool {
	l.inMu.Lock()
	defer l.inMu.Unlock()
	if l.inbound != nil {
		return false
	}
	l.inbound = s
	return true
}
