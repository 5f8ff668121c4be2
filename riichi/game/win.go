package game

import (
	"errors"
	"fmt"
	"slices"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// winEval is an evaluated (legal) win waiting to be paid.
type winEval struct {
	seat, from Seat
	tsumo      bool
	chankan    bool
	ctx        riichi.WinContext
	value      riichi.WinResult
	melds      []Meld
}

// furitenMask returns the kinds seat s is furiten on: its own discards,
// the tiles passed since its last discard (temporary furiten) and, in
// riichi, every tile passed since the declaration.
func (k *Kyoku) furitenMask(s Seat) uint64 {
	p := &k.p[s]
	m := p.discarded | p.passed
	if p.riichi != noRiichi {
		m |= p.riichiPassed
	}
	return m
}

// FuritenKinds returns, as a bit mask over tile kinds (bit k for kind k,
// 0..33), the kinds seat s may not ron: its own discards, the tiles
// passed since its last discard (temporary furiten) and, in riichi, every
// tile passed since the declaration (Tenhou's three furiten). All of it
// is public, so a view with hidden tiles gives the same mask; 0 for an
// invalid seat.
func (k *Kyoku) FuritenKinds(s Seat) uint64 {
	if !s.Valid() || int(s) >= len(k.p) {
		return 0
	}
	return k.furitenMask(s)
}

// evalWin checks and evaluates a win of seat s on tile t (tsumo: the drawn
// tile, already in the hand; ron: the tile on offer). It returns the
// reason the win is illegal, or "".
//
// With value false only legality is checked (the ura-dora indicators are
// not needed: they never decide whether a hand has a yaku); with value true
// a riichi winner's ura indicators must be known and the result is the
// value to pay.
func (k *Kyoku) evalWin(s Seat, t wall.Tile, tsumo, chankan, value bool) (winEval, string) {
	p := &k.p[s]
	if p.unknown > 0 {
		return winEval{}, "hand not revealed"
	}
	if t == Unknown {
		return winEval{}, "winning tile not revealed"
	}
	c := p.counts
	if !tsumo {
		c[t.Kind()]++
	}
	if !isComplete(&c, len(p.melds)) {
		return winEval{}, fmt.Sprintf("hand is not complete with %s", t)
	}
	if !tsumo {
		if k.waits(s)&k.furitenMask(s) != 0 {
			return winEval{}, "furiten"
		}
	}
	hand := make([]wall.Tile, 0, 14)
	for _, pos := range p.hand {
		hand = append(hand, k.known[pos])
	}
	if !tsumo {
		hand = append(hand, t)
	}
	melds := make([]riichi.Meld, len(p.melds))
	for i, m := range p.melds {
		melds[i] = m.Meld
	}
	dora := k.DoraIndicators()
	if slices.Contains(dora, Unknown) {
		return winEval{}, "dora indicators not revealed"
	}
	accepted := p.riichi == riichiAccepted
	ctx := riichi.WinContext{
		Hand:           hand,
		Melds:          melds,
		WinTile:        t,
		Tsumo:          tsumo,
		SeatWind:       k.wind(s),
		RoundWind:      wall.Kind(27 + (k.round/4)%4),
		Riichi:         accepted,
		DoubleRiichi:   accepted && p.doubleRiichi,
		Ippatsu:        accepted && p.ippatsu,
		Haitei:         tsumo && !k.rinshanTurn && k.liveLeft() == 0,
		Houtei:         !tsumo && !chankan && k.liveLeft() == 0,
		Rinshan:        tsumo && k.rinshanTurn,
		Chankan:        chankan,
		Tenhou:         tsumo && s == k.oya && p.discards == 0 && !k.anyCall,
		Chiihou:        tsumo && s != k.oya && p.discards == 0 && !k.anyCall,
		DoraIndicators: dora,
		Nukidora:       len(p.kita),
		Honba:          k.honba,
		RiichiSticks:   k.kyotaku,
		Rules:          k.rules.Hand,
	}
	if accepted && value {
		_, ura := k.DoraPositions()
		for _, pos := range ura {
			ctx.UraIndicators = append(ctx.UraIndicators, k.known[pos])
		}
		if slices.Contains(ctx.UraIndicators, Unknown) {
			// Legality does not depend on ura dora; the value does, so a
			// riichi win cannot be paid before the ura indicators are known.
			return winEval{}, fmt.Sprintf("ura-dora indicators (yama %v) not revealed", ura)
		}
	}
	v, err := riichi.Score(ctx)
	if err != nil {
		if errors.Is(err, riichi.ErrNoYaku) {
			return winEval{}, "no yaku"
		}
		return winEval{}, err.Error()
	}
	if chankan && k.phase == PhaseResponse && k.offer.kind == offerAnkan &&
		!slices.Contains(v.Yakuman, riichi.YakuKokushi) && !slices.Contains(v.Yakuman, riichi.YakuKokushi13) {
		return winEval{}, "only kokushi musou may rob an ankan"
	}
	from := s
	if !tsumo {
		from = k.offer.from
	}
	return winEval{seat: s, from: from, tsumo: tsumo, chankan: chankan, ctx: ctx, value: v, melds: slices.Clone(p.melds)}, ""
}

// waits returns the kinds completing seat s's concealed hand (13 - 3·melds
// tiles, fully known), cached until the hand changes.
func (k *Kyoku) waits(s Seat) uint64 {
	p := &k.p[s]
	if !p.waitsValid {
		p.waits = waitMask(riichi.Waits(&p.counts, len(p.melds)))
		p.waitsValid = true
	}
	return p.waits
}

func waitMask(ks []wall.Kind) uint64 {
	var m uint64
	for _, x := range ks {
		m |= kindBit(x)
	}
	return m
}

// honbaRon is what one honba stick adds to a ron: Hand.HonbaValue (300 on
// Tenhou) in four-player, two thirds of it in three-player mahjong.
func (k *Kyoku) honbaRon() int {
	return k.rules.Hand.HonbaValue() / 3 * (k.n() - 1)
}

// yakumanValue is the value of one yakuman: 48000 for the dealer, 32000
// otherwise.
func (k *Kyoku) yakumanValue(s Seat) int {
	if s == k.oya {
		return 48000
	}
	return 32000
}

// settleWins pays the wins (one tsumo, or one or two rons in turn order
// from the discarder) and ends the kyoku. The first winner takes honba and
// the riichi sticks.
func (k *Kyoku) settleWins(ws []winEval) {
	res := &Result{End: EndAgari, Honba: k.honba, Before: k.scores}
	for i, w := range ws {
		honba := k.honba
		sticks := k.kyotaku
		v := w.value
		if i > 0 {
			honba, sticks = 0, 0
			v.Pay.Ron -= k.honbaRon() * k.honba
		}
		win := Win{
			Seat: w.seat, From: w.from, Tsumo: w.tsumo, Chankan: w.chankan,
			Hand: w.ctx.Hand, Melds: w.melds, WinTile: w.ctx.WinTile,
			DoraIndicators: w.ctx.DoraIndicators, UraIndicators: w.ctx.UraIndicators,
			Value: v, Pao: NoSeat, Before: k.scores,
		}
		p := &k.p[w.seat]
		if p.paoDragon != NoSeat && slices.Contains(v.Yakuman, riichi.YakuDaisangen) {
			win.Pao = p.paoDragon
		} else if p.paoWind != NoSeat && slices.Contains(v.Yakuman, riichi.YakuDaisuushii) {
			win.Pao = p.paoWind
		}
		d := &win.Deltas
		switch {
		case win.Pao != NoSeat && win.Pao != w.from:
			// Sekinin barai: one yakuman is the liable player's; the rest
			// is paid as usual.
			base := k.yakumanValue(w.seat)
			rest := v.Points - base
			if w.tsumo {
				d[win.Pao] -= base + k.honbaRon()*honba
				if rest > 0 {
					for o := Seat(0); o < Seat(k.n()); o++ {
						if o == w.seat {
							continue
						}
						share := rest / 4
						if w.seat == k.oya {
							share = rest / 3
						} else if o == k.oya {
							share = rest / 2
						}
						d[o] -= share
					}
				}
			} else {
				d[win.Pao] -= base / 2
				d[w.from] -= base/2 + rest + k.honbaRon()*honba
			}
		case w.tsumo:
			for o := Seat(0); o < Seat(k.n()); o++ {
				if o == w.seat {
					continue
				}
				if o == k.oya {
					d[o] -= v.Pay.TsumoDealer
				} else {
					d[o] -= v.Pay.TsumoNonDealer
				}
			}
		default:
			d[w.from] -= v.Pay.Ron
		}
		got := 0
		for o := range d {
			got -= d[o]
		}
		d[w.seat] += got + 1000*sticks
		for o := range d {
			k.scores[o] += d[o]
			res.Deltas[o] += d[o]
		}
		res.Wins = append(res.Wins, win)
		if w.seat == k.oya {
			res.Renchan = true
		}
	}
	k.kyotaku = 0
	k.finish(res)
}

func (k *Kyoku) finish(res *Result) {
	res.Scores = k.scores
	res.Kyotaku = k.kyotaku
	res.Honba = k.honba
	k.result = res
	k.phase = PhaseEnd
}
