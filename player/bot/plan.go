package bot

import (
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// noPlan is added to the standard shanten of an open hand that no yaku
// plan fits, so that such a hand always compares worse than any hand with
// a plan (shanten is at most 8).
const noPlan = 16

// planShanten returns the shanten of the concealed counts c with the
// declared melds toward a hand that can win, in the sizes riichi.Shanten
// takes (13-3m tiles before the draw, 14-3m after; -1 complete).
//
// A closed hand (no melds but ankan) has riichi and menzen tsumo as yaku,
// so its shanten is riichi.Shanten's (standard, chiitoitsu, kokushi). An
// open hand needs a yaku from its shape; the plans tried are:
//
//   - yakuhai: a pon or kan of a dragon, the seat wind or the round wind
//     already declared: any standard hand wins;
//   - pending yakuhai: a pair (or concealed triplet) of such a kind with a
//     copy still unseen, forced into a triplet (one more tile needed for a
//     pair);
//   - tanyao (kuitan, Tenhou ari-ari): every meld all simples; terminals
//     and honours in the hand count as useless tiles;
//   - honitsu: every meld in one number suit or honours; tiles of the other
//     two suits count as useless.
//
// The result is the least shanten over the plans that fit, or the standard
// shanten plus noPlan when none does.
func (v *view) planShanten(c *riichi.Counts, melds []meld) int {
	closed := true
	for _, m := range melds {
		closed = closed && !m.open
	}
	n := len(melds)
	if closed {
		return riichi.Shanten(c, n)
	}
	base := riichi.ShantenStandard(c, n)
	tanyao := true
	suits := [3]bool{true, true, true}
	for _, m := range melds {
		if !m.seq && v.yakuhai[m.kind] {
			return base
		}
		if !meldSimple(m) {
			tanyao = false
		}
		if !m.kind.IsHonor() {
			for s := range suits {
				if int(m.kind)/9 != s {
					suits[s] = false
				}
			}
		}
	}
	best := base + noPlan
	if n < 4 {
		for k := wall.Kind(27); k < wall.NumKinds; k++ {
			if !v.yakuhai[k] || c[k] < 2 || (c[k] == 2 && v.unseen[k] == 0) {
				continue
			}
			take := min(c[k], 3)
			cc := *c
			cc[k] -= take
			best = min(best, riichi.ShantenStandard(&cc, n+1)+3-take)
		}
	}
	if tanyao {
		cc := *c
		for k := range cc {
			if kk := wall.Kind(k); kk.IsHonor() || kk.IsTerminal() {
				cc[k] = 0
			}
		}
		best = min(best, riichi.ShantenStandard(&cc, n))
	}
	for s, ok := range suits {
		if !ok {
			continue
		}
		cc := *c
		for k := 0; k < 27; k++ {
			if k/9 != s {
				cc[k] = 0
			}
		}
		best = min(best, riichi.ShantenStandard(&cc, n))
	}
	return best
}

// meldSimple reports whether every tile of m is a simple (2..8).
func meldSimple(m meld) bool {
	if m.kind.IsHonor() {
		return false
	}
	if m.seq {
		n := m.kind.Number()
		return n >= 2 && n <= 6
	}
	return !m.kind.IsTerminal()
}
