package protocol

import (
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// noticeLinks returns the links of player 0 of tb for game id, as a Game
// sets them up, for feeding Waiting notices to.
func noticeLinks(tb *table, id []byte) *links {
	l := newLinks(tb.net.Transport(tb.ids[0]), tb.ids[0], tb.ids[1:], 0, slog.New(slog.DiscardHandler))
	l.setGameID(id)
	return l
}

// notice returns a Waiting notice signed with key, edited by edit.
func notice(t testing.TB, key crypto.PrivKey, sender peer.ID, id []byte, hand uint32, waitsFor peer.ID, edit func(e *pb.Entry)) []byte {
	t.Helper()
	e := &pb.Entry{GameId: id, Hand: hand, Sender: []byte(sender), Body: &pb.Entry_Waiting{Waiting: &pb.Waiting{Peer: []byte(waitsFor), Kind: "turn", WaitedMs: 500, ValidMs: 3000}}}
	if edit != nil {
		edit(e)
	}
	o, err := Seal(key, e)
	if err != nil {
		t.Fatal(err)
	}
	return o.Envelope
}

// TestWaitingNoticeValidation feeds player 0 notices that must change
// nothing (forged, nonsense, for another game, with chain fields) and
// checks that a wait for player 1 still names player 1; then a good
// notice that moves it to player 2.
func TestWaitingNoticeValidation(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	id := []byte("game id of the test, 32 bytes..")
	p1, p2, p3 := tb.ids[1], tb.ids[2], tb.ids[3]
	stranger, _, _ := crypto.GenerateEd25519Key(nil)
	strangerID, _ := peer.IDFromPrivateKey(stranger)
	bad := map[string][]byte{
		"garbage":                  []byte("not a protobuf \xff\x00"),
		"signed by player 2":       notice(t, tb.keys[2], p1, id, 1, p2, nil),
		"signed by a stranger":     notice(t, stranger, strangerID, id, 1, p2, nil),
		"waits for itself":         notice(t, tb.keys[1], p1, id, 1, p1, nil),
		"names a stranger":         notice(t, tb.keys[1], p1, id, 1, strangerID, nil),
		"names no peer":            notice(t, tb.keys[1], p1, id, 1, "", func(e *pb.Entry) { e.GetWaiting().Peer = []byte{1, 2, 3} }),
		"another game":             notice(t, tb.keys[1], p1, []byte("another game"), 1, p2, nil),
		"chained":                  notice(t, tb.keys[1], p1, id, 1, p2, func(e *pb.Entry) { e.Seq = 7 }),
		"with a previous hash":     notice(t, tb.keys[1], p1, id, 1, p2, func(e *pb.Entry) { e.PrevHash = make([]byte, 32) }),
		"private":                  notice(t, tb.keys[1], p1, id, 1, p2, func(e *pb.Entry) { e.Recipient = []byte(tb.ids[0]) }),
		"kind of 41 bytes":         notice(t, tb.keys[1], p1, id, 1, p2, func(e *pb.Entry) { e.GetWaiting().Kind = string(make([]byte, 41)) }),
		"valid for 11 minutes":     notice(t, tb.keys[1], p1, id, 1, p2, func(e *pb.Entry) { e.GetWaiting().ValidMs = 660000 }),
		"for hand 2 (we are in 1)": notice(t, tb.keys[1], p1, id, 2, p2, nil),
		"expired at once":          notice(t, tb.keys[1], p1, id, 1, p2, func(e *pb.Entry) { e.GetWaiting().ValidMs = 0 }),
	}
	for name, b := range bad {
		l := noticeLinks(tb, id)
		l.takeWaiting(p1, b)
		time.Sleep(time.Millisecond) // let a notice valid for 0 ms expire
		if end, via, _ := l.chainEnd(p1, 1, time.Now()); end != p1 || via != nil {
			t.Errorf("%s: a wait for player 1 names %s (via %v), want player 1", name, end, via)
		}
	}
	l := noticeLinks(tb, id)
	l.takeWaiting(p1, notice(t, tb.keys[1], p1, id, 1, p2, nil))
	if end, via, _ := l.chainEnd(p1, 1, time.Now()); end != p2 || len(via) != 1 || via[0] != p1 {
		t.Fatalf("player 1 waits for player 2: the chain ends at %s via %v, want player 2 via player 1", end, via)
	}
	// Player 2 waits for player 3: the end moves on.
	l.takeWaiting(p2, notice(t, tb.keys[2], p2, id, 1, p3, nil))
	if end, _, _ := l.chainEnd(p1, 1, time.Now()); end != p3 {
		t.Errorf("chain 1 → 2 → 3 ends at %s, want player 3", end)
	}
	// Player 3 says it waits for player 1: a loop, which proves nothing.
	l.takeWaiting(p3, notice(t, tb.keys[3], p3, id, 1, p1, nil))
	if end, via, _ := l.chainEnd(p1, 1, time.Now()); end != p1 || via != nil {
		t.Errorf("loop 1 → 2 → 3 → 1 ends at %s via %v, want player 1 (the one waited for)", end, via)
	}
	// Player 3 says it waits for us: also a loop.
	l.takeWaiting(p3, notice(t, tb.keys[3], p3, id, 1, tb.ids[0], nil))
	if end, _, _ := l.chainEnd(p1, 1, time.Now()); end != p1 {
		t.Errorf("chain back to this player ends at %s, want player 1", end)
	}
	// Player 2 no longer waits: the chain ends at player 2.
	l.takeWaiting(p2, notice(t, tb.keys[2], p2, id, 1, "", nil))
	if end, _, _ := l.chainEnd(p1, 1, time.Now()); end != p2 {
		t.Errorf("after player 2's all-clear the chain ends at %s, want player 2", end)
	}
	// A notice holds only as long as it says.
	if end, _, _ := l.chainEnd(p1, 1, time.Now().Add(4*time.Second)); end != p1 {
		t.Errorf("4 s later the 3 s notice still holds: the chain ends at %s", end)
	}
}

// answerToOne is a player that answers a dahai to one peer, to, only
// and then falls silent for good (every envelope dropped, its Waiting
// notices included): it stalls halfway through a broadcast. It picks a
// dahai whose next drawer is neither itself nor to, so that to goes on
// to wait for the next drawer's turn while the next drawer still waits
// for the answer: a chain of waits, to → drawer → this player.
type answerToOne struct {
	Honest
	to      peer.ID
	mu      sync.Mutex
	seats   []peer.ID // seat order, from the Observer
	armed   bool
	seq     uint64
	stopped bool
}

func (m *answerToOne) Observe(o Observation) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.seats == nil && o.Seats != nil {
		m.seats = o.Seats
	}
}

func (m *answerToOne) Act(v *game.Kyoku, s game.Seat, chosen game.Action) (game.Action, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, _, from, kan, ok := v.Offer()
	next := game.Seat((int(from) + 1) % v.Players())
	if ok && !kan && v.Phase() == game.PhaseResponse && chosen.Type == game.Pass && m.seats != nil && next != s && m.seats[next] != m.to {
		m.armed = true
	}
	return chosen, false
}

func (m *answerToOne) Envelope(_ uint32, to peer.ID, env []byte) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	o, err := Open(env)
	if err != nil {
		return nil
	}
	if m.armed && !m.stopped && o.Entry.GetAnswer() != nil {
		m.stopped, m.seq = true, o.Entry.Seq
	}
	if !m.stopped {
		return env
	}
	if o.Entry.GetAnswer() != nil && o.Entry.Seq == m.seq && to == m.to {
		return env
	}
	return nil
}

// TestWaitingNoticeNamesEndOfChain: player V answers a dahai to player P
// only and stalls. P sends its tsumo keys to the next drawer X and waits
// for X's turn, while X still waits for V's answer; P's waits are the
// shortest at the table (1 s, the others' 3 s), so P's wait runs out long
// before anyone else's, and before any Abort naming V could reach it.
// Without X's signed Waiting notices P would name X; with them every
// player names V, in a silence fault, P's Abort carries X's notice, and
// nobody else is named or blamed.
func TestWaitingNoticeNamesEndOfChain(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	v, p := 3, 0
	m := &answerToOne{to: tb.ids[p]}
	out := tb.play(t, 1, func(i int, c *Config) {
		c.NoProofs = true
		c.Timeout, c.TurnTimeout = 3*time.Second, 3*time.Second
		if i == p {
			c.Timeout, c.TurnTimeout = time.Second, time.Second
		}
		if i == v {
			c.Misbehavior, c.Observer = m, m
		}
	})
	if !m.stopped {
		t.Fatal("player V never answered")
	}
	for i, o := range out {
		if i == v {
			continue
		}
		if blamed(o.err) != "" {
			t.Fatalf("player %d blames %s: %v", i, blamed(o.err), o.err)
		}
		if len(o.results) != 1 {
			t.Fatalf("player %d: %d results, %v", i, len(o.results), o.err)
		}
		faults := o.results[0].Faults
		if len(faults) == 0 {
			t.Fatalf("player %d names nobody: %v", i, o.err)
		}
		for _, f := range faults {
			if f.Peer != tb.ids[v] || f.Kind != FaultSilence && f.Kind != FaultAborted {
				t.Errorf("player %d: fault %s of %s (%s), want silence of V %s", i, f.Kind, f.Peer, f.Reason, tb.ids[v])
			}
		}
		var fe *FaultError
		if i == p && (!errors.As(o.err, &fe) || fe.Peer != tb.ids[v] || fe.Kind != FaultSilence || len(fe.Waiting) == 0) {
			t.Errorf("player P's own verdict: %v, want silence of V with the notices that led there", o.err)
		}
	}
}

// FuzzWaitingNotice feeds arbitrary bytes to the pump's handling of
// Waiting notices: it never panics, and a wait for player 1 names player
// 1, or a table peer the bytes' notice names if they carry one signed by
// player 1 (the fuzzer cannot sign one: it always names player 1).
func FuzzWaitingNotice(f *testing.F) {
	tb := newTable(f)
	id := []byte("game id of the fuzz test, 32 b..")
	f.Add(notice(f, tb.keys[1], tb.ids[1], id, 1, tb.ids[2], nil))
	f.Add(notice(f, tb.keys[2], tb.ids[1], id, 1, tb.ids[2], nil))
	f.Add([]byte{0x0a, 0x02, 0xba, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		l := noticeLinks(tb, id)
		if isWaiting(b) {
			l.takeWaiting(tb.ids[1], b)
		}
		end, _, _ := l.chainEnd(tb.ids[1], 1, time.Now())
		if end != tb.ids[1] && end != tb.ids[2] {
			t.Fatalf("chain ends at %s", end)
		}
	})
}

// TestAbortWaitingEvidence checks the notices an Abort carries against
// the Abort (checkChain): a chain 1 → 2 → 3 signed by 1 and 2 checks and
// ends at 3; a notice signed by someone else, a broken link, another
// hand, a non-notice and too many notices are each refused, and the
// Abort's fault then says so instead of presenting them as signed.
func TestAbortWaitingEvidence(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	id := []byte("game id of the test, 32 bytes..")
	ids := tb.ids
	abort := func(waiting ...[]byte) *Opened {
		o, err := Seal(tb.keys[0], &pb.Entry{GameId: id, Hand: 1, Seq: 9, PrevHash: make([]byte, 32), Sender: []byte(ids[0]),
			Body: &pb.Entry_Abort{Abort: &pb.Abort{Reason: "silent", FaultPeer: []byte(ids[3]), FaultKind: string(FaultSilence), Waiting: waiting}}})
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	n12 := notice(t, tb.keys[1], ids[1], id, 1, ids[2], nil)
	n23 := notice(t, tb.keys[2], ids[2], id, 1, ids[3], nil)
	signers, end, err := checkChain(abort(n12, n23), ids)
	if err != nil || end != ids[3] || len(signers) != 2 || signers[0] != ids[1] || signers[1] != ids[2] {
		t.Fatalf("good chain: signers %v end %s err %v", signers, end, err)
	}
	if f := abortError(abort(n12, n23), ids).Fault; f.Peer != ids[3] || f.Kind != FaultSilence || !strings.Contains(f.Reason, "2 signed waiting notices attached") {
		t.Errorf("fault of a good chain: %+v", f)
	}
	bad := map[string][][]byte{
		"forged":       {notice(t, tb.keys[3], ids[1], id, 1, ids[2], nil), n23},
		"broken link":  {n12, notice(t, tb.keys[3], ids[3], id, 1, ids[2], nil)},
		"another hand": {n12, notice(t, tb.keys[2], ids[2], id, 2, ids[3], nil)},
		"another game": {n12, notice(t, tb.keys[2], ids[2], []byte("other"), 1, ids[3], nil)},
		"not a notice": {n12, abort().Envelope},
		"too many":     {n12, n23, n12, n23, n12},
		"garbage":      {[]byte("\xff\x00garbage")},
	}
	for name, w := range bad {
		if _, _, err := checkChain(abort(w...), ids); err == nil {
			t.Errorf("%s: chain accepted", name)
		}
		if f := abortError(abort(w...), ids).Fault; !strings.Contains(f.Reason, "do not check") || f.Kind == FaultKind("blame") {
			t.Errorf("%s: fault %+v does not say the notices fail", name, f)
		}
	}
	// A chain that checks but ends at another player than the one named.
	if f := abortError(abort(n12), ids).Fault; !strings.Contains(f.Reason, "end at another player") {
		t.Errorf("chain ending at player 2 for a fault of player 3: %+v", f)
	}
}
