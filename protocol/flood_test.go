package protocol

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// floodTransport is a peer that never stops sending: every Recv returns
// another envelope of size bytes at once, and counts it.
type floodTransport struct {
	size int
	read atomic.Int64
}

func (f *floodTransport) Send(context.Context, peer.ID, []byte) error { return nil }

func (f *floodTransport) Recv(ctx context.Context, _ peer.ID) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f.read.Add(1)
	return make([]byte, f.size), nil
}

// A peer that floods a node with envelopes the game does not read yet (a
// shuffle pass's size, far more of them than the protocol has in flight)
// fills its mailbox only up to mailboxBytes: the pump then stops reading,
// so the rest stays with the sender (the stream's flow control), and it
// reads on as the game takes entries out. With the old count-only bound
// the pump read 1,024 envelopes, 27 MB of them.
func TestFloodingPeerWaits(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	const passSize = 26_500 // a shuffle pass with its proof, 136 tiles (SPEC.md §10)
	f := &floodTransport{size: passSize}
	l := newLinks(f, tb.ids[0], tb.ids[1:2], 0, slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	l.start(ctx, false)
	box := l.boxes[tb.ids[1]]

	// The pump fills the budget and stops: the count of envelopes read
	// settles at what fits (plus the one it holds while it waits).
	fits := mailboxBytes / passSize
	settled := func(want int64) int64 {
		t.Helper()
		var last int64 = -1
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			n := f.read.Load()
			if n == last && n >= want {
				return n
			}
			last = n
		}
		return f.read.Load()
	}
	if n := settled(int64(fits)); n > int64(fits)+1 {
		t.Fatalf("the pump read %d envelopes of %d bytes (%d bytes) from a flooding peer; the mailbox holds at most %d bytes", n, passSize, n*passSize, mailboxBytes)
	}
	box.qmu.Lock()
	queued := box.queued
	box.qmu.Unlock()
	if queued > mailboxBytes || queued < mailboxBytes-passSize {
		t.Fatalf("mailbox holds %d bytes, want the budget filled: %d < bytes ≤ %d", queued, mailboxBytes-passSize, mailboxBytes)
	}

	// Taking entries out lets the pump read on, by as much as was taken.
	before := f.read.Load()
	for range 3 {
		box.taken(<-box.in)
	}
	if n := settled(before + 3); n < before+3 || n > before+4 {
		t.Fatalf("after 3 entries were taken the pump had read %d more, want 3", n-before)
	}
}
