package mjai

import (
	"fmt"
	"slices"

	"github.com/mentalmj/mentalmj/mjlog"
	"github.com/mentalmj/mentalmj/wall"
)

// FromMjlog returns the whole game g as mjai events, every tile shown:
// start_game (no id), then per kyoku start_kyoku, the play in the mjlog's
// order, hora or ryukyoku, end_kyoku; end_game last. Three-player games
// keep four seats (the fourth with 0 points and no tiles) and write kita
// as nukidora. It returns an error naming g.File and the kyoku for what
// cannot be converted: a kyoku without a result, malformed sc=, a call
// whose tiles do not fit its type.
func FromMjlog(g *mjlog.Game) ([]Event, error) {
	aka := g.Go.Aka()
	n := g.Go.Players()
	names := make([]string, 4)
	for s := range 4 {
		if s < len(g.Players) {
			names[s] = g.Players[s].Name
		}
	}
	size := 2
	for i := range g.Rounds {
		size += len(g.Rounds[i].Events) + 2
	}
	out := make([]Event, 1, size)
	out[0] = Event{Type: StartGame, Names: names, ID: -1}
	for i := range g.Rounds {
		var err error
		if out, err = kyoku(out, &g.Rounds[i], aka, n); err != nil {
			return nil, fmt.Errorf("%s: kyoku %d: %w", g.File, i+1, err)
		}
	}
	return append(out, Event{Type: EndGame}), nil
}

func tiles(ts []wall.Tile, aka bool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = Tile(t, aka)
	}
	return out
}

// kyoku appends one round's events to out.
func kyoku(out []Event, rd *mjlog.Round, aka bool, n int) ([]Event, error) {
	in := &rd.Init
	tile := func(t wall.Tile) string { return Tile(t, aka) }
	start := Event{Type: StartKyoku, Bakaze: KindName(wall.Kind(27 + (in.Kyoku/4)%4)), DoraMarker: tile(in.DoraIndicator),
		Kyoku: in.Kyoku%4 + 1, Honba: in.Honba, Kyotaku: in.Kyotaku, Oya: in.Oya, Scores: make([]int, 4), Tehais: make([][]string, 4)}
	for s := range 4 {
		if s < len(in.Ten) {
			start.Scores[s] = 100 * in.Ten[s]
		}
		start.Tehais[s] = tiles(in.Hai[s], aka)
	}
	out = append(out, start)
	var lastDraw [4]wall.Tile
	ended := false
	for _, e := range rd.Events {
		switch e := e.(type) {
		case mjlog.Draw:
			out = append(out, Event{Type: Tsumo, Actor: e.Who, Pai: tile(e.Tile)})
			lastDraw[e.Who] = e.Tile
		case mjlog.Discard:
			out = append(out, Event{Type: Dahai, Actor: e.Who, Pai: tile(e.Tile), Tsumogiri: e.Tile == lastDraw[e.Who]})
			lastDraw[e.Who] = -1
		case mjlog.Reach:
			switch e.Step {
			case 1:
				out = append(out, Event{Type: Reach, Actor: e.Who})
			case 2:
				out = append(out, Event{Type: ReachAccepted, Actor: e.Who})
			}
		case mjlog.Call:
			ev, err := call(e, aka, n)
			if err != nil {
				return nil, err
			}
			out = append(out, ev)
			lastDraw[e.Who] = -1
		case mjlog.Dora:
			out = append(out, Event{Type: Dora, DoraMarker: tile(e.Tile)})
		case mjlog.Agari:
			d, err := deltas(e.Sc)
			if err != nil {
				return nil, fmt.Errorf("<AGARI>: %w", err)
			}
			h := Event{Type: Hora, Actor: e.Who, Target: e.FromWho, Deltas: d}
			if len(e.DoraHaiUra) > 0 {
				h.UraMarkers = tiles(e.DoraHaiUra, aka)
			}
			out = append(out, h)
			ended = true
		case mjlog.Ryuukyoku:
			d, err := deltas(e.Sc)
			if err != nil {
				return nil, fmt.Errorf("<RYUUKYOKU>: %w", err)
			}
			out = append(out, Event{Type: Ryukyoku, Deltas: d})
			ended = true
		}
	}
	if !ended {
		return nil, fmt.Errorf("no <AGARI> or <RYUUKYOKU>")
	}
	return append(out, Event{Type: EndKyoku}), nil
}

// deltas returns the four score changes (points) of sc="score,delta,…"
// (100s; chip games' extra pairs are left out).
func deltas(sc []int) ([]int, error) {
	if len(sc)%2 != 0 || len(sc) < 6 {
		return nil, fmt.Errorf("sc= has %d values, want 8", len(sc))
	}
	d := make([]int, 4)
	for s := 0; s < 4 && 2*s+1 < len(sc); s++ {
		d[s] = 100 * sc[2*s+1]
	}
	return d, nil
}

// call converts an <N> tag; n is the number of players (the target is
// the seat m&3 places after the caller, modulo n).
func call(c mjlog.Call, aka bool, n int) (Event, error) {
	m := c.Meld
	tile := func(t wall.Tile) string { return Tile(t, aka) }
	without := func(ts []wall.Tile, drop wall.Tile) []string {
		return tiles(slices.DeleteFunc(slices.Clone(ts), func(t wall.Tile) bool { return t == drop }), aka)
	}
	target := (c.Who + m.From) % n
	switch m.Type {
	case mjlog.Chi, mjlog.Pon, mjlog.Daiminkan:
		want := map[mjlog.MeldType]int{mjlog.Chi: 3, mjlog.Pon: 3, mjlog.Daiminkan: 4}[m.Type]
		if len(m.Tiles) != want || !slices.Contains(m.Tiles, m.Called) {
			return Event{}, fmt.Errorf("<N>: %v of tiles %v called %v", m.Type, m.Tiles, m.Called)
		}
		return Event{Type: m.Type.String(), Actor: c.Who, Target: target, Pai: tile(m.Called), Consumed: without(m.Tiles, m.Called)}, nil
	case mjlog.Kakan:
		if len(m.Tiles) != 4 || !slices.Contains(m.Tiles, m.Added) {
			return Event{}, fmt.Errorf("<N>: kakan of tiles %v added %v", m.Tiles, m.Added)
		}
		return Event{Type: Kakan, Actor: c.Who, Pai: tile(m.Added), Consumed: without(m.Tiles, m.Added)}, nil
	case mjlog.Ankan:
		if len(m.Tiles) != 4 {
			return Event{}, fmt.Errorf("<N>: ankan of tiles %v", m.Tiles)
		}
		return Event{Type: Ankan, Actor: c.Who, Consumed: tiles(m.Tiles, aka)}, nil
	case mjlog.Kita:
		if len(m.Tiles) != 1 {
			return Event{}, fmt.Errorf("<N>: kita of tiles %v", m.Tiles)
		}
		return Event{Type: Nukidora, Actor: c.Who, Pai: tile(m.Tiles[0])}, nil
	}
	return Event{}, fmt.Errorf("<N>: meld type %v", m.Type)
}

// View returns what seat saw of a full event stream: start_game gets id
// seat, other seats' haipai and tsumo become "?". Everything else is
// public and kept. events is not modified.
func View(events []Event, seat int) []Event {
	out := make([]Event, len(events))
	for i, e := range events {
		switch e.Type {
		case StartGame:
			e.ID = seat
		case StartKyoku:
			th := make([][]string, len(e.Tehais))
			for s, t := range e.Tehais {
				if s == seat {
					th[s] = t
					continue
				}
				th[s] = make([]string, len(t))
				for j := range t {
					th[s][j] = Hidden
				}
			}
			e.Tehais = th
		case Tsumo:
			if e.Actor != seat {
				e.Pai = Hidden
			}
		}
		out[i] = e
	}
	return out
}
