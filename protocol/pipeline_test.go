package protocol

import (
	"context"
	"time"

	"crypto/rand"
	"errors"
	"fmt"

	"github.com/mentalmj/mentalmj/riichi/game"

	"bytes"
	"slices"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol/pb"
)

// pipelined configures a player for the pipelined setup, the default:
// it undoes a NoPipeline, so that the tests say what they rely on.
func pipelined(_ int, c *Config) { c.NoPipeline = false }

// auditAll audits every transcript of tb offline and returns the audits;
// any that is not clean fails the test.
func auditAll(t *testing.T, tb *table) []*TranscriptAudit {
	t.Helper()
	var out []*TranscriptAudit
	for i, tr := range tb.transcripts {
		recs, err := ReadRecords(bytes.NewReader(tr.Bytes()), "transcript")
		if err != nil {
			t.Fatalf("transcript %d: %v", i, err)
		}
		a := AuditTranscript(recs)
		if !a.OK() || !a.Pipeline {
			t.Fatalf("transcript %d: ok %v, pipeline %v, blame %v, faults %v", i, a.OK(), a.Pipeline, a.Blame, a.Faults)
		}
		out = append(out, a)
	}
	return out
}

// interleaved reports whether the transcript tr holds a shuffle or rekey
// pass of hand n+1 before the last entry of hand n: the next hand's
// passes went with this hand's play.
func interleaved(t *testing.T, tr *bytes.Buffer, n uint32) bool {
	t.Helper()
	recs, err := ReadTranscript(bytes.NewReader(tr.Bytes()), "transcript")
	if err != nil {
		t.Fatal(err)
	}
	last := -1
	for i, o := range recs {
		if o.Entry.Hand == n {
			last = i
		}
	}
	return slices.ContainsFunc(recs[:max(last, 0)], func(o *Opened) bool {
		return o.Entry.Hand == n+1 && (o.Entry.GetShuffle() != nil || o.Entry.GetRekey() != nil)
	})
}

// Four bots play three hands with the pipelined setup: hands 2 and 3 are
// prepared during the hand before, every node finishes with no blame and
// no fault, the nodes agree on every wall, the passes of hand 2 are
// recorded before hand 1 ends, and every transcript audits clean offline
// with the same walls.
func TestPipelinedHandsAuditClean(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := tb.play(t, 3, pipelined)
	for i, o := range out {
		if o.err != nil {
			t.Fatalf("player %d: %v", i, o.err)
		}
		if len(o.results) != 3 {
			t.Fatalf("player %d played %d hands, want 3", i, len(o.results))
		}
		for _, r := range o.results {
			if len(r.Blame) != 0 || len(r.Faults) != 0 || r.Yama == nil {
				t.Fatalf("player %d hand %d: blame %v, faults %v", i, r.Number, r.Blame, r.Faults)
			}
			if !slices.Equal(r.Yama, out[0].results[r.Number-1].Yama) {
				t.Fatalf("player %d hand %d: its wall differs from player 0's", i, r.Number)
			}
		}
	}
	some := false
	for _, tr := range tb.transcripts {
		some = some || interleaved(t, tr, 1) || interleaved(t, tr, 2)
	}
	if !some {
		t.Error("no transcript holds a pass of the next hand before the end of a hand: nothing was pipelined")
	}
	for i, a := range auditAll(t, tb) {
		if len(a.Hands) != 3 || a.Dropped != nil || !a.Hands[1].Proven {
			t.Fatalf("transcript %d: %d hands, dropped %+v", i, len(a.Hands), a.Dropped)
		}
		for h, ha := range a.Hands {
			if !slices.Equal(ha.Yama, out[0].results[h].Yama) {
				t.Errorf("transcript %d hand %d: offline wall differs from the live one", i, h+1)
			}
		}
	}
}

// A cheater whose prepared shuffle pass of hand 2 fails its proof (two
// deck elements swapped after proving) is blamed by every other player,
// during hand 1 or as hand 2 starts, with the signed pass as evidence, and the offline audit
// of an honest transcript blames it too.
func TestPipelinedBadShuffleBlamed(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	const cheater = 2
	out := tb.play(t, 3, func(i int, c *Config) {
		if i != cheater {
			return
		}
		c.Misbehavior = tamper(func(hand uint32, _ peer.ID, e *pb.Entry) {
			if sp := e.GetShuffle(); sp != nil && hand == 2 {
				d := sp.Deck
				tmp := bytes.Clone(d[:32])
				copy(d[:32], d[32:64])
				copy(d[32:64], tmp)
			}
		})
	})
	others := []int{}
	for i := range tb.ids {
		if i != cheater {
			others = append(others, i)
		}
	}
	checkBlame(t, tb, out, cheater, others)
	for _, i := range others {
		var be *BlameError
		if !errors.As(out[i].err, &be) || be.Blame.Hand != 2 || len(be.Blame.Evidence) == 0 || be.Blame.Evidence[0].Kind != "shuffle pass" {
			t.Errorf("player %d: want a blame of hand 2 with the shuffle pass as evidence, got %v", i, out[i].err)
		}
	}
	recs, err := ReadRecords(bytes.NewReader(tb.transcripts[others[0]].Bytes()), "transcript")
	if err != nil {
		t.Fatal(err)
	}
	a := AuditTranscript(recs)
	if len(a.Blame) == 0 || a.Blame[0].Peer != tb.ids[cheater] {
		t.Errorf("offline audit: blame %v, want the cheater %s", a.Blame, tb.ids[cheater])
	}
}

// seatedGame returns a table and player 3's Game with a game id and the
// seats in table order, before any hand: what the handlers of a hand in
// play need, without playing the opening.
func seatedGame(t *testing.T) (*table, *Game) {
	t.Helper()
	tb := newTable(t)
	g, err := NewGame(Config{Table: "test", Identity: tb.keys[3], Peers: tb.ids, Transport: tb.net.Transport(tb.ids[3])})
	if err != nil {
		t.Fatal(err)
	}
	g.gameID = bytes.Repeat([]byte{7}, 32)
	g.seats = slices.Clone(tb.ids)
	return tb, g
}

// takePassTable returns a game of player 3 of tb, seated last, whose hand
// 2 is being prepared during hand 1, and a function that signs an entry
// of hand 2 (or another) as player i.
func takePassTable(t *testing.T) (*table, *Game, func(i int, hand uint32, seq uint64, e *pb.Entry) *Opened) {
	t.Helper()
	tb, g := seatedGame(t)
	g.prepareNext(&hand{num: 1})
	if g.next == nil || g.next.seat != 3 {
		t.Fatal("hand 2 not prepared")
	}
	sign := func(i int, hand uint32, seq uint64, e *pb.Entry) *Opened {
		e.GameId, e.Hand, e.Seq, e.Sender = g.gameID, hand, seq, []byte(tb.ids[i])
		o, err := Seal(tb.keys[i], e)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	return tb, g, sign
}

func shuffleEntry(deck []byte) *pb.Entry {
	return &pb.Entry{Body: &pb.Entry_Shuffle{Shuffle: &pb.ShufflePass{Deck: deck}}}
}

// Bad prepared passes are judged by the rules of the hand in play: a pass
// that comes before its turn is held (one per seat and kind), a second
// one of a kind is a blame, another kind than a pass is a blame (out of
// turn), a pass for a hand other than the next is a fault (unverifiable),
// and a malformed pass in turn is a blame: never a panic, and never more
// than one hand of passes held.
func TestPreparedPassBadInput(t *testing.T) {
	t.Parallel()
	tb, g, sign := takePassTable(t)
	h := g.next
	deck := make([]byte, 136*32)
	rand.Read(deck)
	blamedOn := func(err error, i int, what string) {
		t.Helper()
		if blamed(err) != tb.ids[i] {
			t.Errorf("%s: want a blame on player %d, got %v", what, i, err)
		}
	}
	// Early: seat 1's shuffle before seat 0's is held, not judged.
	if err := h.takePass(sign(1, 2, 10, shuffleEntry(deck))); err != nil {
		t.Fatalf("early shuffle pass of seat 1: %v", err)
	}
	if err := h.takePass(sign(1, 2, 11, &pb.Entry{Body: &pb.Entry_Rekey{Rekey: &pb.RekeyPass{}}})); err != nil {
		t.Fatalf("early rekey pass of seat 1: %v", err)
	}
	// Twice: a second shuffle or rekey pass of seat 1 (a flood).
	blamedOn(h.takePass(sign(1, 2, 12, shuffleEntry(deck))), 1, "second shuffle pass")
	blamedOn(h.takePass(sign(1, 2, 13, &pb.Entry{Body: &pb.Entry_Rekey{Rekey: &pb.RekeyPass{}}})), 1, "second rekey pass")
	held := 0
	for _, o := range h.early {
		if o != nil {
			held++
		}
	}
	if held != 2 {
		t.Errorf("%d passes held, want 2", held)
	}
	// Not a pass: the next hand's nonce commitment during this hand.
	blamedOn(h.takePass(sign(2, 2, 5, &pb.Entry{Body: &pb.Entry_NonceCommit{NonceCommit: &pb.NonceCommit{}}})), 2, "early nonce commitment")
	// Seat 0's pass in turn, its deck cut short: blamed on seat 0, and
	// seat 1's held pass is not judged before it.
	blamedOn(h.takePass(sign(0, 2, 5, shuffleEntry(deck[:100]))), 0, "short deck")
	// Hand 3 during hand 1, and hand 1 during hand 2: faults.
	for _, c := range []struct{ during, hand uint32 }{{1, 3}, {2, 1}} {
		env := sign(1, c.hand, 20, shuffleEntry(deck)).Envelope
		if c.during == 2 {
			g.next = nil
		}
		_, err := g.checkEntry(tb.ids[1], c.during, env)
		var fe *FaultError
		if !errors.As(err, &fe) || fe.Kind != FaultUnverifiable || fe.Peer != tb.ids[1] {
			t.Errorf("a pass of hand %d during hand %d: want an unverifiable-message fault naming player 1, got %v", c.hand, c.during, err)
		}
	}
}

// A node that crashes while the next hand's passes are prepared during
// the hand in play — right after its own prepared pass, or a few records
// later — resumes from its transcript and seed: the
// replay makes its prepared passes again where the transcript holds
// them, the game completes and every transcript audits clean. At least
// one crash point falls inside the overlap (the node's own pass of hand
// 2 recorded, hand 1 not over).
func TestPipelinedCrashResume(t *testing.T) {
	t.Parallel()
	overlap := false
	for _, at := range []int{0, 6} {
		t.Run(fmt.Sprintf("%d records after its first pass of hand 2", at), func(t *testing.T) {
			recs := crashResume(t, crashPlan{at: at, when: firstOwnPassOfHand2, pipeline: true})
			// Inside the overlap: the crashed node had recorded its own
			// prepared pass of hand 2 and hand 1 was not over.
			self, last := recs[0].Sender, recs[len(recs)-1].Entry.Hand
			for _, o := range recs {
				if o.Sender == self && o.Entry.Hand == 2 && last == 1 {
					overlap = true
				}
			}
		})
	}
	if !overlap {
		t.Error("no crash point fell inside the overlap of hand 1's play and hand 2's passes")
	}
}

// The pipelined setup without proofs (the passes are replayed at the end
// of the hand) and with private hands: two hands each, hand 2 prepared
// during hand 1, and every transcript audits clean. (Three players:
// TestPipelinedMatchEnd.)
func TestPipelinedVariants(t *testing.T) {
	t.Parallel()
	for _, v := range []struct {
		name      string
		players   int
		configure func(c *Config)
	}{
		{"no proofs", 4, func(c *Config) { c.NoProofs = true }},
		{"private hands", 4, func(c *Config) { c.PrivateHands = true }},
	} {
		t.Run(v.name, func(t *testing.T) {
			tb := newTableN(t, v.players)
			out := tb.play(t, 2, func(i int, c *Config) { v.configure(c) })
			for i, o := range out {
				if o.err != nil || len(o.results) != 2 {
					t.Fatalf("player %d: %d hands, %v", i, len(o.results), o.err)
				}
			}
			for i, a := range auditAll(t, tb) {
				if len(a.Hands) != 2 || a.Players != v.players {
					t.Fatalf("transcript %d: %d hands of %d players", i, len(a.Hands), a.Players)
				}
			}
		})
	}
}

// Three players who think (10 ms a decision, a stand-in for people) play
// a whole east-only match with the pipelined setup:
//   - when the match ends, the passes prepared for the hand after it are
//     dropped unused: every node finishes without error, and each
//     transcript audits clean, its trailing passes reported as dropped
//     (TranscriptAudit.Dropped) with the hand after the last one played;
//   - the players send their prepared passes while they think: some
//     transcript holds a player's own pass of the next hand recorded right
//     before its own decision, with nothing received in between. (Each
//     prepared pass has a fair chance to be made while its maker thinks;
//     that none of a match's is, by chance, is far below once in a
//     hundred runs.)
func TestPipelinedMatchEnd(t *testing.T) {
	t.Parallel()
	tb := newTableN(t, 3)
	out := tb.play(t, 0, func(_ int, c *Config) {
		c.Tonpuu = true
		// The players think 10 ms a decision, so that the last hand
		// lasts long enough for the next hand's first pass to be made
		// and sent whatever the machine's load (at full bot speed a short
		// last hand may end first, and nothing is prepared to drop).
		c.Player = thinking(10 * time.Millisecond)
	})
	for i, o := range out {
		if o.err != nil {
			t.Fatalf("player %d: %v", i, o.err)
		}
	}
	dropped := 0
	for i, a := range auditAll(t, tb) {
		if !a.Over {
			t.Fatalf("transcript %d: the match is not over after %d hands", i, len(a.Hands))
		}
		if d := a.Dropped; d != nil {
			dropped++
			if d.Hand != len(a.Hands)+1 || d.Passes < 1 || d.Passes > 6 || d.Reason != "the match is over" {
				t.Errorf("transcript %d: dropped %+v after %d hands", i, *d, len(a.Hands))
			}
		}
	}
	if dropped == 0 {
		t.Error("no transcript holds passes prepared for a hand after the match")
	}
	whileThinking := false
	for i, tr := range tb.transcripts {
		recs, err := ReadTranscript(bytes.NewReader(tr.Bytes()), "transcript")
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k < len(recs); k++ {
			prev, o := recs[k-1], recs[k]
			if prev.Sender == tb.ids[i] && o.Sender == tb.ids[i] && prev.Entry.Hand == o.Entry.Hand+1 && (o.Kind() == "turn" || o.Kind() == "answer") {
				whileThinking = true
			}
		}
	}
	if !whileThinking {
		t.Error("no player sent a prepared pass while it was deciding")
	}
}

// thinking returns a Tsumogiri player that takes d over each decision, a
// stand-in for a person.
func thinking(d time.Duration) Player {
	return PlayerFunc(func(ctx context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) {
		select {
		case <-time.After(d):
		case <-ctx.Done():
		}
		return Tsumogiri{}.Act(ctx, v, s)
	})
}

// A connection cut while hand 2's passes are prepared during hand 1's
// play, and restored 300 ms later: the peers send again what was lost,
// prepared passes included (a copy of one already held is dropped), and
// both hands complete with every transcript auditing clean.
func TestPipelinedCutConnectionResumes(t *testing.T) {
	t.Parallel()
	for _, at := range []int{80, 150} {
		t.Run(fmt.Sprint("record ", at), func(t *testing.T) { cutConnection(t, at, true) })
	}
}

// A node whose Hello turns the pipelined setup off at a table that plays
// with it (the default) is named by every other node as a configuration
// mismatch.
func TestPipelineMismatchIsAConfigFault(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := playThree(t, tb, func(ctx context.Context, tr Transport) {
		e := properHello(tb, "test")
		e.GetHello().Pipeline = false
		sendAll(ctx, t, tb, tr, tb.keys[3], e)
	})
	expectFault(t, out, tb.ids[3], FaultConfig, "--no-pipeline must be the same")
}

// A prepared pass whose signed input names a pass of the hand before
// (here seat 1's shuffle pass of hand 1) cannot come from an honest
// player: it is blamed on its sender, with the pass as evidence. An input
// this player does not know stays a fault naming no one (the previous
// player may have signed two passes), as without the pipeline.
func TestPreparedPassOnAnotherInputBlamed(t *testing.T) {
	t.Parallel()
	tb, g, sign := takePassTable(t)
	old := sign(1, 1, 3, shuffleEntry(nil))
	(&hand{g: g, num: 1}).setLastPass(old)
	onOld := shuffleEntry(nil)
	onOld.GetShuffle().Input = old.Hash[:]
	err := g.next.takePass(sign(0, 2, 9, onOld))
	if blamed(err) != tb.ids[0] || !errors.Is(err, errMisplacedInput) {
		t.Errorf("a pass of hand 2 built on a pass of hand 1: want a blame on player 0, got %v", err)
	}
	_, g, sign = takePassTable(t)
	unknown := shuffleEntry(nil)
	unknown.GetShuffle().Input = bytes.Repeat([]byte{9}, 32)
	err = g.next.takePass(sign(0, 2, 9, unknown))
	var fe *FaultError
	if !errors.As(err, &fe) || fe.Kind != FaultDiverged || blamed(err) != "" {
		t.Errorf("a pass built on a pass nobody holds: want a diverged-passes fault, got %v", err)
	}
}

// A peer's Abort from the opening (hand 0, no game id: it gave up before
// it held every Hello) that reaches a node in hand 1 before any hand is
// prepared is returned to the wait, which reads it as that peer's claim
// (openingAbort), with the pipeline on or off: never handed to a prepared
// hand that does not exist. A fresh-clone CI run's lab
// (TestFaultRuns/killed_during_the_hellos) saw the node panic on a nil
// prepared hand there.
func TestOpeningAbortInHandOneBeforeAnyPreparedHand(t *testing.T) {
	t.Parallel()
	tb, g := seatedGame(t)
	if g.next != nil {
		t.Fatal("a hand is prepared before hand 1's kyoku")
	}
	abort, err := Seal(tb.keys[1], &pb.Entry{Sender: []byte(tb.ids[1]), Body: &pb.Entry_Abort{Abort: &pb.Abort{Reason: "no hello from player 2", FaultPeer: []byte(tb.ids[2])}}})
	if err != nil {
		t.Fatal(err)
	}
	o, skip, err := g.arrived(tb.ids[1], 1, abort.Envelope)
	if err != nil || skip || o == nil || o.Entry.GetAbort() == nil {
		t.Fatalf("arrived: entry %v, skip %v, error %v; want the Abort returned to the wait", o, skip, err)
	}
}
