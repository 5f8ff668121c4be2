package bot

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/mentalmj/mentalmj/internal/selfplay"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// privateTable runs a kyoku the way four Mental Mahjong nodes see it: next
// to the referee engine that knows every tile (master), each seat has a
// private view that knows only its own tiles and what has been shown on
// the table. Each bot decides on its own view; every action goes to all
// five engines, the tiles it shows revealed to the views first (as the
// protocol would disclose them).
type privateTable struct {
	master *game.Kyoku
	views  [4]*game.Kyoku
	yama   []wall.Tile
}

// newPrivateTable builds the four views of the kyoku master dealt from d
// (the match state before Start) and yama.
func newPrivateTable(master *game.Kyoku, d game.Deal, rules game.Rules, yama []wall.Tile) (*privateTable, error) {
	pt := &privateTable{master: master, yama: yama}
	for v := game.Seat(0); v < 4; v++ {
		dv := d
		for s := game.Seat(0); s < 4; s++ {
			dv.Haipai[s] = make([]wall.Tile, wall.HaipaiSize)
			for n, pos := range wall.FourPlayer.Haipai(d.Oya.Relative(s)) {
				dv.Haipai[s][n] = game.Unknown
				if s == v {
					dv.Haipai[s][n] = yama[pos]
				}
			}
		}
		dv.DoraIndicator = yama[wall.FourPlayer.DoraIndicatorIndex(0)]
		k, err := game.NewKyoku(rules, dv)
		if err != nil {
			return nil, fmt.Errorf("view of seat %d: %w", v, err)
		}
		pt.views[v] = k
	}
	return pt, nil
}

// reveal discloses yama positions to every view.
func (pt *privateTable) reveal(pos ...int) error {
	for _, v := range pt.views {
		for _, p := range pos {
			if err := v.Reveal(p, pt.yama[p]); err != nil {
				return err
			}
		}
	}
	return nil
}

// posOf returns the yama positions of tiles in seat s's concealed hand
// (read from the master).
func (pt *privateTable) posOf(s game.Seat, tiles ...wall.Tile) []int {
	hand, pos := pt.master.Hand(s)
	var out []int
	for _, t := range tiles {
		if i := slices.Index(hand, t); i >= 0 {
			out = append(out, pos[i])
		}
	}
	return out
}

// show reveals to the views the tiles action a will show: the discarded,
// called or kan tiles, and for a win or kyuushu kyuuhai the whole hand
// (with the ura-dora indicators, needed to pay a riichi win).
func (pt *privateTable) show(a game.Action) error {
	switch a.Type {
	case game.Discard, game.Kakan:
		return pt.reveal(pt.posOf(a.Seat, a.Tile)...)
	case game.Chi, game.Pon, game.Daiminkan, game.Ankan:
		return pt.reveal(pt.posOf(a.Seat, a.Tiles...)...)
	case game.TsumoAgari, game.Ron, game.KyuushuKyuuhai, game.Tenpai:
		_, pos := pt.master.Hand(a.Seat)
		_, ura := pt.master.DoraPositions()
		return pt.reveal(append(pos, ura...)...)
	}
	return nil
}

// showDora reveals the dora indicators turned so far.
func (pt *privateTable) showDora() error {
	dora, _ := pt.master.DoraPositions()
	return pt.reveal(dora...)
}

// apply sends a to the master and every view (tiles shown first).
func (pt *privateTable) apply(a game.Action) error {
	if err := pt.show(a); err != nil {
		return err
	}
	if err := pt.master.Apply(a); err != nil {
		return fmt.Errorf("master: %v: %w", a, err)
	}
	for v, k := range pt.views {
		if err := k.Apply(a); err != nil {
			return fmt.Errorf("view of seat %d: %v: %w", v, a, err)
		}
	}
	return pt.showDora()
}

// respond collects every seat's answer to the tile on offer, each bot on
// its own view (a seat its own view does not await passes implicitly),
// and hands them to each engine that awaits them. The master may have
// settled the offer already (it awaits nobody when no seat has an option)
// while the views still await the seats they cannot see.
func (pt *privateTable) respond(bots [4]*Bot, tl *tally) error {
	_, _, from, _, _ := pt.views[0].Offer()
	var ans [4]game.Action
	for i := 1; i < 4; i++ {
		s := from.Next(i)
		ans[s] = game.Action{Type: game.Pass, Seat: s}
		own := slices.Contains(pt.views[s].Awaiting(), s)
		if own != slices.Contains(pt.master.Awaiting(), s) {
			return fmt.Errorf("seat %d awaited %v by its view, %v by the master", s, own, !own)
		}
		if own {
			a, err := bots[s].Choose(pt.views[s], s)
			if err != nil {
				return fmt.Errorf("seat %d: %w", s, err)
			}
			ans[s] = a
			tl.decisions++
		}
	}
	for i := 1; i < 4; i++ {
		if err := pt.show(ans[from.Next(i)]); err != nil {
			return err
		}
	}
	for e, k := range append([]*game.Kyoku{pt.master}, pt.views[:]...) {
		for _, s := range k.Awaiting() {
			if err := k.Apply(ans[s]); err != nil {
				return fmt.Errorf("engine %d (0 master, v+1 view of seat v): %v: %w", e, ans[s], err)
			}
		}
	}
	return pt.showDora()
}

// playPrivate plays the kyoku master (every tile known) with each bot
// deciding on its own private view, and checks that the views end with the
// master's result and that every deferred check (riichi tenpai, noten
// claims) passes once all tiles are revealed.
func playPrivate(master *game.Kyoku, d game.Deal, rules game.Rules, yama []wall.Tile, bots [4]*Bot, tl *tally) error {
	pt, err := newPrivateTable(master, d, rules, yama)
	if err != nil {
		return err
	}
	for step := 0; master.Phase() != game.PhaseEnd || pt.views[0].Phase() == game.PhaseResponse; step++ {
		if step == selfplay.MaxSteps {
			return fmt.Errorf("kyoku did not end after %d steps (phase %s)", selfplay.MaxSteps, master.Phase())
		}
		switch {
		case pt.views[0].Phase() == game.PhaseResponse:
			if err := pt.respond(bots, tl); err != nil {
				return err
			}
			continue
		}
		switch master.Phase() {
		case game.PhaseDraw:
			s, pos, _, _ := master.NextDraw()
			if _, err := master.Draw(yama[pos]); err != nil {
				return err
			}
			for v, k := range pt.views {
				t := game.Unknown
				if game.Seat(v) == s {
					t = yama[pos]
				}
				if got, err := k.Draw(t); err != nil || got != pos {
					return fmt.Errorf("view of seat %d drew yama[%d] (%v), master yama[%d]", v, got, err, pos)
				}
			}
		case game.PhaseTurn:
			s := master.Turn()
			a, err := bots[s].Choose(pt.views[s], s)
			if err != nil {
				return fmt.Errorf("seat %d: %w", s, err)
			}
			tl.decisions++
			if err := pt.apply(a); err != nil {
				return err
			}
		default:
			return fmt.Errorf("master in phase %s", master.Phase())
		}
	}
	// At an exhaustive draw the views ask the seats they cannot see to
	// declare: the seat shows its hand and its bot declares.
	for v, k := range pt.views {
		for k.Phase() == game.PhaseDeclare {
			s := k.Awaiting()[0]
			_, pos := master.Hand(s)
			for _, p := range pos {
				if err := k.Reveal(p, yama[p]); err != nil {
					return err
				}
			}
			a, err := bots[s].Choose(k, s)
			if err != nil {
				return fmt.Errorf("view of seat %d: declaration of seat %d: %w", v, s, err)
			}
			if err := k.Apply(a); err != nil {
				return fmt.Errorf("view of seat %d: %v: %w", v, a, err)
			}
		}
		if !reflect.DeepEqual(k.Result(), master.Result()) {
			return fmt.Errorf("view of seat %d ends with %+v, master with %+v", v, k.Result(), master.Result())
		}
		for p, t := range yama {
			if err := k.Reveal(p, t); err != nil {
				return err
			}
		}
		if err := k.Recheck(); err != nil || k.PendingChecks() != 0 {
			return fmt.Errorf("view of seat %d: deferred checks: %v (%d pending)", v, err, k.PendingChecks())
		}
	}
	return nil
}

// TestSelfPlayPrivateViews plays hanchan with every bot deciding on its
// own seat's private view (others' tiles hidden, shown only as the table
// shows them) and checks, against the engine that knows every tile, that
// every action is legal, that the five engines agree on each result, and
// that the games are exactly those played with every tile visible: the
// bot never reads another seat's concealed tiles.
func TestSelfPlayPrivateViews(t *testing.T) {
	n := 12
	if testing.Short() {
		n = 2
	}
	open, err := selfPlay(n, 101, false)
	if err != nil {
		t.Fatal(err)
	}
	private, err := selfPlay(n, 101, true)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(open.log, private.log) {
		for i := range min(len(open.log), len(private.log)) {
			if open.log[i] != private.log[i] {
				t.Fatalf("kyoku %d: all tiles visible %q, private views %q", i, open.log[i], private.log[i])
			}
		}
		t.Fatalf("%d kyoku with all tiles visible, %d with private views", len(open.log), len(private.log))
	}
	t.Logf("private views, %d hanchan:\n%s", n, private)
}
