package protocol

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/player/bot"

	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// cheat makes player i a cheater whose Player is act (its own legality
// check is off), all others playing Tsumogiri.
func cheat(i int, act PlayerFunc) func(int, *Config) {
	return func(j int, c *Config) {
		if j == i {
			c.Player = act
			c.Misbehavior = unchecked{}
		}
	}
}

// expectBlameOf asserts that every honest player's game ended with a
// blame of the cheater whose reason contains want.
func expectBlameOf(t *testing.T, tb *table, out []outcome, cheater int, want string) {
	t.Helper()
	for i, o := range out {
		if i == cheater {
			continue
		}
		if b := blamed(o.err); b != tb.ids[cheater] {
			t.Errorf("player %d: %v, want blame of the cheater %s", i, o.err, tb.ids[cheater])
			continue
		}
		if !strings.Contains(o.err.Error(), want) {
			t.Errorf("player %d blames for %q, want %q", i, o.err, want)
		}
	}
}

func TestFalseTsumoBlamed(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	turns := 0
	out := tb.play(t, 1, cheat(2, func(ctx context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) {
		if v.Phase() == game.PhaseTurn {
			if turns++; turns == 3 {
				return game.Action{Type: game.TsumoAgari, Seat: s}, nil
			}
		}
		return Tsumogiri{}.Act(ctx, v, s)
	}))
	expectBlameOf(t, tb, out, 2, "tsumo")
}

func TestFalseTenpaiBlamed(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := tb.play(t, 1, cheat(1, func(ctx context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) {
		if v.Phase() == game.PhaseDeclare {
			return game.Action{Type: game.Tenpai, Seat: s}, nil
		}
		return Tsumogiri{}.Act(ctx, v, s)
	}))
	expectBlameOf(t, tb, out, 1, "tenpai")
}

// caller calls chi or pon whenever it may, else plays Tsumogiri.
func caller(ctx context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) {
	for _, a := range v.LegalActions(s) {
		if a.Type == game.Pon || a.Type == game.Chi {
			return a, nil
		}
	}
	return Tsumogiri{}.Act(ctx, v, s)
}

func TestCallShowingATileNotHeldBlamed(t *testing.T) {
	t.Parallel()
	const cheater = 3
	// A hand may offer the cheater no chi or pon: then it cannot cheat,
	// and the hand ends clean; a few more tables give it the chance.
	for attempt := 0; attempt < 5; attempt++ {
		tb := newTable(t)
		called := false
		out := tb.play(t, 1, func(i int, c *Config) {
			if i != cheater {
				return
			}
			c.Player = PlayerFunc(caller)
			c.Misbehavior = tamper(func(hand uint32, to peer.ID, e *pb.Entry) {
				if call := e.GetCall(); call != nil {
					called = true
					call.Shown.Tiles[0] = (call.Shown.Tiles[0] + 4) % 136 // a tile of another kind
				}
			})
		})
		if called {
			expectBlameOf(t, tb, out, cheater, "claims")
			return
		}
	}
	t.Fatal("in 5 hands the cheater never made a call")
}

func TestCallWithTilesThatDoNotFitBlamed(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	const cheater = 0
	out := tb.play(t, 1, cheat(cheater, func(ctx context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) {
		if v.Phase() == game.PhaseResponse {
			// Pon the tile on offer with two tiles of the hand that are
			// not of its kind.
			offer, _, _, _, _ := v.Offer()
			hand, _ := v.Hand(s)
			var two []game.Action
			for _, t := range hand {
				if t.Kind() != offer.Kind() && len(two) < 2 {
					two = append(two, game.Action{Tile: t})
				}
			}
			return game.Action{Type: game.Pon, Seat: s, Tiles: []wall.Tile{two[0].Tile, two[1].Tile}}, nil
		}
		return Tsumogiri{}.Act(ctx, v, s)
	}))
	expectBlameOf(t, tb, out, cheater, "pon")
}

// riichiCheater discards the drawn tile, declaring riichi on its first
// discard (a hand that is not tenpai), passes on every tile on offer and
// keeps its hand hidden at an exhaustive draw. Its own view offers nothing
// legal once its riichi stands, so it acts on its own.
func riichiCheater() PlayerFunc {
	declared := false
	return func(_ context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) {
		switch v.Phase() {
		case game.PhaseTurn:
			hand, _ := v.Hand(s)
			a := game.Action{Type: game.Discard, Seat: s, Tile: hand[len(hand)-1], Riichi: !declared}
			declared = true
			return a, nil
		case game.PhaseResponse:
			return game.Action{Type: game.Pass, Seat: s}, nil
		}
		return game.Action{Type: game.Noten, Seat: s}, nil
	}
}

func TestIllegalRiichiBlamedAtTheExhaustiveDraw(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	const cheater = 1
	out := tb.play(t, 1, cheat(cheater, riichiCheater()))
	expectBlameOf(t, tb, out, cheater, "riichi")
}

// With bots at the table someone usually wins before the exhaustive draw,
// so the cheater never has to show its riichi hand during the hand: the
// end-of-hand audit reveals the wall and the engine's deferred check names
// it. (If the hand does reach the exhaustive draw, the riichi player must
// declare tenpai and is caught there.)
func TestIllegalRiichiBlamedByTheAuditAfterAWin(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	const cheater = 2
	out := tb.play(t, 1, func(i int, c *Config) {
		if i != cheater {
			b := bot.New(uint64(i + 1))
			c.Player = PlayerFunc(func(_ context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) { return b.Choose(v, s) })
			return
		}
		cheat(cheater, riichiCheater())(i, c)
	})
	expectBlameOf(t, tb, out, cheater, "riichi")
	if strings.Contains(out[0].err.Error(), "not tenpai") {
		t.Log("caught by the end-of-hand audit:", out[0].err)
	} else {
		t.Log("caught at the exhaustive draw:", out[0].err)
	}
}

// A player that does not decide in time is acted for by its own node —
// it passes, discards the drawn tile or declares — and every transcript
// names it; the game goes on.
func TestSlowPlayerActedForAndNamed(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	const slow = 1
	out := tb.play(t, 1, func(i int, c *Config) {
		if i != slow {
			return
		}
		c.DecisionTimeout = 20 * time.Millisecond
		c.Player = PlayerFunc(func(ctx context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) {
			if v.Phase() == game.PhaseResponse {
				<-ctx.Done() // never answers a tile on offer
				return game.Action{}, ctx.Err()
			}
			return Tsumogiri{}.Act(ctx, v, s)
		})
	})
	for i, o := range out {
		if o.err != nil {
			t.Fatalf("player %d: %v", i, o.err)
		}
		named := o.results[0].TimedOut
		if len(named) == 0 || slices.ContainsFunc(named, func(p peer.ID) bool { return p != tb.ids[slow] }) {
			t.Errorf("player %d: timed-out players %v, want only %s", i, named, tb.ids[slow])
		}
	}
	recs, err := ReadRecords(bytes.NewReader(tb.transcripts[0].Bytes()), "transcript")
	if err != nil {
		t.Fatal(err)
	}
	a := AuditTranscript(recs)
	if !a.OK() || len(a.Hands[0].TimedOut) != len(out[0].results[0].TimedOut) {
		t.Errorf("offline audit: ok %v, timed out %d times, want %d", a.OK(), len(a.Hands[0].TimedOut), len(out[0].results[0].TimedOut))
	}
}
