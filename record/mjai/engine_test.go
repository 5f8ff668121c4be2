package mjai

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// driver plays an mjai stream through the rules engine. seat < 0 is the
// full view (every tile known); otherwise the engine sees what seat saw:
// other hands hidden, their tiles revealed at hidden positions as the
// stream shows them.
type driver struct {
	rules   game.Rules
	aka     bool
	seat    int
	k       *game.Kyoku
	used    [wall.NumTiles]bool
	dora    int // dora indicators revealed
	drawn   [4]int
	steps   int // events applied
	skipped int // hora of a hidden hand: not scorable from a seat view
	prev    *Event
	horas   []int // ron winners applied, waiting for the last hora
	accept  []int // reach_accepted before a call, checked after it
}

// id returns a fresh tile id for an mjai name.
func (d *driver) id(name string) (wall.Tile, error) {
	k, red, err := ParseTile(name)
	if err != nil {
		return 0, err
	}
	for t := wall.Tile(4 * k); t < wall.Tile(4*k+4); t++ {
		if d.used[t] || (d.aka && t.IsRed() != red) {
			continue
		}
		d.used[t] = true
		return t, nil
	}
	return 0, fmt.Errorf("no %s left", name)
}

// reveal shows tile name from seat s's hand: a hand position already
// holding that kind (known to the engine), else a hidden one (the drawn
// position when giri, another otherwise). It returns the tile id.
func (d *driver) reveal(s int, name string, giri bool, taken ...wall.Tile) (wall.Tile, error) {
	kind, red, err := ParseTile(name)
	if err != nil {
		return 0, err
	}
	tiles, pos := d.k.Hand(game.Seat(s))
	for i, t := range tiles {
		if t != game.Unknown && t.Kind() == kind && (!d.aka || t.IsRed() == red) && (!giri || pos[i] == d.drawn[s]) && !slices.Contains(taken, t) {
			return t, nil
		}
	}
	for i, t := range tiles {
		if t == game.Unknown && (pos[i] == d.drawn[s]) == giri {
			id, err := d.id(name)
			if err != nil {
				return 0, err
			}
			return id, d.k.Reveal(pos[i], id)
		}
	}
	return 0, fmt.Errorf("seat %d holds no %s (giri %v)", s, name, giri)
}

func (d *driver) passAll() error {
	for d.k.Phase() == game.PhaseResponse {
		aw := d.k.Awaiting()
		if len(aw) == 0 {
			return fmt.Errorf("response phase awaiting nobody")
		}
		if err := d.k.Apply(game.Action{Type: game.Pass, Seat: aw[0]}); err != nil {
			return err
		}
	}
	return nil
}

// passExcept answers the tile on offer with Pass for every awaited seat
// but those in keep.
func (d *driver) passExcept(keep ...int) error {
	for _, s := range d.k.Awaiting() {
		if !slices.Contains(keep, int(s)) {
			if err := d.k.Apply(game.Action{Type: game.Pass, Seat: s}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (d *driver) start(e Event) error {
	d.used = [wall.NumTiles]bool{}
	d.dora = 1
	deal := game.Deal{Round: int(mustKind(e.Bakaze)-27)*4 + e.Kyoku - 1, Honba: e.Honba, Kyotaku: e.Kyotaku, Oya: game.Seat(e.Oya)}
	for s := range 4 {
		deal.Scores[s] = e.Scores[s]
		for _, n := range e.Tehais[s] {
			t := game.Unknown
			if n != Hidden {
				var err error
				if t, err = d.id(n); err != nil {
					return err
				}
			}
			deal.Haipai[s] = append(deal.Haipai[s], t)
		}
	}
	var err error
	if deal.DoraIndicator, err = d.id(e.DoraMarker); err != nil {
		return err
	}
	d.k, err = game.NewKyoku(d.rules, deal)
	return err
}

func mustKind(name string) wall.Kind {
	k, _, _ := ParseTile(name)
	return k
}

// step applies one event; hora/ryukyoku deltas are compared with the
// engine's result when the engine could score them.
func (d *driver) step(e Event, next *Event) error {
	k := d.k
	switch e.Type {
	case StartGame, EndGame, EndKyoku:
		return nil
	case StartKyoku:
		return d.start(e)
	}
	if k == nil {
		return fmt.Errorf("%s before start_kyoku", e.Type)
	}
	d.steps++
	switch e.Type {
	case Tsumo:
		if err := d.passAll(); err != nil {
			return err
		}
		if s, _, _, ok := k.NextDraw(); !ok || int(s) != e.Actor {
			return fmt.Errorf("tsumo by %d, engine draws for %d (ok %v)", e.Actor, s, ok)
		}
		t := game.Unknown
		if e.Pai != Hidden {
			var err error
			if t, err = d.id(e.Pai); err != nil {
				return err
			}
		}
		pos, err := k.Draw(t)
		d.drawn[e.Actor] = pos
		return err
	case Reach:
		return nil // applied with the dahai
	case Dahai:
		t, err := d.reveal(e.Actor, e.Pai, e.Tsumogiri)
		if err != nil {
			return err
		}
		riichi := false
		if prev := d.prev; prev != nil && prev.Type == Reach && prev.Actor == e.Actor {
			riichi = true
		}
		return k.Apply(game.Action{Type: game.Discard, Seat: game.Seat(e.Actor), Tile: t, Riichi: riichi})
	case ReachAccepted:
		if next != nil && (next.Type == Chi || next.Type == Pon || next.Type == Daiminkan) {
			d.accept = append(d.accept, e.Actor) // checked once the call is made
			return nil
		}
		if err := d.passAll(); err != nil {
			return err
		}
		if !k.Riichi(game.Seat(e.Actor)) {
			return fmt.Errorf("reach_accepted for %d, engine has no accepted riichi", e.Actor)
		}
		return nil
	case Chi, Pon, Daiminkan:
		var tiles []wall.Tile
		for _, c := range e.Consumed {
			t, err := d.reveal(e.Actor, c, false, tiles...)
			if err != nil {
				return err
			}
			tiles = append(tiles, t)
		}
		if err := d.passExcept(e.Actor); err != nil {
			return err
		}
		typ := map[string]game.ActionType{Chi: game.Chi, Pon: game.Pon, Daiminkan: game.Daiminkan}[e.Type]
		if err := k.Apply(game.Action{Type: typ, Seat: game.Seat(e.Actor), Tiles: tiles}); err != nil {
			return err
		}
		for _, s := range d.accept {
			if !k.Riichi(game.Seat(s)) {
				return fmt.Errorf("reach_accepted for %d before the call, engine has no accepted riichi", s)
			}
		}
		d.accept = nil
		return nil
	case Kakan:
		t, err := d.reveal(e.Actor, e.Pai, false)
		if err != nil {
			t, err = d.reveal(e.Actor, e.Pai, true)
		}
		if err != nil {
			return err
		}
		return k.Apply(game.Action{Type: game.Kakan, Seat: game.Seat(e.Actor), Tile: t})
	case Ankan:
		var tiles []wall.Tile
		for i, c := range e.Consumed {
			// In riichi the drawn tile must be one of the four: show it first.
			t, err := d.reveal(e.Actor, c, i == 0, tiles...)
			if err != nil {
				t, err = d.reveal(e.Actor, c, i != 0, tiles...)
			}
			if err != nil {
				return err
			}
			tiles = append(tiles, t)
		}
		return k.Apply(game.Action{Type: game.Ankan, Seat: game.Seat(e.Actor), Tiles: tiles})
	case Dora:
		if d.k.Phase() == game.PhaseResponse && next != nil && next.Type == Tsumo {
			if err := d.passAll(); err != nil {
				return err
			}
		}
		pos := wall.FourPlayer.DoraIndicatorIndex(d.dora)
		d.dora++
		t, err := d.id(e.DoraMarker)
		if err != nil {
			return err
		}
		if err := k.Reveal(pos, t); err != nil {
			return err
		}
		return nil
	case Hora:
		for i, m := range e.UraMarkers {
			if k.Tile(wall.FourPlayer.UraIndicatorIndex(i)) != game.Unknown {
				continue // the second hora of a double ron
			}
			t, err := d.id(m)
			if err != nil {
				return err
			}
			if err := k.Reveal(wall.FourPlayer.UraIndicatorIndex(i), t); err != nil {
				return err
			}
		}
		if d.seat >= 0 && e.Actor != d.seat {
			d.skipped++
			d.k = nil // the rest of the kyoku needs the hidden hand
			return nil
		}
		if e.Actor == e.Target {
			if err := k.Apply(game.Action{Type: game.TsumoAgari, Seat: game.Seat(e.Actor)}); err != nil {
				return err
			}
		} else {
			if err := k.Apply(game.Action{Type: game.Ron, Seat: game.Seat(e.Actor)}); err != nil {
				return err
			}
			if next == nil || next.Type != Hora {
				ronners := append([]int{e.Actor}, d.horas...)
				if err := d.passExcept(ronners...); err != nil {
					return err
				}
			} else {
				d.horas = append(d.horas, e.Actor)
				return nil
			}
		}
		d.horas = nil
		res := k.Result()
		if res == nil {
			return fmt.Errorf("hora applied, kyoku not over")
		}
		for _, w := range res.Wins {
			if int(w.Seat) == e.Actor && !slices.Equal(w.Deltas[:], e.Deltas) {
				return fmt.Errorf("hora deltas %v, engine %v", e.Deltas, w.Deltas)
			}
		}
		return nil
	case Nukidora:
		return fmt.Errorf("nukidora in a four-player game")
	case Ryukyoku:
		if k.Phase() == game.PhaseTurn {
			if d.seat >= 0 && int(k.Turn()) != d.seat {
				d.skipped++ // kyuushu kyuuhai of a hidden hand
				d.k = nil
				return nil
			}
			if err := k.Apply(game.Action{Type: game.KyuushuKyuuhai, Seat: k.Turn()}); err != nil {
				return err
			}
		}
		if k.Phase() == game.PhaseResponse {
			// Sanchahou: three seats ron, which the stream does not name.
			var ron []game.Seat
			for _, s := range k.Awaiting() {
				for _, l := range k.LegalActions(s) {
					if l.Type == game.Ron {
						ron = append(ron, s)
						break
					}
				}
			}
			if len(ron) == 3 {
				for _, s := range ron {
					if err := k.Apply(game.Action{Type: game.Ron, Seat: s}); err != nil {
						return err
					}
				}
			}
		}
		if err := d.passAll(); err != nil {
			return err
		}
		if k.Phase() == game.PhaseDraw && d.seat >= 0 {
			d.skipped++ // sanchahou by hidden hands
			d.k = nil
			return nil
		}
		for k.Phase() == game.PhaseDeclare {
			s := k.Awaiting()[0]
			if int(s) != d.seat {
				d.skipped++ // a hidden hand's tenpai is not in the stream
				d.k = nil
				return nil
			}
			a := game.Action{Type: game.Noten, Seat: s}
			for _, l := range k.LegalActions(s) {
				if l.Type == game.Tenpai && int(s) == d.seat {
					a = l
				}
			}
			if err := k.Apply(a); err != nil {
				return err
			}
		}
		res := k.Result()
		if res == nil {
			return fmt.Errorf("ryukyoku, engine phase %v", k.Phase())
		}
		if d.seat < 0 && !slices.Equal(res.Deltas[:], e.Deltas) {
			return fmt.Errorf("ryukyoku deltas %v, engine %v", e.Deltas, res.Deltas)
		}
		return nil
	}
	return fmt.Errorf("unexpected event %s", e.Type)
}

// play runs a whole stream; it returns the events applied and the kyoku
// ends the engine could not check (another seat's hidden win or tenpai).
func play(t *testing.T, name string, g *mjlog.Game, evs []Event, seat int) (int, int) {
	d := &driver{rules: game.TenhouRules(g.Go.Hanchan(), g.Go.Aka(), g.Go.Kuitan()), aka: g.Go.Aka(), seat: seat}
	for i := range evs {
		var next *Event
		if i+1 < len(evs) {
			next = &evs[i+1]
		}
		if d.k == nil && evs[i].Type != StartKyoku && evs[i].Type != StartGame && evs[i].Type != EndGame && evs[i].Type != EndKyoku {
			continue
		}
		if err := d.step(evs[i], next); err != nil {
			t.Errorf("%s seat %d: event %d %s: %v", name, seat, i, evs[i].String(), err)
			d.k = nil
		}
		d.prev = &evs[i]
	}
	return d.steps, d.skipped
}

// TestStreamsReplayThroughEngine converts every four-player log of the corpus to
// mjai and plays the full stream and each seat's view through the rules
// engine: every step must be legal, and every hora and (full view)
// ryukyoku must pay what the stream says.
func TestStreamsReplayThroughEngine(t *testing.T) {
	corpus := tenhoucorpus.For(t)
	files := corpus.MustFiles(t)
	games, steps, skipped := 0, 0, 0
	for _, f := range files {
		g, err := mjlog.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		evs, err := FromMjlog(g)
		if err != nil {
			t.Fatal(err)
		}
		if g.Go.Players() != 4 || g.Go.Type&^0xFF != 0 {
			continue // sanma: the engine is four-player; special lobbies: other scoring
		}
		games++
		name := filepath.Base(f)
		n, _ := play(t, name, g, evs, -1)
		steps += n
		for s := range 4 {
			n, k := play(t, name, g, View(evs, s), s)
			steps, skipped = steps+n, skipped+k
		}
	}
	types, err := corpus.GoTypes()
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, typ := range types {
		if typ&0x10 == 0 && typ&^0xFF == 0 {
			want++
		}
	}
	if games != want || want == 0 {
		t.Errorf("%d four-player games of the standard rules played, %s holds %d (<GO type=> in the raw text)", games, corpus, want)
	}
	t.Logf("%d four-player games, %d events applied (full view and four seat views), %d kyoku ends not checkable from a seat view", games, steps, skipped)
}
