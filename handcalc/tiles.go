package handcalc

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// tileSpec is a tile as written: its kind and whether it was written as a
// red five (0m, 0p, 0s).
type tileSpec struct {
	kind wall.Kind
	red  bool
}

// pool counts every tile a request names, so that together they fit in
// one set (four of a kind, one red five per suit), and then gives each a
// concrete Tenhou id.
type pool struct {
	rules     riichi.Rules
	count     [wall.NumKinds]int
	reds      [3]int // red fives written, per suit m p s
	used      [wall.NumTiles]bool
	meldTiles [][]tileSpec // tiles of each non-kita meld, in request order
}

// suitOf returns 0, 1, 2 for the fives of m, p, s.
func suitOf(k wall.Kind) int { return int(k) / 9 }

// parseTiles reads s in the hand notation (riichi.ParseHand) and counts
// its tiles; field names the request field in errors.
func (p *pool) parseTiles(field, s string) ([]tileSpec, error) {
	tiles, err := riichi.ParseHand(s)
	if err != nil {
		return nil, malformed("%s %s", field, strings.TrimPrefix(err.Error(), "riichi: hand "))
	}
	out := make([]tileSpec, len(tiles), len(tiles)+1) // room for the winning tile
	for i, t := range tiles {
		sp := tileSpec{kind: t.Kind(), red: t.IsRed()}
		if p.rules.Sanma && sp.kind >= 1 && sp.kind <= 7 {
			return nil, malformed("%s %q: %v is not used in three-player mahjong (no 2m..8m)", field, s, sp.kind)
		}
		if sp.red && !p.rules.Aka {
			return nil, malformed("%s %q: a red five (0%c), but these rules have no red fives", field, s, sp.kind.Suit())
		}
		p.use(sp)
		out[i] = sp
	}
	return out, nil
}

// use counts one tile.
func (p *pool) use(t tileSpec) {
	p.count[t.kind]++
	if t.red {
		p.reds[suitOf(t.kind)]++
	}
}

// unuse takes back a tile counted twice (a winning tile also written in
// the hand).
func (p *pool) unuse(t tileSpec) {
	p.count[t.kind]--
	if t.red {
		p.reds[suitOf(t.kind)]--
	}
}

// parseIndicators reads dora or ura indicator lists: each element one or
// more tiles, commas allowed.
func (p *pool) parseIndicators(field string, list []string) ([]tileSpec, error) {
	var out []tileSpec
	for _, s := range list {
		t, err := p.parseTiles(field, strings.ReplaceAll(s, ",", ""))
		if err != nil {
			return nil, err
		}
		out = append(out, t...)
	}
	return out, nil
}

// check reports tiles that do not fit in one set.
func (p *pool) check() error {
	for k, n := range p.count {
		kind := wall.Kind(k)
		if n > 4 {
			return malformed("%d copies of %v among the hand, win, melds and indicators: a set has 4", n, kind)
		}
		if kind.IsHonor() || kind.Number() != 5 {
			continue
		}
		s := suitOf(kind)
		if p.reds[s] > 1 {
			return malformed("%d red fives 0%c: a set has one", p.reds[s], kind.Suit())
		}
		if p.rules.Aka && n-p.reds[s] > 3 {
			return malformed("four plain %v: with red fives one %v of the set is red (write it 0%c)", kind, kind, kind.Suit())
		}
	}
	return nil
}

// ids gives each tile a concrete Tenhou id: a red five its red id, any
// other tile the lowest free id of its kind that is not red (a red id
// only when the rules have no red fives). Call after check.
func (p *pool) ids(ts []tileSpec) []wall.Tile {
	out := make([]wall.Tile, len(ts))
	for i, t := range ts {
		base := wall.Tile(4 * t.kind)
		id := wall.Tile(-1)
		if t.red {
			id = base // the red fives are ids 16, 52, 88: the first of their kind
		} else {
			for c := base; c < base+4; c++ {
				if !p.used[c] && !(c.IsRed() && p.rules.Aka) {
					id = c
					break
				}
			}
		}
		p.used[id] = true
		out[i] = id
	}
	return out
}

// meldTypes maps the meld names a request may use to riichi's types.
var meldTypes = map[string]riichi.MeldType{
	"chi": riichi.Chi, "pon": riichi.Pon,
	"daiminkan": riichi.Daiminkan, "minkan": riichi.Daiminkan,
	"kakan": riichi.Kakan, "shouminkan": riichi.Kakan,
	"ankan": riichi.Ankan,
}

// parseMeld reads one meld "TYPE:TILES", or a kita ("kita", "kita:4z").
// The meld's tiles are counted and kept in p.meldTiles; the returned
// meld's Tiles are filled in later (ids). The meld is taken to be called
// from toimen (chi: kamicha), which changes no score.
func (p *pool) parseMeld(s string, players int) (m riichi.Meld, kita bool, err error) {
	name, tiles, _ := strings.Cut(strings.TrimSpace(s), ":")
	name = strings.ToLower(name)
	if name == "kita" || name == "nukidora" {
		if players != 3 {
			return m, false, malformed("meld %q: kita (nukidora) is three-player only (players 3)", s)
		}
		if tiles == "" {
			tiles = "4z"
		}
		ts, err := p.parseTiles("meld "+s, tiles)
		if err != nil {
			return m, false, err
		}
		if len(ts) != 1 || ts[0].kind != 30 {
			return m, false, malformed("meld %q: a kita is one north tile (4z)", s)
		}
		return m, true, nil
	}
	typ, ok := meldTypes[name]
	if !ok {
		return m, false, malformed("meld %q: unknown type %q: want chi, pon, daiminkan, kakan, ankan or kita, as in pon:5z5z5z", s, name)
	}
	if typ == riichi.Chi && players == 3 {
		return m, false, malformed("meld %q: no chi in three-player mahjong", s)
	}
	ts, err := p.parseTiles("meld "+s, tiles)
	if err != nil {
		return m, false, err
	}
	m = riichi.Meld{Type: typ, From: 2}
	if err := meldShape(typ, ts); err != nil {
		return m, false, malformed("meld %q: %v", s, err)
	}
	switch typ {
	case riichi.Chi:
		m.From = 3
	case riichi.Ankan:
		m.From = 0
	}
	p.meldTiles = append(p.meldTiles, ts)
	return m, false, nil
}

// meldShape checks the kinds of a meld: three (four for a kan) of one
// kind, or a chi's three consecutive numbers of one suit.
func meldShape(typ riichi.MeldType, ts []tileSpec) error {
	want := 3
	if typ == riichi.Daiminkan || typ == riichi.Kakan || typ == riichi.Ankan {
		want = 4
	}
	if len(ts) != want {
		return fmt.Errorf("%v needs %d tiles, not %d", typ, want, len(ts))
	}
	kinds := make([]wall.Kind, len(ts))
	for i, t := range ts {
		kinds[i] = t.kind
	}
	slices.Sort(kinds)
	if typ != riichi.Chi {
		if kinds[0] != kinds[len(kinds)-1] {
			return fmt.Errorf("%v needs %d tiles of one kind", typ, want)
		}
		return nil
	}
	k := kinds[0]
	if k.IsHonor() || k.Number() > 7 || kinds[1] != k+1 || kinds[2] != k+2 {
		return fmt.Errorf("a chi is three consecutive numbers of one suit")
	}
	return nil
}
