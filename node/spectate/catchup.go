package spectate

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node/spectate/pb"
)

// CatchUpProtocol is the host's catch-up stream (SPEC.md §25): a
// spectator that joined after the game started sends a pb.CatchUpRequest
// and reads back, varint-length-delimited, every pb.Published message the
// host published from the request's index on (from the game's first
// entry: the Hellos, every hand before the one in play with its key
// reveals, and the hand in play), in the host's order, up to the bounds
// below; a spectator whose answer was cut asks again from where it
// stopped. It reaches no game stream: only this handler answers it.
const CatchUpProtocol protocol.ID = "/mentalmj/watch/catchup/1"

// The catch-up's bounds (defaults of Options): a peer may ask once per
// CatchUpEvery (an answer that held nothing does not count); the host answers at most catchUpConcurrent requests at a
// time, each with at most CatchUpBytes of messages and catchUpEntries
// messages, within catchUpTimeout.
const (
	CatchUpEvery      = 10 * time.Second
	CatchUpBytes      = 8 << 20
	catchUpEntries    = 8192
	catchUpConcurrent = 2
	catchUpTimeout    = 30 * time.Second
	catchUpRequestMax = 1024
)

// ErrCatchUpRefused is wrapped by Watch.CatchUp's error when the host
// refused the request: asked too often, too many at once, or another
// table.
var ErrCatchUpRefused = errors.New("the host refused the catch-up")

// sent is one message the Publisher published: its index and bytes.
type sent struct {
	index uint64
	data  []byte
}

// catchUpServer answers the catch-up stream from the Publisher's history.
type catchUpServer struct {
	table string
	every time.Duration
	bytes int
	log   func(msg string, args ...any)

	mu      sync.Mutex
	history []sent // by index, each index once
	last    map[peer.ID]time.Time
	busy    int
	served  int // requests answered, for tests
	refused int // requests refused
}

// record adds a published message to the history (the first of an index
// is kept: a resumed host publishes again what it had).
func (c *catchUpServer) record(m *pb.Published, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i, found := slices.BinarySearchFunc(c.history, m.Index, byIndex)
	if !found {
		c.history = slices.Insert(c.history, i, sent{index: m.Index, data: data})
	}
}

// byIndex orders the history by index, for slices.BinarySearchFunc.
func byIndex(x sent, index uint64) int { return cmp.Compare(x.index, index) }

// selection returns, in index order, the messages of index from on
// (CatchUpProtocol).
func (c *catchUpServer) selection(from uint64) [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	i, _ := slices.BinarySearchFunc(c.history, from, byIndex)
	out := make([][]byte, 0, len(c.history)-i)
	for _, s := range c.history[i:] {
		out = append(out, s.data)
	}
	return out
}

// admit reports whether p may be answered now, and takes a slot. prev is
// when p's last answer that counts toward the limit began (zero if none),
// for forget.
func (c *catchUpServer) admit(p peer.ID) (ok bool, why string, prev time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	prev = c.last[p]
	if !prev.IsZero() && time.Since(prev) < c.every {
		c.refused++
		return false, fmt.Sprintf("asked again within %v", c.every), prev
	}
	if c.busy >= catchUpConcurrent {
		c.refused++
		return false, fmt.Sprintf("%d catch-ups under way", c.busy), prev
	}
	c.last[p] = time.Now()
	c.busy++
	return true, "", prev
}

// forget makes p's answer just given not count toward the limit: it held
// nothing (the spectator came before the game's first entry, and must be
// able to ask again as soon as the game starts: Watch.Run asks when the
// host's Hello did not reach it by gossip).
func (c *catchUpServer) forget(p peer.ID, prev time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev.IsZero() {
		delete(c.last, p)
	} else {
		c.last[p] = prev
	}
}

func (c *catchUpServer) done() {
	c.mu.Lock()
	c.busy--
	c.served++
	c.mu.Unlock()
}

// handle answers one catch-up stream: a refused or malformed request is
// reset with nothing sent.
func (c *catchUpServer) handle(st network.Stream) {
	defer st.Close()
	p := st.Conn().RemotePeer()
	ok, why, prev := c.admit(p)
	if !ok {
		c.log("spectators: catch-up refused", "peer", p, "why", why)
		_ = st.Reset()
		return
	}
	defer c.done()
	_ = st.SetDeadline(time.Now().Add(catchUpTimeout))
	var req pb.CatchUpRequest
	if err := (protodelim.UnmarshalOptions{MaxSize: catchUpRequestMax}).UnmarshalFrom(bufio.NewReader(st), &req); err != nil || req.Table != c.table {
		c.log("spectators: catch-up request refused", "peer", p, "table", req.Table, "err", err)
		_ = st.Reset()
		return
	}
	w := bufio.NewWriter(st)
	total := 0
	sel := c.selection(req.From)
	if len(sel) == 0 {
		c.forget(p, prev)
	}
	for i, b := range sel {
		if i >= catchUpEntries || total+len(b) > c.bytes {
			c.log("spectators: catch-up cut at its bound", "peer", p, "sent", i, "of", len(sel))
			break
		}
		if _, err := w.Write(append(protowire.AppendVarint(nil, uint64(len(b))), b...)); err != nil {
			_ = st.Reset()
			return
		}
		total += len(b)
	}
	if err := w.Flush(); err != nil {
		_ = st.Reset()
	}
}

// CatchUp asks the host (CatchUpProtocol) for every message it published
// from index from on, and returns them checked as the topic's validator
// checks a message (each entry signed by a player of the table, none
// private) and sorted by index. An answer cut at the host's bounds ends
// early: Run asks again, from its next missing index, while that one
// holds back the entries gossip brought. A message that fails the check
// is a Rejection (Options.OnReject) naming the host: CatchUp returns the
// messages before it with the error, and the spectator holds back
// everything after (the host's entry never came). It returns
// ErrCatchUpRefused (wrapped) when the host refused, and the
// stream's errors. Run calls it when the first entry it takes is not the
// game's first, and again while an entry that never came holds back the
// rest.
func (w *Watch) CatchUp(ctx context.Context, from uint64) ([]*published, error) {
	ctx, cancel := context.WithTimeout(ctx, catchUpTimeout)
	defer cancel()
	st, err := w.h.NewStream(ctx, w.link.Host, CatchUpProtocol)
	if err != nil {
		return nil, fmt.Errorf("catch-up from the host %s: %w", w.link.Host, err)
	}
	defer st.Close()
	if d, ok := ctx.Deadline(); ok {
		_ = st.SetDeadline(d)
	}
	if _, err := protodelim.MarshalTo(st, &pb.CatchUpRequest{Table: w.link.Table, From: from}); err != nil {
		return nil, fmt.Errorf("catch-up from the host %s: %w", w.link.Host, err)
	}
	_ = st.CloseWrite()
	r := bufio.NewReader(st)
	var out []*published
	total := 0
	for {
		var m pb.Published
		err := (protodelim.UnmarshalOptions{MaxSize: MaxMessageSize}).UnmarshalFrom(r, &m)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if len(out) == 0 && errors.Is(err, network.ErrReset) {
				return nil, fmt.Errorf("%w: %v", ErrCatchUpRefused, err)
			}
			return nil, fmt.Errorf("catch-up from the host %s: %w", w.link.Host, err)
		}
		if total += proto.Size(&m); total > CatchUpBytes || len(out) >= catchUpEntries {
			return nil, fmt.Errorf("catch-up from the host %s: more than %d bytes or %d messages", w.link.Host, CatchUpBytes, catchUpEntries)
		}
		for i, env := range append([][]byte{m.Envelope}, m.More...) {
			p, why := w.s.check(m.Index+uint64(i), env)
			if why != "" {
				w.s.rejected(Rejection{From: w.link.Host, Author: w.link.Host, Reason: "in its catch-up: " + why})
				sortByIndex(out)
				return out, fmt.Errorf("catch-up from the host %s: %s", w.link.Host, why)
			}
			p.author = w.link.Host
			out = append(out, p)
		}
	}
	sortByIndex(out)
	return out, nil
}

// sortByIndex sorts ps by index.
func sortByIndex(ps []*published) {
	slices.SortFunc(ps, func(a, b *published) int {
		switch {
		case a.index < b.index:
			return -1
		case a.index > b.index:
			return 1
		}
		return 0
	})
}
