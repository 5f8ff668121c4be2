package riichi

import "github.com/mentalmj/mentalmj/wall"

// fuOf returns the fu of reading r, following Tenhou:
//
//   - chiitoitsu 25 fu; kokushi 0 fu (as Tenhou records it);
//   - pinfu: 20 fu on tsumo, 30 fu on ron;
//   - otherwise 20 fu base, +10 for a closed ron (menzen kafu), +2 for
//     tsumo, +2 for a kanchan, penchan or tanki wait, per set: triplet
//     2 (simple) / 4 (terminal or honour), doubled when concealed (ankou),
//     quadrupled for a quad; pair: 2 each for a dragon, the seat wind and
//     the round wind (a double-wind pair is 4 fu); rounded up to a
//     multiple of 10;
//   - an open hand that would score 20 fu (no fu at all) scores 30.
func fuOf(f *handFacts, r *reading, pinfu bool) int {
	ctx := f.ctx
	switch r.form {
	case Chiitoitsu:
		return 25
	case Kokushi:
		return 0
	}
	if pinfu {
		if ctx.Tsumo {
			return 20
		}
		return 30
	}
	fu := 20
	if f.menzen && !ctx.Tsumo {
		fu += 10
	}
	if ctx.Tsumo {
		fu += 2
	}
	switch r.wait {
	case waitKanchan, waitPenchan, waitTanki:
		fu += 2
	}
	for _, s := range r.sets {
		if s.seq {
			continue
		}
		v := 2
		if isTerminalOrHonor(s.kind) {
			v *= 2
		}
		if s.ankou {
			v *= 2
		}
		if s.kan {
			v *= 4
		}
		fu += v
	}
	fu += pairFu(r.pair, ctx.SeatWind, ctx.RoundWind)
	fu = (fu + 9) / 10 * 10
	if fu == 20 && !f.menzen {
		fu = 30
	}
	return fu
}

// pairFu is the fu of a pair of kind k: 2 for a dragon, 2 if it is the seat
// wind, 2 more if it is the round wind (Tenhou: double wind pair = 4 fu).
func pairFu(k, seat, round wall.Kind) int {
	fu := 0
	if k >= 31 {
		fu += 2
	}
	if k == seat {
		fu += 2
	}
	if k == round {
		fu += 2
	}
	return fu
}
