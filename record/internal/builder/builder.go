package builder

import (
	"fmt"
	"slices"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// Builder writes one mjlog game from a record that names tiles by kind
// only. It gives every tile shown a Tenhou id of its kind not used yet in
// the kyoku (a red five its own id, 16, 52 or 88, when red fives are
// played), keeps each seat's concealed hand as ids, so that a discard or a
// call takes the very tile the hand holds, and appends the events to the
// current round. Seats are 0..3 in the game's order (seat 3 empty in
// sanma).
type Builder struct {
	// Aka is whether red fives are played: a Key's Red is kept apart only
	// then.
	Aka bool
	// Players is 4, or 3 for sanma.
	Players int
	// Round is the round StartKyoku opened last (inside the game's Rounds),
	// nil before the first.
	Round *mjlog.Round
	// Melds are each seat's melds in this kyoku, in call order (a kakan
	// replaces its pon).
	Melds [4][]mjlog.Meld
	// Drawn is each seat's last draw in this kyoku, -1 before its first.
	Drawn [4]wall.Tile

	game  *mjlog.Game
	free  map[Key][]wall.Tile // ids not yet shown in this kyoku
	hands [4][]wall.Tile      // concealed hands; mjlog.Hidden for tiles not shown
}

// Key is a tile as a kind-only record names it: its kind and, when red
// fives are played, whether it is red.
type Key struct {
	Kind wall.Kind
	Red  bool
}

// KeyOf returns the key of tile id t in a game with (aka) or without red
// fives.
func KeyOf(t wall.Tile, aka bool) Key { return Key{Kind: t.Kind(), Red: aka && t.IsRed()} }

// New returns a Builder that appends the rounds it builds to g, a game of
// players seats (4, or 3 for sanma) with or without red fives (aka).
func New(g *mjlog.Game, aka bool, players int) *Builder {
	return &Builder{game: g, Aka: aka, Players: players}
}

// StartKyoku opens a round: in holds everything but the haipai and the
// dora indicator, which hai (per seat; nil entries are hidden tiles) and
// dora give by kind. It returns an error for a fifth tile of a kind.
func (b *Builder) StartKyoku(in mjlog.Init, hai [4][]*Key, dora Key) error {
	b.free = map[Key][]wall.Tile{}
	for id := wall.Tile(0); id < wall.NumTiles; id++ {
		k := KeyOf(id, b.Aka)
		b.free[k] = append(b.free[k], id)
	}
	b.Melds = [4][]mjlog.Meld{}
	b.Drawn = [4]wall.Tile{-1, -1, -1, -1}
	var err error
	if in.DoraIndicator, err = b.Alloc(&dora); err != nil {
		return fmt.Errorf("dora indicator: %w", err)
	}
	for s := range 4 {
		b.hands[s] = nil
		for _, k := range hai[s] {
			t, err := b.Alloc(k)
			if err != nil {
				return fmt.Errorf("seat %d haipai: %w", s, err)
			}
			b.hands[s] = append(b.hands[s], t)
		}
		in.Hai[s] = slices.Clone(b.hands[s])
	}
	b.game.Rounds = append(b.game.Rounds, mjlog.Round{Init: in})
	b.Round = &b.game.Rounds[len(b.game.Rounds)-1]
	return nil
}

// Alloc returns an unused id of kind k in this kyoku (nil k:
// mjlog.Hidden), or an error naming a fifth tile of its kind.
func (b *Builder) Alloc(k *Key) (wall.Tile, error) {
	if k == nil {
		return mjlog.Hidden, nil
	}
	ids := b.free[*k]
	if len(ids) == 0 {
		return 0, fmt.Errorf("a fifth %s", b.Name(*k))
	}
	b.free[*k] = ids[1:]
	return ids[0], nil
}

// Name names k for errors: "5m", "red 5m".
func (b *Builder) Name(k Key) string {
	if k.Red {
		return "red " + k.Kind.String()
	}
	return k.Kind.String()
}

// Take removes a tile of kind k from seat s's hand and returns its id: the
// id the hand holds, or, for a hand with hidden tiles, a hidden one now
// shown.
func (b *Builder) Take(s int, k Key) (wall.Tile, error) {
	h := b.hands[s]
	i := slices.IndexFunc(h, func(t wall.Tile) bool { return t >= 0 && t.Kind() == k.Kind && (b.Aka && t.IsRed()) == k.Red })
	if i < 0 {
		i = slices.Index(h, mjlog.Hidden)
		if i < 0 {
			return 0, fmt.Errorf("seat %d has no %s in hand", s, b.Name(k))
		}
		t, err := b.Alloc(&k)
		if err != nil {
			return 0, err
		}
		h[i] = t
	}
	t := h[i]
	b.hands[s] = slices.Delete(h, i, i+1)
	return t, nil
}

// Event appends e to the current round.
func (b *Builder) Event(e mjlog.Event) { b.Round.Events = append(b.Round.Events, e) }

// Draw gives seat s a tile of kind k (nil: hidden) and records the draw.
func (b *Builder) Draw(s int, k *Key) error {
	t, err := b.Alloc(k)
	if err != nil {
		return fmt.Errorf("seat %d draws: %w", s, err)
	}
	b.hands[s] = append(b.hands[s], t)
	b.Drawn[s] = t
	b.Event(mjlog.Draw{Who: s, Tile: t})
	return nil
}

// Discard discards a tile of kind k from seat s's hand, or its last draw
// when tsumogiri, records the discard and returns the tile's id.
func (b *Builder) Discard(s int, k Key, tsumogiri bool) (wall.Tile, error) {
	if tsumogiri && b.Drawn[s] >= 0 && slices.Contains(b.hands[s], b.Drawn[s]) {
		t := b.Drawn[s]
		b.hands[s] = slices.DeleteFunc(b.hands[s], func(x wall.Tile) bool { return x == t })
		b.Event(mjlog.Discard{Who: s, Tile: t})
		return t, nil
	}
	t, err := b.Take(s, k)
	if err != nil {
		return 0, fmt.Errorf("discard: %w", err)
	}
	b.Event(mjlog.Discard{Who: s, Tile: t})
	return t, nil
}

// Call records seat s's call of type typ: called is the tile taken (from
// seat from's discard, t), hand the kinds from its hand. For kakan,
// called is the added tile; for ankan and kita, from is s.
func (b *Builder) Call(s int, typ riichi.MeldType, from int, t wall.Tile, hand []Key) error {
	m := mjlog.Meld{Type: typ, Called: -1, Added: -1, KanTile: -1}
	switch typ {
	case riichi.Chi, riichi.Pon, riichi.Daiminkan:
		m.Called, m.From = t, game.Seat(s).Relative(game.Seat(from))
		m.Tiles = []wall.Tile{t}
	case riichi.Kakan:
		i := slices.IndexFunc(b.Melds[s], func(p mjlog.Meld) bool { return p.Type == riichi.Pon && p.Tiles[0].Kind() == hand[0].Kind })
		if i < 0 {
			return fmt.Errorf("seat %d: kakan of %s without a pon", s, b.Name(hand[0]))
		}
		added, err := b.Take(s, hand[0])
		if err != nil {
			return fmt.Errorf("kakan: %w", err)
		}
		pon := b.Melds[s][i]
		m.Tiles, m.Called, m.From, m.Added = append(slices.Clone(pon.Tiles), added), pon.Called, pon.From, added
		slices.Sort(m.Tiles)
		b.Melds[s][i] = m
		b.Event(mjlog.Call{Who: s, Meld: m})
		return nil
	}
	if typ == riichi.Kita && b.Drawn[s] >= 0 && KeyOf(b.Drawn[s], b.Aka) == hand[0] && slices.Contains(b.hands[s], b.Drawn[s]) {
		// The north just drawn (in riichi, the only one that may go).
		b.hands[s] = slices.DeleteFunc(b.hands[s], func(x wall.Tile) bool { return x == b.Drawn[s] })
		m.Tiles = []wall.Tile{b.Drawn[s]}
		b.Melds[s] = append(b.Melds[s], m)
		b.Event(mjlog.Call{Who: s, Meld: m})
		return nil
	}
	for _, k := range hand {
		x, err := b.Take(s, k)
		if err != nil {
			return fmt.Errorf("%s: %w", typ, err)
		}
		m.Tiles = append(m.Tiles, x)
	}
	slices.Sort(m.Tiles)
	if typ == riichi.Ankan {
		m.KanTile = m.Tiles[0]
	}
	b.Melds[s] = append(b.Melds[s], m)
	b.Event(mjlog.Call{Who: s, Meld: m})
	return nil
}

// Hand returns seat s's concealed hand plus extra, sorted.
func (b *Builder) Hand(s int, extra ...wall.Tile) []wall.Tile {
	h := append(slices.Clone(b.hands[s]), extra...)
	slices.Sort(h)
	return h
}
