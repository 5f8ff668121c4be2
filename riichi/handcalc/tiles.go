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
	idBuf     []wall.Tile  // the ids of every tile (ids)
}

// suitOf returns 0, 1, 2 for the fives of m, p, s.
func suitOf(k wall.Kind) int { return int(k) / 9 }

// parseTiles reads s in the hand notation (riichi.ScanHand) and counts
// its tiles; field names the request field in errors.
func (p *pool) parseTiles(field, s string) ([]tileSpec, error) {
	out := make([]tileSpec, 0, len(s)+1) // at most one tile a byte, and room for the winning tile
	err := riichi.ScanHand(s, func(_ int, k wall.Kind, red bool) error {
		if p.rules.Sanma && k >= 1 && k <= 7 {
			return fmt.Errorf("%v is not used in three-player mahjong (no 2m..8m)", k)
		}
		if red && p.redCopies(k) == 0 {
			return fmt.Errorf("a red five 0%c, but these rules have no red %v", k.Suit(), k)
		}
		sp := tileSpec{kind: k, red: red}
		p.use(sp)
		out = append(out, sp)
		return nil
	})
	if err != nil {
		return nil, malformed("%s %s", field, strings.TrimPrefix(err.Error(), "riichi: hand "))
	}
	return out, nil
}

// redCopies returns how many of the four copies of kind k are red under
// the rules (riichi.Rules.IsRed).
func (p *pool) redCopies(k wall.Kind) int {
	n := 0
	for c := wall.Tile(4 * k); c < wall.Tile(4*k+4); c++ {
		if p.rules.IsRed(c) {
			n++
		}
	}
	return n
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
		reds, redCopies := p.reds[suitOf(kind)], p.redCopies(kind)
		if reds > redCopies {
			return malformed("%d red fives 0%c: a set under these rules has %d", reds, kind.Suit(), redCopies)
		}
		if n-reds > 4-redCopies {
			return malformed("%d plain %v: under these rules %d of the four %v are red (write them 0%c)", n-reds, kind, redCopies, kind, kind.Suit())
		}
	}
	return nil
}

// ids gives each tile a concrete Tenhou id: the lowest free id of its
// kind that the rules make red for a red five, not red for any other
// tile. The ids are appended to p.idBuf (one allocation per request) and
// returned as a slice of their own capacity, so that appending to it never
// writes over the next list. Call after check.
func (p *pool) ids(ts []tileSpec) []wall.Tile {
	start := len(p.idBuf)
	for _, t := range ts {
		base := wall.Tile(4 * t.kind)
		id := wall.Tile(-1)
		for c := base; c < base+4; c++ {
			if !p.used[c] && p.rules.IsRed(c) == t.red {
				id = c
				break
			}
		}
		p.used[id] = true
		p.idBuf = append(p.idBuf, id)
	}
	return p.idBuf[start:len(p.idBuf):len(p.idBuf)]
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
