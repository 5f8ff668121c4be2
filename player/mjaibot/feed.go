package mjaibot

import (
	"slices"

	"github.com/mentalmj/mentalmj/record/mjai"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// feed turns successive private views of one seat into mjai events. It
// sees only what the view shows: the seat's own tiles, and every other
// seat's tiles only once shown (discards, calls, wins), so the events can
// carry nothing the mental protocol keeps secret.
type feed struct {
	seat      game.Seat
	reds      wall.Reds // the table's red fives (named 5mr, 5pr, 5sr)
	started   bool      // start_game sent
	inKyoku   bool
	river     [4]int
	melds     [4][]game.Meld
	nuki      [4]int // kita (nukidora) sent per seat (sanma)
	dora      int
	riichi    [4]bool
	live, rin int
	hand      []int     // own concealed positions
	sentReach bool      // the bot's own reach was already echoed to it
	drawn     wall.Tile // own tile just drawn, Unknown after a dahai or call
}

func newFeed(seat game.Seat, reds wall.Reds) *feed {
	return &feed{seat: seat, reds: reds, drawn: game.Unknown}
}

func (f *feed) tile(t wall.Tile) string { return mjai.Tile(t, f.reds) }

func (f *feed) tiles(ts []wall.Tile) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = f.tile(t)
	}
	return out
}

// update returns the events that lead from the last view to v.
func (f *feed) update(v *game.Kyoku) []mjai.Event {
	var out []mjai.Event
	if !f.inKyoku && f.started && v.Result() != nil {
		return nil // the ended kyoku shown again (its key reveal)
	}
	if !f.started {
		f.started = true
		out = append(out, mjai.Event{Type: mjai.StartGame, ID: int(f.seat), Names: []string{"", "", "", ""}})
	}
	live, rin := v.Draws()
	if f.inKyoku && live+rin < f.live+f.rin {
		// A new kyoku although the last one showed no end (an aborted
		// hand): close it.
		out = append(out, mjai.Event{Type: mjai.EndKyoku})
		f.inKyoku = false
	}
	if !f.inKyoku {
		out = append(out, f.start(v))
	}
	// Riichi deposits accepted (before a call on the declaration discard).
	for s := range game.Seat(4) {
		if v.Riichi(s) && !f.riichi[s] {
			f.riichi[s] = true
			out = append(out, mjai.Event{Type: mjai.ReachAccepted, Actor: int(s)})
		}
	}
	// Calls and kans, then the kan-dora they turn.
	for s := range game.Seat(4) {
		ms := v.Melds(s)
		for i, m := range ms {
			if i < len(f.melds[s]) {
				if prev := f.melds[s][i]; prev.Type == riichi.Pon && m.Type == riichi.Kakan {
					out = append(out, f.kakan(s, prev, m))
				}
				continue
			}
			out = append(out, f.call(s, m))
			if s == f.seat {
				f.drawn = game.Unknown
			}
		}
		f.melds[s] = ms
	}
	// Kita (sanma): before the replacement tsumo it brings.
	for s := range game.Seat(4) {
		nd := v.Nukidora(s)
		for _, t := range nd[min(f.nuki[s], len(nd)):] {
			out = append(out, mjai.Event{Type: mjai.Nukidora, Actor: int(s), Pai: f.tile(t)})
			if s == f.seat {
				f.drawn = game.Unknown
			}
		}
		f.nuki[s] = len(nd)
	}
	inds := v.DoraIndicators()
	for f.dora < len(inds) && inds[f.dora] != game.Unknown {
		out = append(out, mjai.Event{Type: mjai.Dora, DoraMarker: f.tile(inds[f.dora])})
		f.dora++
	}
	// Draws: the seat on turn drew them.
	if n := live + rin - f.live - f.rin; n > 0 {
		drawer := v.Turn()
		for range n {
			e := mjai.Event{Type: mjai.Tsumo, Actor: int(drawer), Pai: mjai.Hidden}
			if drawer == f.seat {
				f.drawn = f.newTile(v)
				e.Pai = f.tile(f.drawn)
			}
			out = append(out, e)
		}
	}
	f.live, f.rin = live, rin
	// Discards.
	for s := range game.Seat(4) {
		r := v.River(s)
		for _, rt := range r[min(f.river[s], len(r)):] {
			if rt.Riichi {
				if s != f.seat || !f.sentReach {
					out = append(out, mjai.Event{Type: mjai.Reach, Actor: int(s)})
				}
				if s == f.seat {
					f.sentReach = false
				}
			}
			out = append(out, mjai.Event{Type: mjai.Dahai, Actor: int(s), Pai: f.tile(rt.Tile), Tsumogiri: rt.Tsumogiri})
			if s == f.seat {
				f.drawn = game.Unknown
			}
		}
		f.river[s] = len(r)
	}
	_, f.hand = v.Hand(f.seat)
	if res := v.Result(); res != nil {
		out = append(out, f.result(res)...)
		out = append(out, mjai.Event{Type: mjai.EndKyoku})
		f.inKyoku = false
	}
	return out
}

// newTile returns the own tile at a hand position the last view did not
// have (the drawn tile).
func (f *feed) newTile(v *game.Kyoku) wall.Tile {
	tiles, pos := v.Hand(f.seat)
	for i, p := range pos {
		if !slices.Contains(f.hand, p) {
			return tiles[i]
		}
	}
	return game.Unknown
}

func (f *feed) start(v *game.Kyoku) mjai.Event {
	f.inKyoku = true
	f.river, f.melds, f.riichi, f.dora, f.nuki = [4]int{}, [4][]game.Meld{}, [4]bool{}, 1, [4]int{}
	f.live, f.rin = v.Draws()
	f.sentReach = false
	round := v.Round()
	sc := v.Scores()
	e := mjai.Event{Type: mjai.StartKyoku, Bakaze: mjai.KindName(wall.Kind(27 + (round/4)%4)), Kyoku: round%4 + 1,
		Honba: v.Honba(), Kyotaku: v.Kyotaku(), Oya: int(v.Oya()), Scores: sc[:], Tehais: make([][]string, 4)}
	if inds := v.DoraIndicators(); len(inds) > 0 {
		e.DoraMarker = f.tile(inds[0])
	}
	for s := range game.Seat(4) {
		tiles, pos := v.Hand(s)
		e.Tehais[s] = f.tiles(tiles)
		if int(s) >= v.Players() {
			e.Tehais[s] = mjai.SanmaTehai() // the empty seat, as Mortal's sanma forks expect
		}
		if s == f.seat {
			f.hand = pos
		}
	}
	return e
}

func (f *feed) call(s game.Seat, m game.Meld) mjai.Event {
	switch m.Type {
	case riichi.Ankan:
		return mjai.Event{Type: mjai.Ankan, Actor: int(s), Consumed: f.tiles(m.Tiles)}
	}
	rest := slices.Clone(m.Tiles)
	if i := slices.Index(rest, m.Called); i >= 0 {
		rest = slices.Delete(rest, i, i+1)
	}
	return mjai.Event{Type: m.Type.String(), Actor: int(s), Target: int(m.FromSeat), Pai: f.tile(m.Called), Consumed: f.tiles(rest)}
}

func (f *feed) kakan(s game.Seat, pon, kan game.Meld) mjai.Event {
	added := game.Unknown
	for _, t := range kan.Tiles {
		if !slices.Contains(pon.Tiles, t) {
			added = t
		}
	}
	return mjai.Event{Type: mjai.Kakan, Actor: int(s), Pai: f.tile(added), Consumed: f.tiles(pon.Tiles)}
}

func (f *feed) result(res *game.Result) []mjai.Event {
	if res.End != game.EndAgari {
		return []mjai.Event{{Type: mjai.Ryukyoku, Deltas: res.Deltas[:]}}
	}
	var out []mjai.Event
	for _, w := range res.Wins {
		e := mjai.Event{Type: mjai.Hora, Actor: int(w.Seat), Target: int(w.From), Deltas: w.Deltas[:]}
		if w.UraIndicators != nil {
			e.UraMarkers = f.tiles(w.UraIndicators)
		}
		out = append(out, e)
	}
	return out
}
