package spectator

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/internal/watchfixture"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/ui/screen"
)

// checkBacks fails unless every seat in play shows exactly its concealed
// count of tiles, all backs (-1), and no seat is the viewer's.
func checkBacks(t *testing.T, s screen.Snapshot, when string) {
	t.Helper()
	for q := range s.Players {
		sv := s.Seats[q]
		if sv.Self || len(sv.Hand) != sv.Concealed || sv.Concealed == 0 {
			t.Fatalf("%s: seat %d self=%v, %d tiles drawn for %d concealed", when, q, sv.Self, len(sv.Hand), sv.Concealed)
		}
		for _, x := range sv.Hand {
			if x != -1 {
				t.Fatalf("%s: seat %d's concealed tile %d is shown to a spectator before the reveal", when, q, x)
			}
		}
	}
}

// checkFaces fails unless every seat in play shows its whole concealed
// hand face up.
func checkFaces(t *testing.T, s screen.Snapshot, when string) {
	t.Helper()
	for q := range s.Players {
		sv := s.Seats[q]
		if len(sv.Hand) != sv.Concealed || sv.Concealed == 0 {
			t.Fatalf("%s: seat %d: %d tiles drawn for %d concealed", when, q, len(sv.Hand), sv.Concealed)
		}
		for _, x := range sv.Hand {
			if x < 0 {
				t.Fatalf("%s: seat %d's hand %v still has backs after the reveal", when, q, sv.Hand)
			}
		}
	}
}

// watch plays hands hands of n players and feeds the host's public
// entries to a Table; at every entry during play it checks that each
// seat's concealed hand shows as backs only, and after each hand's audit
// that every hand is face up and the end-of-hand screen carries a clean
// audit.
func watch(t *testing.T, n, hands int) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	g, err := watchfixture.Play(ctx, n, hands)
	if err != nil {
		t.Fatal(err)
	}
	tb := New(nil)
	f := watchfixture.NewFeeder(g, tb)
	played, audited := 0, 0
	shown := false // the hand in play has shown a hand (a win, a kyuushu, a tenpai declaration)
	for !f.Done() {
		e := g.Entries[f.Fed()].Entry
		if e.GetNonceCommit() != nil {
			shown = false
		}
		if k := e.GetTurn().GetKind(); e.GetCall().GetKind() == pb.AnswerKind_ANSWER_RON && e.GetCall() != nil || e.GetDeclare() != nil || k == pb.TurnKind_TURN_TSUMO || k == pb.TurnKind_TURN_KYUUSHU {
			shown = true
		}
		hand, err := f.Step()
		if err != nil {
			t.Fatal(err)
		}
		s := tb.Model().Snapshot()
		if !s.Spectator || s.Decision != nil || s.MyHand != nil {
			t.Fatalf("a spectator's snapshot: spectator=%v decision=%v my hand %v", s.Spectator, s.Decision, s.MyHand)
		}
		if hand > 0 {
			audited++
			checkFaces(t, s, "after the reveal")
			last := s.Hands[len(s.Hands)-1]
			if last.Number != hand || !last.AuditOK {
				t.Fatalf("hand %d's end-of-hand screen: %+v", hand, last)
			}
			continue
		}
		if s.State == screen.StatePlaying && s.Players == n && !shown {
			played++
			checkBacks(t, s, fmt.Sprintf("during play (after entry %d, a %s)", f.Fed()-1, g.Entries[f.Fed()-1].Kind()))
		}
	}
	if audited != hands || played < 20*hands {
		t.Fatalf("%d hands audited, %d states of play checked", audited, played)
	}
	if errs := tb.Errors(); len(errs) > 0 {
		t.Fatalf("entries not followed: %v", errs)
	}
}

// TestSpectatorTable watches two hands of four players.
func TestSpectatorTable(t *testing.T) {
	t.Parallel()
	watch(t, protocol.Players, 2)
}

// TestSpectatorTableSanma watches a hand of three players (seat 3 stays
// out of play).
func TestSpectatorTableSanma(t *testing.T) {
	t.Parallel()
	watch(t, 3, 1)
}

// TestSpectatorTableJoinsLate feeds what a spectator that joined during
// hand 2 gets (the Hellos, hand 1's nonces, hands 2 and 3): the table
// shows hand 2 from its deal with the scores, round and honba hand 1 left
// (the full game's audit), backs only during play, and audits hands 2
// and 3 clean.
func TestSpectatorTableJoinsLate(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	g, err := watchfixture.Play(ctx, protocol.Players, 3)
	if err != nil {
		t.Fatal(err)
	}
	var all []protocol.Record
	for _, o := range g.Entries {
		all = append(all, protocol.Record{Index: len(all) + 1, Envelope: o.Envelope})
	}
	full := protocol.AuditTranscript(all)
	if !full.OK() || len(full.Hands) != 3 {
		t.Fatalf("the full game: %d hands, blame %v, faults %v", len(full.Hands), full.Blame, full.Faults)
	}
	tb := New(nil)
	f := watchfixture.NewFeeder(g.Late(2), tb)
	var audited []int
	checkedDeal := false
	for !f.Done() {
		hand, err := f.Step()
		if err != nil {
			t.Fatal(err)
		}
		s := tb.Model().Snapshot()
		if hand > 0 {
			audited = append(audited, hand)
			checkFaces(t, s, "after the reveal")
			if last := s.Hands[len(s.Hands)-1]; !last.AuditOK {
				t.Errorf("hand %d: %s", hand, last.Audit)
			}
			continue
		}
		if s.State == screen.StatePlaying && s.Hand == 2 && !checkedDeal {
			checkedDeal = true
			want := full.Hands[1].Deal
			for q := range 4 {
				if s.Seats[q].Score != want.Scores[q] {
					t.Errorf("seat %d shows %d points, hand 2 starts from %d", q, s.Seats[q].Score, want.Scores[q])
				}
			}
			if s.Honba != want.Honba || s.Round == "" {
				t.Errorf("hand 2 shows round %q honba %d, starts from honba %d", s.Round, s.Honba, want.Honba)
			}
			checkBacks(t, s, "hand 2's deal")
		}
	}
	if !checkedDeal || len(audited) != 2 || audited[0] != 2 || audited[1] != 3 {
		t.Fatalf("hand 2 shown %v; hands audited %v, want [2 3]", checkedDeal, audited)
	}
}

// TestSpectatorTablePrivateHands watches two hands of a private-hands
// table: the spectator sees only what the rules reveal, as the players
// do. Every concealed hand is backs during play, every entry is
// followed, and after each reveal the audit is clean with the wall
// partly shown.
func TestSpectatorTablePrivateHands(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	g, err := watchfixture.Play(ctx, protocol.Players, 2, func(c *protocol.Config) { c.PrivateHands = true })
	if err != nil {
		t.Fatal(err)
	}
	tb := New(nil)
	f := watchfixture.NewFeeder(g, tb)
	audited := 0
	shown := false
	for !f.Done() {
		e := g.Entries[f.Fed()].Entry
		if e.GetNonceCommit() != nil {
			shown = false
		}
		if k := e.GetTurn().GetKind(); e.GetCall().GetKind() == pb.AnswerKind_ANSWER_RON && e.GetCall() != nil || e.GetDeclare() != nil || k == pb.TurnKind_TURN_TSUMO || k == pb.TurnKind_TURN_KYUUSHU {
			shown = true
		}
		hand, err := f.Step()
		if err != nil {
			t.Fatal(err)
		}
		s := tb.Model().Snapshot()
		if hand > 0 {
			audited++
			last := s.Hands[len(s.Hands)-1]
			if !last.AuditOK || !strings.Contains(last.Audit, "partly revealed") {
				t.Fatalf("hand %d: %s", hand, last.Audit)
			}
			continue
		}
		if s.State == screen.StatePlaying && !shown {
			checkBacks(t, s, "during play")
		}
	}
	if audited != 2 || len(tb.Errors()) > 0 {
		t.Fatalf("%d hands audited; entries not followed: %v", audited, tb.Errors())
	}
}
