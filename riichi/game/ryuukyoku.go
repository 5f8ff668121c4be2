package game

import "slices"

// abort ends the kyoku in an abortive draw: no payments, the dealer keeps
// the deal and a honba is added (Tenhou); riichi sticks stay on the table.
func (k *Kyoku) abort(a Abort) {
	k.finish(&Result{End: EndAbortive, Abort: a, Before: k.scores, Renchan: true})
}

// tenpai reports whether fully known seat s is tenpai: some kind completes
// the hand that the hand does not already hold four of (Tenhou).
func (k *Kyoku) tenpai(s Seat) bool {
	return k.waits(s) != 0
}

// exhaustiveDraw starts the settlement of the exhaustive draw. Seats the
// engine can see are judged at once; the others must declare (PhaseDeclare).
func (k *Kyoku) exhaustiveDraw() {
	need := false
	for s := Seat(0); s < Seat(k.n()); s++ {
		p := &k.p[s]
		if p.unknown > 0 {
			need = true
			continue
		}
		if k.tenpai(s) {
			p.declared = Tenpai
		} else {
			p.declared = Noten
		}
	}
	if need {
		k.phase = PhaseDeclare
		return
	}
	k.settleExhaustive()
}

func (k *Kyoku) declare(a Action) error {
	s := a.Seat
	p := &k.p[s]
	if p.declared != 0 {
		return k.illegal(a, "already declared")
	}
	switch a.Type {
	case Tenpai:
		if p.unknown > 0 {
			return k.illegal(a, "hand not revealed")
		}
		if !k.tenpai(s) {
			return k.illegal(a, "hand is not tenpai")
		}
	case Noten:
		if p.riichi != noRiichi {
			return k.illegal(a, "a riichi hand is tenpai")
		}
		if p.unknown == 0 {
			if k.tenpai(s) {
				return k.illegal(a, "hand is tenpai (Tenhou declares tenpai hands)")
			}
		} else {
			k.checks = append(k.checks, check{kind: checkNoten, seat: s, hand: slices.Clone(p.hand), melds: len(p.melds)})
		}
	default:
		return k.illegal(a, "only tenpai or noten at the exhaustive draw")
	}
	p.declared = a.Type
	for o := range k.n() {
		if k.p[o].declared == 0 {
			return nil
		}
	}
	k.settleExhaustive()
	return nil
}

// settleExhaustive pays nagashi mangan (mangan tsumo for each qualifying
// seat, replacing the tenpai payments) or else the 3000-point tenpai
// payments, and ends the kyoku. The dealer keeps the deal when tenpai.
func (k *Kyoku) settleExhaustive() {
	res := &Result{End: EndExhaustive, Before: k.scores}
	nagashi := false
	n := Seat(k.n())
	for s := Seat(0); s < n; s++ {
		res.Tenpai[s] = k.p[s].declared == Tenpai
		if !k.rules.NoNagashi && k.p[s].nagashi && k.p[s].discards > 0 {
			res.Nagashi[s] = true
			nagashi = true
		}
	}
	if nagashi {
		for s := Seat(0); s < n; s++ {
			if !res.Nagashi[s] {
				continue
			}
			for o := Seat(0); o < n; o++ {
				if o == s {
					continue
				}
				pay := 2000
				if o == k.oya || s == k.oya {
					pay = 4000
				}
				res.Deltas[o] -= pay
				res.Deltas[s] += pay
			}
		}
	} else {
		tenpai := 0
		for _, t := range res.Tenpai {
			if t {
				tenpai++
			}
		}
		// The noten players pay 1000 per opponent in all (3000 with four
		// players, 2000 in sanma), shared by the tenpai players.
		pool := 1000 * (int(n) - 1)
		if tenpai > 0 && tenpai < int(n) {
			for s := Seat(0); s < n; s++ {
				if res.Tenpai[s] {
					res.Deltas[s] += pool / tenpai
				} else {
					res.Deltas[s] -= pool / (int(n) - tenpai)
				}
			}
		}
	}
	for s := range k.scores {
		k.scores[s] += res.Deltas[s]
	}
	// Tenpai renchan (Tenhou); under RenchanAgari the deal passes.
	res.Renchan = res.Tenpai[k.oya] && !k.rules.RenchanAgari
	k.finish(res)
}
