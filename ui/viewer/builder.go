package viewer

import (
	"fmt"
	"slices"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// builder writes an mjlog game from a record that names tiles by kind
// only (tenhou.net/6 JSON, mjai): it gives every tile shown a Tenhou id
// of its kind not used yet in the kyoku (the red five its own id when red
// fives are played), keeps each seat's concealed hand as ids, so that a
// discard or a call takes the very tile the hand holds, and appends the
// events to the current round.
type builder struct {
	g       *mjlog.Game
	aka     bool
	players int

	rd    *mjlog.Round
	free  map[tileKey][]wall.Tile // ids not yet shown in this kyoku
	hands [4][]wall.Tile          // concealed hands; mjlog.Hidden for tiles not shown
	melds [4][]mjlog.Meld
	drawn [4]wall.Tile // each seat's last draw
}

// tileKey is a kind and, when red fives are played, whether it is red.
type tileKey struct {
	kind wall.Kind
	red  bool
}

func newBuilder(g *mjlog.Game, aka bool, players int) *builder {
	return &builder{g: g, aka: aka, players: players}
}

// startKyoku opens a round: in holds everything but the haipai, which
// hai gives by kind (nil entries: a hidden tile).
func (b *builder) startKyoku(in mjlog.Init, hai [4][]*tileKey, dora tileKey) error {
	b.free = map[tileKey][]wall.Tile{}
	for id := wall.Tile(0); id < wall.NumTiles; id++ {
		k := tileKey{id.Kind(), b.aka && id.IsRed()}
		b.free[k] = append(b.free[k], id)
	}
	b.melds = [4][]mjlog.Meld{}
	b.drawn = [4]wall.Tile{-1, -1, -1, -1}
	var err error
	if in.DoraIndicator, err = b.alloc(&dora); err != nil {
		return fmt.Errorf("dora indicator: %w", err)
	}
	for s := range 4 {
		b.hands[s] = nil
		for _, k := range hai[s] {
			t, err := b.alloc(k)
			if err != nil {
				return fmt.Errorf("seat %d haipai: %w", s, err)
			}
			b.hands[s] = append(b.hands[s], t)
		}
		in.Hai[s] = slices.Clone(b.hands[s])
	}
	b.g.Rounds = append(b.g.Rounds, mjlog.Round{Init: in})
	b.rd = &b.g.Rounds[len(b.g.Rounds)-1]
	return nil
}

// alloc returns an unused id of kind k (nil: mjlog.Hidden).
func (b *builder) alloc(k *tileKey) (wall.Tile, error) {
	if k == nil {
		return mjlog.Hidden, nil
	}
	ids := b.free[*k]
	if len(ids) == 0 {
		return 0, fmt.Errorf("a fifth %s", b.name(*k))
	}
	b.free[*k] = ids[1:]
	return ids[0], nil
}

func (b *builder) name(k tileKey) string {
	if k.red {
		return "red " + k.kind.String()
	}
	return k.kind.String()
}

// take removes a tile of kind k from seat s's hand and returns its id: the
// id the hand holds, or, for a hand with hidden tiles, a hidden one now
// shown.
func (b *builder) take(s int, k tileKey) (wall.Tile, error) {
	h := b.hands[s]
	i := slices.IndexFunc(h, func(t wall.Tile) bool { return t >= 0 && t.Kind() == k.kind && (b.aka && t.IsRed()) == k.red })
	if i < 0 {
		i = slices.Index(h, mjlog.Hidden)
		if i < 0 {
			return 0, fmt.Errorf("seat %d has no %s in hand", s, b.name(k))
		}
		t, err := b.alloc(&k)
		if err != nil {
			return 0, err
		}
		h[i] = t
	}
	t := h[i]
	b.hands[s] = slices.Delete(h, i, i+1)
	return t, nil
}

func (b *builder) event(e mjlog.Event) { b.rd.Events = append(b.rd.Events, e) }

// draw gives seat s a tile (nil: hidden).
func (b *builder) draw(s int, k *tileKey) error {
	t, err := b.alloc(k)
	if err != nil {
		return fmt.Errorf("seat %d draws: %w", s, err)
	}
	b.hands[s] = append(b.hands[s], t)
	b.drawn[s] = t
	b.event(mjlog.Draw{Who: s, Tile: t})
	return nil
}

// discard discards a tile of kind k from seat s's hand, or its last draw
// when tsumogiri.
func (b *builder) discard(s int, k tileKey, tsumogiri bool) (wall.Tile, error) {
	if tsumogiri && b.drawn[s] >= 0 && slices.Contains(b.hands[s], b.drawn[s]) {
		t := b.drawn[s]
		b.hands[s] = slices.DeleteFunc(b.hands[s], func(x wall.Tile) bool { return x == t })
		b.event(mjlog.Discard{Who: s, Tile: t})
		return t, nil
	}
	t, err := b.take(s, k)
	if err != nil {
		return 0, fmt.Errorf("discard: %w", err)
	}
	b.event(mjlog.Discard{Who: s, Tile: t})
	return t, nil
}

// call records seat s's call of type typ: called is the tile taken (from
// seat from's discard, t), hand the kinds from its hand. For kakan,
// called is the added tile; for ankan and kita, from is s.
func (b *builder) call(s int, typ riichi.MeldType, from int, t wall.Tile, hand []tileKey) error {
	m := mjlog.Meld{Type: typ, Called: -1, Added: -1, KanTile: -1}
	switch typ {
	case riichi.Chi, riichi.Pon, riichi.Daiminkan:
		m.Called, m.From = t, game.Seat(s).Relative(game.Seat(from))
		m.Tiles = []wall.Tile{t}
	case riichi.Kakan:
		i := slices.IndexFunc(b.melds[s], func(p mjlog.Meld) bool { return p.Type == riichi.Pon && p.Tiles[0].Kind() == hand[0].kind })
		if i < 0 {
			return fmt.Errorf("seat %d: kakan of %s without a pon", s, b.name(hand[0]))
		}
		added, err := b.take(s, hand[0])
		if err != nil {
			return fmt.Errorf("kakan: %w", err)
		}
		pon := b.melds[s][i]
		m.Tiles, m.Called, m.From, m.Added = append(slices.Clone(pon.Tiles), added), pon.Called, pon.From, added
		slices.Sort(m.Tiles)
		b.melds[s][i] = m
		b.event(mjlog.Call{Who: s, Meld: m})
		return nil
	}
	if typ == riichi.Kita && b.drawn[s] >= 0 && keyOf(b.drawn[s], b.aka) == hand[0] && slices.Contains(b.hands[s], b.drawn[s]) {
		// The north just drawn (in riichi, the only one that may go).
		b.hands[s] = slices.DeleteFunc(b.hands[s], func(x wall.Tile) bool { return x == b.drawn[s] })
		m.Tiles = []wall.Tile{b.drawn[s]}
		b.melds[s] = append(b.melds[s], m)
		b.event(mjlog.Call{Who: s, Meld: m})
		return nil
	}
	for _, k := range hand {
		x, err := b.take(s, k)
		if err != nil {
			return fmt.Errorf("%s: %w", typ, err)
		}
		m.Tiles = append(m.Tiles, x)
	}
	slices.Sort(m.Tiles)
	if typ == riichi.Ankan {
		m.KanTile = m.Tiles[0]
	}
	b.melds[s] = append(b.melds[s], m)
	b.event(mjlog.Call{Who: s, Meld: m})
	return nil
}

// hand returns seat s's concealed hand plus extra, sorted.
func (b *builder) hand(s int, extra ...wall.Tile) []wall.Tile {
	h := append(slices.Clone(b.hands[s]), extra...)
	slices.Sort(h)
	return h
}
