package mjai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mentalmj/mentalmj/record/internal/builder"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/record"
	"github.com/mentalmj/mentalmj/wall"
)

// Read reads an mjai log (JSON Lines of Events; data, named name in
// errors) into an mjlog game, each tile given an unused Tenhou id of its
// kind (record/internal/builder); it does not replay the game through the
// rules engine. Its errors start with name and a colon and name the line:
// a line that is not an event, an event the kyoku so far cannot take (a
// discard of a tile the hand lacks, a fifth tile of a kind), no
// start_kyoku at all.
//
// The events are already in the order of play; "?" tiles (a seat's view)
// become hidden tiles. Three players (Mortal's three-player forks,
// as WriteMjlog writes them) when a start_kyoku deals seat 3 no tiles
// or only hidden ones with no name and no points, or a nukidora comes.
// mjai says nothing of the rules beyond that: the game is taken
// as Tenhou's hanchan with red fives and open tanyao. lastLine gives, per
// round of the game, the line of the file that holds its last event.
func Read(data []byte, name string) (g *mjlog.Game, lastLine []int, err error) {
	g, lastLine, err = read(data, name)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return g, lastLine, nil
}

// read is Read without the name in its errors.
func read(data []byte, name string) (g *mjlog.Game, lastLine []int, err error) {
	var evs []Event
	var marked []bool // per event: a dahai that says whether it is tsumogiri
	var lineOf []int  // per event: its line in the file
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var e Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, nil, fmt.Errorf("line %d: %w", line, err)
		}
		var opt struct {
			Tsumogiri *bool `json:"tsumogiri"`
		}
		json.Unmarshal(sc.Bytes(), &opt) // it decoded just above
		evs = append(evs, e)
		marked = append(marked, opt.Tsumogiri != nil)
		lineOf = append(lineOf, line)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	players := 4
	var names4 string // seat 3's name at start_game
	for _, e := range evs {
		switch {
		case e.Type == "start_game" && len(e.Names) == 4:
			names4 = e.Names[3]
		case e.Type == "start_kyoku" && (len(e.Tehais) < 4 || len(e.Tehais[3]) == 0 || names4 == "" && len(e.Scores) == 4 && e.Scores[3] == 0),
			e.Type == "nukidora":
			// Sanma: an empty fourth seat (no tiles, or the forks' 13 "?"
			// with no name and no points), or a kita.
			players = 3
		}
	}
	var names [4]string
	aka := true
	rules := game.TenhouRules(true, aka, true)
	if players == 3 {
		rules = game.TenhouSanmaRules(true, aka, true)
	}
	var b *builder.Builder
	m := mjaiPlay{}
	for i, e := range evs {
		var err error
		switch {
		case e.Type == "start_game":
			copy(names[:], e.Names)
		case e.Type == "start_kyoku":
			if g == nil {
				g = record.Game(names, rules, nil, game.Standings{})
				g.File = name
				b = builder.New(g, aka, players)
				m.b = b
			}
			err = m.start(e)
		case e.Type == "end_game":
			if g != nil {
				g.Owari = &mjlog.Owari{}
			}
		case b == nil || b.Round == nil:
			// Nothing before the first kyoku matters.
		default:
			err = m.event(e, marked[i])
		}
		if err != nil {
			return nil, nil, fmt.Errorf("line %d (%s): %w", lineOf[i], e.Type, err)
		}
		if g != nil {
			for len(lastLine) < len(g.Rounds) {
				lastLine = append(lastLine, 0)
			}
			lastLine[len(g.Rounds)-1] = lineOf[i]
		}
	}
	if g == nil {
		return nil, nil, errors.New("it has no start_kyoku event")
	}
	return g, lastLine, nil
}

// mjaiPlay turns one kyoku's mjai events into mjlog events.
type mjaiPlay struct {
	b          *builder.Builder
	last       wall.Tile // the last discard
	lastFrom   int
	reach      [4]bool
	lastDrawer int
}

func (m *mjaiPlay) key(s string) (*builder.Key, error) {
	if s == "?" {
		return nil, nil
	}
	k, red, err := ParseTile(s)
	if err != nil {
		return nil, err
	}
	return &builder.Key{Kind: k, Red: red && m.b.Aka}, nil
}

func (m *mjaiPlay) keys(ss []string) ([]builder.Key, error) {
	var out []builder.Key
	for _, s := range ss {
		k, err := m.key(s)
		if err != nil {
			return nil, err
		}
		if k == nil {
			return nil, fmt.Errorf("a hidden tile in a call")
		}
		out = append(out, *k)
	}
	return out, nil
}

func (m *mjaiPlay) start(e Event) error {
	round := map[string]int{"E": 0, "S": 4, "W": 8, "N": 12}[e.Bakaze] + e.Kyoku - 1
	in := mjlog.Init{Kyoku: round, Honba: e.Honba, Kyotaku: e.Kyotaku, Oya: e.Oya, Ten: make([]int, 4)}
	for s := range min(4, len(e.Scores)) {
		in.Ten[s] = e.Scores[s] / 100
	}
	var hai [4][]*builder.Key
	for s := range min(m.b.Players, len(e.Tehais)) {
		for _, t := range e.Tehais[s] {
			k, err := m.key(t)
			if err != nil {
				return err
			}
			hai[s] = append(hai[s], k)
		}
	}
	d, err := m.key(e.DoraMarker)
	if err != nil || d == nil {
		return fmt.Errorf("dora marker %q", e.DoraMarker)
	}
	*m = mjaiPlay{b: m.b, last: -1, lastDrawer: -1}
	return m.b.StartKyoku(in, hai, *d)
}

// event plays one mjai event of the kyoku; marked says whether a dahai
// has the (optional) tsumogiri field.
func (m *mjaiPlay) event(e Event, marked bool) error {
	b := m.b
	if e.Actor >= b.Players {
		return fmt.Errorf("actor %d in a %d-player game", e.Actor, b.Players)
	}
	switch e.Type {
	case "tsumo":
		k, err := m.key(e.Pai)
		if err != nil {
			return err
		}
		m.lastDrawer = e.Actor
		return b.Draw(e.Actor, k)
	case "dahai":
		k, err := m.key(e.Pai)
		if err != nil || k == nil {
			return fmt.Errorf("dahai of %q", e.Pai)
		}
		t, err := b.Discard(e.Actor, *k, m.tsumogiri(e, *k, marked))
		m.last, m.lastFrom = t, e.Actor
		return err
	case "reach":
		m.reach[e.Actor] = true
		b.Event(mjlog.Reach{Who: e.Actor, Step: 1})
	case "reach_accepted":
		b.Event(mjlog.Reach{Who: e.Actor, Step: 2})
	case "chi", "pon", "daiminkan":
		hand, err := m.keys(e.Consumed)
		if err != nil {
			return err
		}
		typ := map[string]riichi.MeldType{"chi": riichi.Chi, "pon": riichi.Pon, "daiminkan": riichi.Daiminkan}[e.Type]
		if m.last < 0 || e.Target != m.lastFrom {
			return fmt.Errorf("a call on seat %d's discard, which is not the last one", e.Target)
		}
		return b.Call(e.Actor, typ, e.Target, m.last, hand)
	case "kakan":
		k, err := m.keys([]string{e.Pai})
		if err != nil {
			return err
		}
		return b.Call(e.Actor, riichi.Kakan, e.Actor, -1, k)
	case "ankan":
		hand, err := m.keys(e.Consumed)
		if err != nil || len(hand) != 4 {
			return fmt.Errorf("ankan of %v", e.Consumed)
		}
		return b.Call(e.Actor, riichi.Ankan, e.Actor, -1, hand)
	case "nukidora":
		k, err := m.keys([]string{e.Pai})
		if err != nil {
			return err
		}
		return b.Call(e.Actor, riichi.Kita, e.Actor, -1, k)
	case "dora":
		k, err := m.key(e.DoraMarker)
		if err != nil || k == nil {
			return fmt.Errorf("dora marker %q", e.DoraMarker)
		}
		t, err := b.Alloc(k)
		if err != nil {
			return err
		}
		b.Event(mjlog.Dora{Tile: t})
	case "hora":
		return m.hora(e)
	case "ryukyoku":
		b.Event(m.ryukyoku())
	}
	return nil
}

// tsumogiri tells whether seat e.Actor's dahai of k is the tile it just
// drew. With the tsumogiri field, as the record says. Without it (the
// field is optional in mjai) a dahai of the kind just drawn — drawn by the
// actor's last event, not before a call — is taken as the drawn tile: in
// riichi it must be; otherwise the hand may hold another copy and the
// record cannot tell which went, and the drawn one is chosen every time.
// The tiles shown are the same kinds either way; only the discard's
// tsumogiri mark can differ from the game as played.
func (m *mjaiPlay) tsumogiri(e Event, k builder.Key, marked bool) bool {
	b := m.b
	s := e.Actor
	if b.Drawn[s] < 0 || builder.KeyOf(b.Drawn[s], b.Aka) != k {
		return false
	}
	if marked {
		return e.Tsumogiri
	}
	for i := len(b.Round.Events) - 1; i >= 0; i-- {
		switch x := b.Round.Events[i].(type) {
		case mjlog.Reach:
			continue
		case mjlog.Draw:
			return x.Who == s
		}
		return false
	}
	return false
}

func (m *mjaiPlay) hora(e Event) error {
	b := m.b
	a := mjlog.Agari{Who: e.Actor, FromWho: e.Target, Honba: b.Round.Init.Honba, Kyotaku: b.Round.Init.Kyotaku, Paowho: -1}
	a.DoraHai = []wall.Tile{b.Round.Init.DoraIndicator}
	var ura []wall.Tile
	for _, ev := range b.Round.Events {
		switch x := ev.(type) {
		case mjlog.Dora:
			a.DoraHai = append(a.DoraHai, x.Tile)
		case mjlog.Agari:
			ura = x.DoraHaiUra // a double ron shows the same ura indicators
		}
	}
	if a.Who == a.FromWho {
		a.Machi = b.Drawn[a.Who]
		a.Hai = b.Hand(a.Who)
	} else {
		a.Machi = m.last
		a.Hai = b.Hand(a.Who, m.last)
	}
	if len(e.UraMarkers) > 0 && ura == nil {
		for _, u := range e.UraMarkers {
			k, err := m.key(u)
			if err != nil || k == nil {
				return fmt.Errorf("ura marker %q", u)
			}
			t, err := b.Alloc(k)
			if err != nil {
				return err
			}
			ura = append(ura, t)
		}
	}
	if len(e.UraMarkers) > 0 {
		a.DoraHaiUra = slices.Clone(ura)
	}
	a.Melds = b.Melds[a.Who]
	b.Event(a)
	return nil
}

// ryukyoku returns the draw an mjai ryukyoku (which names no kind) is in
// mjlog: kyuushu kyuuhai right after a draw; sanchahou (three rons, an
// abortive draw under Tenhou's rules) right after a discard while the
// wall still has tiles, unless it is the fourth wind of the first go
// around or follows a fourth kan; otherwise a draw the engine reaches by
// itself (exhaustive, suucha riichi, suufon renda, suukan sanra).
func (m *mjaiPlay) ryukyoku() mjlog.Ryuukyoku {
	b := m.b
	r := mjlog.Ryuukyoku{Honba: b.Round.Init.Honba, Kyotaku: b.Round.Init.Kyotaku}
	n := len(b.Round.Events)
	if n == 0 {
		return r
	}
	switch last := b.Round.Events[n-1].(type) {
	case mjlog.Draw:
		r.Type, r.Hai[last.Who] = "yao9", b.Hand(last.Who)
	case mjlog.Discard:
		draws, discards, kans, calls := 0, 0, 0, 0
		winds := map[wall.Kind]int{}
		for _, e := range b.Round.Events {
			switch x := e.(type) {
			case mjlog.Draw:
				draws++
			case mjlog.Discard:
				discards++
				winds[x.Tile.Kind()]++
			case mjlog.Call:
				calls++
				if x.Meld.Type == riichi.Daiminkan || x.Meld.Type == riichi.Ankan || x.Meld.Type == riichi.Kakan {
					kans++
				}
			}
		}
		size := 136
		if b.Players == 3 {
			size = 108
		}
		suufon := discards == 4 && calls == 0 && len(winds) == 1 && last.Tile.Kind() >= 27 && last.Tile.Kind() <= 30
		if draws < size-14-13*b.Players && !suufon && kans < 4 {
			r.Type = "ron3"
			for s := range b.Players {
				if s != last.Who {
					r.Hai[s] = b.Hand(s)
				}
			}
		}
	}
	return r
}
