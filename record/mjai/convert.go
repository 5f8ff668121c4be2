package mjai

import (
	"bufio"
	"fmt"
	"io"
	"slices"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// FromMjlog returns the whole game g as mjai events, every tile shown:
// start_game (no id), then per kyoku start_kyoku, the play in the mjlog's
// order, hora or ryukyoku, end_kyoku; end_game last. Three-player games
// keep four seats as the three-player forks of Mortal read them (the
// fourth seat named "", with 0 points, 13 hidden tiles and 0 deltas) and
// write kita as nukidora {actor, pai "N"}, followed by the replacement
// tsumo (see the package documentation). It returns an error naming g.File and the kyoku for what
// cannot be converted: a kyoku without a result, malformed sc=, a call
// whose tiles do not fit its type.
func FromMjlog(g *mjlog.Game) ([]Event, error) {
	size := 2
	for i := range g.Rounds {
		size += len(g.Rounds[i].Events) + 2
	}
	out := make([]Event, 0, size)
	err := convert(g, func(e *Event) error {
		out = append(out, *e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// WriteMjlog writes game g to w as mjai JSON Lines without keeping the
// events: the whole game when seat < 0, else seat's view (see View). It
// returns FromMjlog's errors and the first write error.
func WriteMjlog(w io.Writer, g *mjlog.Game, seat int) error {
	bw := bufio.NewWriterSize(w, 8<<10)
	b := make([]byte, 0, 512)
	err := convert(g, func(e *Event) error {
		if seat >= 0 {
			mask(e, seat)
		}
		b = append(e.AppendJSON(b[:0]), '\n')
		_, err := bw.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

// convert calls emit with each event of g in order; emit may change the
// event it is given.
func convert(g *mjlog.Game, emit func(*Event) error) error {
	reds := g.Go.Reds() // the GO type's aka bit: Tenhou's three or none
	names := make([]string, 4)
	for s := range 4 {
		if s < len(g.Players) {
			names[s] = g.Players[s].Name
		}
	}
	if err := emit(&Event{Type: StartGame, Names: names, ID: -1}); err != nil {
		return err
	}
	for i := range g.Rounds {
		if err := kyoku(emit, &g.Rounds[i], reds, g.Go.Players()); err != nil {
			return fmt.Errorf("%s: kyoku %d: %w", g.File, i+1, err)
		}
	}
	return emit(&Event{Type: EndGame})
}

func tiles(ts []wall.Tile, reds wall.Reds) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = Tile(t, reds)
	}
	return out
}

// kyoku emits one round's events; players is 3 in sanma, whose empty
// fourth seat gets 0 points and 13 hidden tiles (SanmaTehai).
func kyoku(emit func(*Event) error, rd *mjlog.Round, reds wall.Reds, players int) error {
	in := &rd.Init
	tile := func(t wall.Tile) string { return Tile(t, reds) }
	start := Event{Type: StartKyoku, Bakaze: KindName(wall.Kind(27 + (in.Kyoku/4)%4)), DoraMarker: tile(in.DoraIndicator),
		Kyoku: in.Kyoku%4 + 1, Honba: in.Honba, Kyotaku: in.Kyotaku, Oya: in.Oya, Scores: make([]int, 4), Tehais: make([][]string, 4)}
	for s := range 4 {
		if s < len(in.Ten) {
			start.Scores[s] = 100 * in.Ten[s]
		}
		start.Tehais[s] = tiles(in.Hai[s], reds)
		if s >= players {
			start.Tehais[s] = SanmaTehai()
		}
	}
	if err := emit(&start); err != nil {
		return err
	}
	var lastDraw [4]wall.Tile
	ended := false
	var ev Event
	for _, e := range rd.Events {
		ev = Event{}
		switch e := e.(type) {
		case mjlog.Draw:
			ev = Event{Type: Tsumo, Actor: e.Who, Pai: tile(e.Tile)}
			lastDraw[e.Who] = e.Tile
		case mjlog.Discard:
			ev = Event{Type: Dahai, Actor: e.Who, Pai: tile(e.Tile), Tsumogiri: e.Tile == lastDraw[e.Who]}
			lastDraw[e.Who] = -1
		case mjlog.Reach:
			switch e.Step {
			case 1:
				ev = Event{Type: Reach, Actor: e.Who}
			case 2:
				ev = Event{Type: ReachAccepted, Actor: e.Who}
			}
		case mjlog.Call:
			var err error
			if ev, err = call(e, reds); err != nil {
				return err
			}
			lastDraw[e.Who] = -1
		case mjlog.Dora:
			ev = Event{Type: Dora, DoraMarker: tile(e.Tile)}
		case mjlog.Agari:
			d, err := deltas(e.Sc)
			if err != nil {
				return fmt.Errorf("<AGARI>: %w", err)
			}
			ev = Event{Type: Hora, Actor: e.Who, Target: e.FromWho, Deltas: d}
			if len(e.DoraHaiUra) > 0 {
				ev.UraMarkers = tiles(e.DoraHaiUra, reds)
			}
			ended = true
		case mjlog.Ryuukyoku:
			d, err := deltas(e.Sc)
			if err != nil {
				return fmt.Errorf("<RYUUKYOKU>: %w", err)
			}
			ev = Event{Type: Ryukyoku, Deltas: d}
			ended = true
		}
		if ev.Type != "" {
			if err := emit(&ev); err != nil {
				return err
			}
		}
	}
	if !ended {
		return fmt.Errorf("no <AGARI> or <RYUUKYOKU>")
	}
	return emit(&Event{Type: EndKyoku})
}

// SanmaTehai returns the start_kyoku tehai of the empty fourth seat of a
// three-player game: 13 hidden tiles, as libriichi's three-player forks
// (mjai-reviewer3p's [[Tile; 13]; 4], whose default tile is "?") expect.
func SanmaTehai() []string {
	out := make([]string, 13)
	for i := range out {
		out[i] = Hidden
	}
	return out
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

// call converts an <N> tag. The target is the seat m&3 places after the
// caller modulo 4, in three-player games too (Tenhou numbers their
// relative seats as if the empty fourth seat were there).
func call(c mjlog.Call, reds wall.Reds) (Event, error) {
	m := c.Meld
	tile := func(t wall.Tile) string { return Tile(t, reds) }
	without := func(ts []wall.Tile, drop wall.Tile) []string {
		return tiles(slices.DeleteFunc(slices.Clone(ts), func(t wall.Tile) bool { return t == drop }), reds)
	}
	target := (c.Who + m.From) % 4
	switch m.Type {
	case riichi.Chi, riichi.Pon, riichi.Daiminkan:
		want := map[riichi.MeldType]int{riichi.Chi: 3, riichi.Pon: 3, riichi.Daiminkan: 4}[m.Type]
		if len(m.Tiles) != want || !slices.Contains(m.Tiles, m.Called) {
			return Event{}, fmt.Errorf("<N>: %v of tiles %v called %v", m.Type, m.Tiles, m.Called)
		}
		return Event{Type: m.Type.String(), Actor: c.Who, Target: target, Pai: tile(m.Called), Consumed: without(m.Tiles, m.Called)}, nil
	case riichi.Kakan:
		if len(m.Tiles) != 4 || !slices.Contains(m.Tiles, m.Added) {
			return Event{}, fmt.Errorf("<N>: kakan of tiles %v added %v", m.Tiles, m.Added)
		}
		return Event{Type: Kakan, Actor: c.Who, Pai: tile(m.Added), Consumed: without(m.Tiles, m.Added)}, nil
	case riichi.Ankan:
		if len(m.Tiles) != 4 {
			return Event{}, fmt.Errorf("<N>: ankan of tiles %v", m.Tiles)
		}
		return Event{Type: Ankan, Actor: c.Who, Consumed: tiles(m.Tiles, reds)}, nil
	case riichi.Kita:
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
	for i := range events {
		out[i] = events[i]
		mask(&out[i], seat)
	}
	return out
}

// mask turns e into what seat sees of it, replacing (not modifying) the
// slices it changes.
func mask(e *Event, seat int) {
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
}
