package game

import (
	"slices"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// LegalActions returns every action seat s may take now, as far as this
// engine can tell: actions that need tiles it cannot see are not listed
// (a player's own node uses a Clone with its tiles revealed). On the own
// turn: each discard (and riichi discard), ankan, kakan, tsumo agari and
// kyuushu kyuuhai; on a tile on offer: pass, ron, pon, chi and daiminkan
// (each distinct choice of hand tiles, red fives told apart); at a
// declaration: tenpai or noten. It returns nil when s has nothing to do.
// Every listed action is accepted by Apply.
func (k *Kyoku) LegalActions(s Seat) []Action {
	if !k.seatOK(s) {
		return nil
	}
	var out []Action
	p := &k.p[s]
	switch k.phase {
	case PhaseTurn:
		if s != k.turn {
			return nil
		}
		// A 14-tile hand of shanten > 0 cannot be tenpai after any discard:
		// skip the per-discard waits.
		riichiOK := k.riichiBlock(s) == "" && p.unknown == 0 && riichi.Shanten(&p.counts, len(p.melds)) <= 0
		for _, pos := range p.hand {
			t := k.known[pos]
			if t == Unknown || k.discardBlock(s, pos, t) != "" {
				continue
			}
			out = append(out, Action{Type: Discard, Seat: s, Tile: t})
			if riichiOK {
				c := p.counts
				c[t.Kind()]--
				if len(riichi.Waits(&c, len(p.melds))) > 0 {
					out = append(out, Action{Type: Discard, Seat: s, Tile: t, Riichi: true})
				}
			}
		}
		if k.drawn >= 0 && !k.afterCall {
			if _, r := k.evalWin(s, k.known[k.drawn], true, false, false); r == "" {
				out = append(out, Action{Type: TsumoAgari, Seat: s})
			}
		}
		if k.kanBlock() == "" {
			for kind := range p.counts {
				if p.counts[kind] != 4 {
					continue
				}
				a := Action{Type: Ankan, Seat: s, Tiles: k.handTilesOf(s, wall.Kind(kind), 4)}
				if k.ankanLegal(a) {
					out = append(out, a)
				}
			}
			if p.riichi == noRiichi {
				for _, m := range p.melds {
					if m.Type != riichi.Pon {
						continue
					}
					if ts := k.handTilesOf(s, m.Tiles[0].Kind(), 1); len(ts) == 1 {
						out = append(out, Action{Type: Kakan, Seat: s, Tile: ts[0]})
					}
				}
			}
		}
		if k.n() == 3 {
			for _, pos := range p.hand {
				if t := k.known[pos]; t != Unknown && t.Kind() == 30 && k.kitaBlock(s, pos, t) == "" {
					out = append(out, Action{Type: Kita, Seat: s, Tile: t})
					break
				}
			}
		}
		if !k.rules.NoKyuushu && k.drawn >= 0 && !k.rinshanTurn && p.discards == 0 && !k.anyCall && p.unknown == 0 && yaochuuKindCount(&p.counts) >= 9 {
			out = append(out, Action{Type: KyuushuKyuuhai, Seat: s})
		}
	case PhaseResponse:
		if !k.offer.pending[s] || k.offer.answer[s].Type != 0 {
			return nil
		}
		t := k.offer.tile
		out = append(out, Action{Type: Pass, Seat: s, Tile: t})
		if _, r := k.evalWin(s, t, false, k.offerIsKan(), false); r == "" {
			out = append(out, Action{Type: Ron, Seat: s, Tile: t})
		}
		for _, a := range k.callChoices(s) {
			if k.callBlock(a) == "" {
				out = append(out, a)
			}
		}
	case PhaseDeclare:
		if p.declared != 0 {
			return nil
		}
		if p.unknown == 0 && k.tenpai(s) {
			out = append(out, Action{Type: Tenpai, Seat: s})
		} else if p.riichi == noRiichi {
			out = append(out, Action{Type: Noten, Seat: s})
		}
	}
	return out
}

// ankanLegal runs the ankan checks without changing state.
func (k *Kyoku) ankanLegal(a Action) bool {
	p := &k.p[a.Seat]
	pos, r := k.kanTiles(a.Seat, a.Tiles)
	if r != "" {
		return false
	}
	if p.riichi != noRiichi {
		if k.drawn < 0 || !slices.Contains(pos, k.drawn) {
			return false
		}
		return p.unknown == 0 && k.riichiKanKeepsWaits(&p.counts, a.Tiles[0].Kind(), k.known[k.drawn].Kind(), len(p.melds))
	}
	return true
}

// handTilesOf returns up to n known tiles of kind in seat s's hand.
func (k *Kyoku) handTilesOf(s Seat, kind wall.Kind, n int) []wall.Tile {
	var out []wall.Tile
	for _, pos := range k.p[s].hand {
		if t := k.known[pos]; t != Unknown && t.Kind() == kind && len(out) < n {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

// variants returns the distinct choices of n known tiles of kind in seat
// s's hand, where tiles differ only by being red or not.
func (k *Kyoku) variants(s Seat, kind wall.Kind, n int) [][]wall.Tile {
	var red, plain []wall.Tile
	for _, pos := range k.p[s].hand {
		if t := k.known[pos]; t != Unknown && t.Kind() == kind {
			if k.rules.Hand.IsRed(t) {
				red = append(red, t)
			} else {
				plain = append(plain, t)
			}
		}
	}
	slices.Sort(plain)
	var out [][]wall.Tile
	for r := 0; r <= len(red) && r <= n; r++ {
		if n-r <= len(plain) {
			out = append(out, append(slices.Clone(red[:r]), plain[:n-r]...))
		}
	}
	return out
}

// callChoices lists candidate chi/pon/daiminkan actions of seat s on the
// tile on offer (callBlock filters them).
func (k *Kyoku) callChoices(s Seat) []Action {
	if k.offer.kind != offerDiscard {
		return nil
	}
	t := k.offer.tile
	kind := t.Kind()
	var out []Action
	for _, v := range k.variants(s, kind, 2) {
		out = append(out, Action{Type: Pon, Seat: s, Tile: t, Tiles: v})
	}
	for _, v := range k.variants(s, kind, 3) {
		out = append(out, Action{Type: Daiminkan, Seat: s, Tile: t, Tiles: v})
	}
	if k.n() == 4 && s == k.next(k.offer.from, 1) && !kind.IsHonor() {
		n := int(kind % 9)
		for _, d := range [][2]int{{-2, -1}, {-1, 1}, {1, 2}} {
			if n+d[0] < 0 || n+d[1] > 8 {
				continue
			}
			for _, a := range k.variants(s, kind+wall.Kind(d[0]), 1) {
				for _, b := range k.variants(s, kind+wall.Kind(d[1]), 1) {
					out = append(out, Action{Type: Chi, Seat: s, Tile: t, Tiles: []wall.Tile{a[0], b[0]}})
				}
			}
		}
	}
	return out
}
