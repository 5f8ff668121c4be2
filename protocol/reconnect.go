package protocol

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/protocol/pb"
)

// DefaultReconnectGrace is how long the table waits, paused, for a player
// whose connection dropped to come back (Config.ReconnectGrace).
const DefaultReconnectGrace = 2 * time.Minute

// mailboxSize bounds the entries read ahead from one peer, and
// mailboxBytes their bytes. The lockstep protocol never has more than a
// few in flight: an honest peer is at most one hand's passes ahead (with
// the pipeline, SPEC.md §22: a shuffle and a rekey pass with their proofs,
// about 44 KB for 136 tiles) plus a turn's messages. A peer that floods
// waits: its pump stops reading, and the node's stream flow control pushes
// back on the sender, so unread entries never hold more than 256 KiB of a
// node's memory here, about six hands of one peer's passes.
const (
	mailboxSize  = 1024
	mailboxBytes = 256 << 10
)

// links is the game's side of the connections to the other players: a
// pump goroutine per peer reads the transport into a mailbox, answers Sync
// requests and follows the peer's connection through drops and
// reconnections; the outbox keeps every envelope sent to each peer, so
// that what a peer missed can be sent again. It is the only part of a
// Game that runs off the game's goroutine.
type links struct {
	t     Transport
	self  peer.ID
	key   func(*pb.Entry) (*Opened, error) // signs a Sync
	log   *slog.Logger
	grace time.Duration // 0: no reconnection
	boxes map[peer.ID]*mailbox

	mu      sync.Mutex
	changed chan struct{} // closed and replaced when any peer goes down or comes back
	gameID  []byte
	next    map[peer.ID]uint64         // one more than the highest seq accepted from the peer
	asked   map[peer.ID]bool           // peers sent a Sync: copies from them are expected
	early   map[peer.ID]bool           // peers asked again for their Hello (askForHello)
	ctx     context.Context            // the pumps' context, for askForHello's Sync
	claims  map[peer.ID]waitClaim      // each peer's last Waiting notice (waiting.go)
	results map[peer.ID]*pb.ResultSign // each peer's result signature (result.go)
}

// sentEntry is one envelope sent to a peer, with its seq.
type sentEntry struct {
	seq uint64
	env []byte
}

// mailbox holds what one peer sent, the state of its connection, and
// what was sent to it.
type mailbox struct {
	in chan []byte // envelopes other than Sync, in arrival order

	// qmu guards queued and room: queued counts the bytes of the
	// envelopes in in; room is closed and replaced when some are taken.
	qmu    sync.Mutex
	queued int
	room   chan struct{}

	// sendMu serializes sends to the peer with resends to it, so that the
	// peer receives this player's entries in seq order; it guards outbox
	// and held.
	sendMu sync.Mutex
	outbox []sentEntry // every envelope sent to the peer
	// held is set while this player awaits the peer's Sync (after its
	// connection dropped, or after this player resumed): new entries for
	// it wait in the outbox, so that the resend of what it missed comes
	// first.
	held bool

	mu        sync.Mutex
	downSince time.Time // when the connection dropped; zero while up
	final     error     // set once the peer will not come back
}

func newLinks(t Transport, self peer.ID, others []peer.ID, grace time.Duration, log *slog.Logger) *links {
	l := &links{t: t, self: self, log: log, grace: grace, boxes: map[peer.ID]*mailbox{},
		changed: make(chan struct{}), next: map[peer.ID]uint64{}, asked: map[peer.ID]bool{}, early: map[peer.ID]bool{}}
	if _, ok := t.(Reconnecting); !ok {
		l.grace = 0
	}
	for _, p := range others {
		l.boxes[p] = &mailbox{in: make(chan []byte, mailboxSize), room: make(chan struct{})}
	}
	return l
}

// start runs the pumps until ctx is done. sync sends a Sync to every peer
// first (a resumed game asks for what it missed while it was down).
func (l *links) start(ctx context.Context, sync bool) {
	l.mu.Lock()
	l.ctx = ctx
	l.mu.Unlock()
	for p := range l.boxes {
		go func() {
			if sync {
				l.sendSync(ctx, p, false)
			}
			l.pump(ctx, p)
		}()
	}
}

// notify wakes everyone waiting for a change of connection state.
func (l *links) notify() {
	l.mu.Lock()
	close(l.changed)
	l.changed = make(chan struct{})
	l.mu.Unlock()
}

// watch returns the channel closed at the next change of connection state.
func (l *links) watch() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.changed
}

// pump reads peer p's envelopes into its mailbox until ctx is done or p is
// gone for good, and follows p through reconnections.
func (l *links) pump(ctx context.Context, p peer.ID) {
	box := l.boxes[p]
	for {
		b, err := l.t.Recv(ctx, p)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			rc, ok := l.t.(Reconnecting)
			if !ok || l.grace <= 0 || !errors.Is(err, ErrPeerGone) {
				l.setFinal(box, err)
				return
			}
			l.setDown(box, true)
			l.log.Info("connection to peer lost; waiting for it to come back", "peer", p, "grace", l.grace, "err", err)
			if werr := rc.WaitUp(ctx, p); werr != nil {
				if ctx.Err() == nil {
					l.setFinal(box, fmt.Errorf("%w (then: %w)", err, werr))
				}
				return
			}
			l.log.Info("peer reconnected", "peer", p)
			l.setDown(box, false)
			l.sendSync(ctx, p, false)
			continue
		}
		if isSync(b) {
			l.answerSync(ctx, p, b)
			continue
		}
		if isWaiting(b) {
			l.takeWaiting(p, b)
			continue
		}
		if isResultSign(b) {
			l.takeResultSign(p, b)
			continue
		}
		if !box.reserve(ctx, len(b)) {
			return
		}
		select {
		case box.in <- b:
		case <-ctx.Done():
			return
		}
	}
}

// reserve waits until n more bytes fit in the mailbox's budget
// (mailboxBytes; an envelope alone always fits) and counts them, or
// returns false once ctx is done.
func (box *mailbox) reserve(ctx context.Context, n int) bool {
	for {
		box.qmu.Lock()
		if box.queued == 0 || box.queued+n <= mailboxBytes {
			box.queued += n
			box.qmu.Unlock()
			return true
		}
		room := box.room
		box.qmu.Unlock()
		select {
		case <-room:
		case <-ctx.Done():
			return false
		}
	}
}

// taken returns env, an envelope just read from in, after releasing its
// bytes from the mailbox's budget.
func (box *mailbox) taken(env []byte) []byte {
	box.qmu.Lock()
	box.queued -= len(env)
	close(box.room)
	box.room = make(chan struct{})
	box.qmu.Unlock()
	return env
}

func (l *links) setDown(box *mailbox, down bool) {
	if down {
		box.sendMu.Lock()
		box.held = true
		box.sendMu.Unlock()
	}
	box.mu.Lock()
	if down {
		box.downSince = time.Now()
	} else {
		box.downSince = time.Time{}
	}
	box.mu.Unlock()
	l.notify()
}

func (l *links) setFinal(box *mailbox, err error) {
	box.mu.Lock()
	box.final = err
	box.downSince = time.Time{} // gone, not away: nobody waits for it to come back
	box.mu.Unlock()
	l.notify()
}

// state returns since when the peer's connection is down (zero while up)
// and its final error (nil while it may still send).
func (box *mailbox) state() (downSince time.Time, final error) {
	box.mu.Lock()
	defer box.mu.Unlock()
	return box.downSince, box.final
}

// down returns the peers whose connection is down, with since when, in
// the order of order.
func (l *links) down(order []peer.ID) (peers []peer.ID, since []time.Time) {
	for _, p := range order {
		if t, _ := l.boxes[p].state(); !t.IsZero() {
			peers, since = append(peers, p), append(since, t)
		}
	}
	return peers, since
}

// accepted notes that the entry seq of peer p is held, for the next Sync.
func (l *links) accepted(p peer.ID, seq uint64) {
	l.mu.Lock()
	if seq+1 > l.next[p] {
		l.next[p] = seq + 1
	}
	l.mu.Unlock()
}

func (l *links) setGameID(id []byte) {
	l.mu.Lock()
	l.gameID = id
	l.mu.Unlock()
}

// send hands env (this player's entry seq) to peer to and keeps it in the
// outbox. With reconnection, a failed send is not an error: the peer asks
// for the entry again with a Sync when it is back (or the hand ends as a
// fault naming it when it is not).
func (l *links) send(ctx context.Context, to peer.ID, seq uint64, env []byte) error {
	box := l.boxes[to]
	box.sendMu.Lock()
	defer box.sendMu.Unlock()
	box.outbox = append(box.outbox, sentEntry{seq, env})
	if box.held {
		return nil
	}
	err := l.t.Send(ctx, to, env)
	if err != nil && l.grace > 0 && errors.Is(err, ErrPeerGone) && ctx.Err() == nil {
		l.log.Debug("send failed; the peer will ask for it again", "peer", to, "seq", seq, "err", err)
		box.held = true
		return nil
	}
	return err
}

// sendSync asks peer p for every entry it sent us from the first seq we
// do not hold; answer marks the Sync that answers p's.
func (l *links) sendSync(ctx context.Context, p peer.ID, answer bool) {
	l.mu.Lock()
	next, id := l.next[p], l.gameID
	l.asked[p] = true
	l.mu.Unlock()
	o, err := l.key(&pb.Entry{GameId: id, Sender: []byte(l.self), Recipient: []byte(p), Body: &pb.Entry_Sync{Sync: &pb.Sync{Next: next, Answer: answer}}})
	if err != nil {
		l.log.Warn("cannot sign a sync", "err", err)
		return
	}
	if err := l.t.Send(ctx, p, o.Envelope); err != nil {
		l.log.Info("sync not sent; the peer is still away", "peer", p, "err", err)
	}
}

// isSync reports whether b is a Sync, without verifying it.
func isSync(b []byte) bool {
	var env pb.Envelope
	var e pb.Entry
	return proto.Unmarshal(b, &env) == nil && proto.Unmarshal(env.Entry, &e) == nil && e.GetSync() != nil
}

// answerSync checks a Sync from peer p (signed by p, addressed to us, for
// this game, with no chain fields), sends p again what it asks for
// (resend), and, unless the Sync is itself an answer, asks p in turn with
// an answering Sync. A Sync that does not check is logged and ignored: it
// asks for nothing secret either way.
func (l *links) answerSync(ctx context.Context, p peer.ID, b []byte) {
	o, err := Open(b)
	l.mu.Lock()
	id := l.gameID
	l.mu.Unlock()
	switch {
	case err != nil:
		l.log.Warn("ignored a sync that does not verify", "peer", p, "err", err)
		return
	case o.Sender != p || o.Recipient != l.self:
		l.log.Warn("ignored a sync not from the peer or not for us", "peer", p, "signer", o.Sender)
		return
	case len(id) > 0 && len(o.Entry.GameId) > 0 && string(o.Entry.GameId) != string(id):
		l.log.Warn("ignored a sync for another game", "peer", p)
		return
	case o.Entry.Seq != 0 || o.Entry.Hand != 0 || len(o.Entry.PrevHash) != 0:
		l.log.Warn("ignored a sync with chain fields", "peer", p)
		return
	}
	sync := o.Entry.GetSync()
	if !l.resend(ctx, p, sync.Next) {
		return
	}
	if !sync.Answer {
		// Ask p in turn: p holds back what it sends us until we do, and
		// this side may have seen no loss of its own.
		l.sendSync(ctx, p, true)
	}
}

// resend sends peer p again, in order, every envelope addressed to it
// from seq next on, and then whatever was held back for it; it reports
// false if the connection failed meanwhile (p will ask again).
func (l *links) resend(ctx context.Context, p peer.ID, next uint64) bool {
	box := l.boxes[p]
	box.sendMu.Lock()
	defer box.sendMu.Unlock()
	n := 0
	for _, s := range box.outbox {
		if s.seq < next {
			continue
		}
		if err := l.t.Send(ctx, p, s.env); err != nil {
			l.log.Info("resend interrupted; the peer will ask again", "peer", p, "seq", s.seq, "err", err)
			return false
		}
		n++
	}
	box.held = false
	l.log.Info("sent again what the peer missed", "peer", p, "from_seq", next, "entries", n)
	return true
}

// askedAgain reports whether this player has sent peer p a Sync: only
// then is a copy of an entry already held expected from p.
func (l *links) askedAgain(p peer.ID) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.asked[p]
}

// askForHello asks peer p, once per game, with a Sync for everything
// from its seq 0 on: an entry of p's after its Hello arrived while this
// player still lacks p's Hello (SPEC.md §18.4), so the Hello was lost
// with a dropped connection or a crash and p sent on before it noticed.
// The Sync goes from its own goroutine: the game does not wait on it.
func (l *links) askForHello(p peer.ID) {
	l.mu.Lock()
	ctx, first := l.ctx, !l.early[p]
	l.early[p] = true
	l.mu.Unlock()
	if first && ctx != nil {
		l.log.Info("an entry arrived before the peer's hello; asking for it again", "peer", p)
		go l.sendSync(ctx, p, false)
	}
}

// errEarly is checkEntry's report of a peer's entry that came before the
// peer's Hello, on a transport that reconnects: it is dropped unrecorded
// (the peer sends it again, in order, after its Hello) and the Hello is
// asked for (askForHello).
var errEarly = errors.New("entry before the peer's hello: dropped, the hello asked for again")

// errDuplicate is checkEntry's report of an entry already held, sent again
// after a reconnection: it is dropped.
var errDuplicate = errors.New("entry already held")
