package cheat

import (
	"slices"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// kuitanWin plays for an open all-simples hand (kuitan rush) and declares
// the win as soon as its hand is complete in shape, whatever the table's
// rules say of it: tanyao in an open hand (喰いタン). It calls every chi or
// pon of a simple tile, discards its terminals and honors first (among
// the discards the kuikae rule leaves legal), and declares tsumo or ron
// on the first complete open hand of simples only. Under kuitan=on (every
// preset) that win is legal, the same the honest engine offers; under
// --rule kuitan=off an open hand has no tanyao, so unless it holds
// another yaku (toitoi, sanshoku, a dora is no yaku) the signed win is a claim the hand does not make and honest nodes blame it.
// Its opportunity arises by chance (the deck is shuffled fairly): a lab
// run of a few hands may see none.
type kuitanWin struct {
	protocol.Honest
	done bool
	// called is the number of melds it held when it last answered a
	// call, -1 when it did not: a turn right after its call has no
	// drawn tile, so no tsumo.
	called int
	// passed is set when it let a tile that completes its hand go by (one
	// with a terminal or honor: no open tanyao) since its last turn: the
	// hand is then in temporary furiten, and a ron would be illegal under
	// any rules, not only under kuitan=off.
	passed bool
}

// allSimples reports whether every tile in tiles and in melds is a simple
// (2–8 of a suit).
func allSimples(tiles []wall.Tile, melds []game.Meld) bool {
	simple := func(t wall.Tile) bool { return !t.Kind().IsHonor() && !t.Kind().IsTerminal() }
	for _, m := range melds {
		if slices.ContainsFunc(m.Tiles, func(t wall.Tile) bool { return !simple(t) }) {
			return false
		}
	}
	return !slices.ContainsFunc(tiles, func(t wall.Tile) bool { return !simple(t) })
}

// openKuitan reports whether tiles (the concealed hand, with the winning
// tile) and melds make a complete open hand of simples only.
func openKuitan(tiles []wall.Tile, melds []game.Meld) bool {
	open := slices.ContainsFunc(melds, func(m game.Meld) bool { return m.Type != riichi.Ankan })
	if !open || !allSimples(tiles, melds) {
		return false
	}
	c := riichi.CountsOf(tiles)
	return c.Total() == 14-3*len(melds) && riichi.Complete(&c, len(melds))
}

func (k *kuitanWin) Act(v *game.Kyoku, s game.Seat, chosen game.Action) (game.Action, bool) {
	if k.done {
		return chosen, false
	}
	tiles, _ := v.Hand(s)
	melds := v.Melds(s)
	legal := v.LegalActions(s)
	switch v.Phase() {
	case game.PhaseResponse:
		t, _, _, _, ok := v.Offer()
		if !ok || v.OfferIsKita() || slices.Contains(tiles, game.Unknown) {
			return chosen, false
		}
		with := append(slices.Clone(tiles), t)
		if openKuitan(with, melds) && !k.passed && !furiten(v, s, tiles, len(melds)) {
			k.done = true
			return game.Action{Type: game.Ron}, true
		}
		if c := riichi.CountsOf(with); c.Total() == 14-3*len(melds) && riichi.Complete(&c, len(melds)) && chosen.Type != game.Ron {
			k.passed = true
		}
		if chosen.Type == game.Ron || t.Kind().IsHonor() || t.Kind().IsTerminal() {
			return chosen, false
		}
		// A pon first, then a chi, of simples only, that brings the hand
		// nearer tenpai.
		for _, typ := range []game.ActionType{game.Pon, game.Chi} {
			i := slices.IndexFunc(legal, func(a game.Action) bool {
				return a.Type == typ && allSimples(a.Tiles, nil) && callGains(tiles, len(melds), a)
			})
			if i >= 0 {
				k.called = len(melds)
				return legal[i], true
			}
		}
	case game.PhaseTurn:
		if v.Turn() != s || slices.Contains(tiles, game.Unknown) {
			return chosen, false
		}
		afterCall := k.called >= 0 && len(melds) == k.called+1
		k.called, k.passed = -1, false
		if !afterCall && openKuitan(tiles, melds) {
			k.done = true
			return game.Action{Type: game.TsumoAgari}, true
		}
		if chosen.Type != game.Discard || chosen.Riichi {
			return chosen, false
		}
		if a, ok := kuitanDiscard(tiles, len(melds), legal); ok {
			return a, true
		}
	}
	return chosen, false
}

// kuitanDiscard picks, among the legal plain discards, a terminal or
// honor first, then the simple that leaves the hand (tiles, with melds
// declared melds) the fewest tiles from tenpai (riichi.Shanten).
func kuitanDiscard(tiles []wall.Tile, melds int, legal []game.Action) (game.Action, bool) {
	best, bestScore := game.Action{}, 1<<30
	for _, a := range legal {
		if a.Type != game.Discard || a.Riichi {
			continue
		}
		i := slices.Index(tiles, a.Tile)
		if i < 0 {
			continue
		}
		rest := slices.Delete(slices.Clone(tiles), i, i+1)
		c := riichi.CountsOf(rest)
		score := riichi.Shanten(&c, melds)
		if a.Tile.Kind().IsHonor() || a.Tile.Kind().IsTerminal() {
			score -= 100
		}
		if score < bestScore {
			best, bestScore = a, score
		}
	}
	return best, bestScore < 1<<30
}

// callGains reports whether the call a (its Tiles taken from the
// concealed tiles, with melds declared melds) and the best discard after
// it leave the hand fewer tiles from tenpai than it is now
// (riichi.Shanten): a call that breaks a tenpai or gains nothing is not
// made.
func callGains(tiles []wall.Tile, melds int, a game.Action) bool {
	c := riichi.CountsOf(tiles)
	now := riichi.Shanten(&c, melds)
	rest := slices.DeleteFunc(slices.Clone(tiles), func(t wall.Tile) bool { return slices.Contains(a.Tiles, t) })
	for i := range rest {
		after := riichi.CountsOf(slices.Delete(slices.Clone(rest), i, i+1))
		if riichi.Shanten(&after, melds+1) < now {
			return true
		}
	}
	return false
}

// furiten reports whether seat s's river holds a kind that the concealed
// tiles (13-3*melds) wait on: a ron is then illegal under any rules, and
// kuitanWin wants a claim that only the kuitan switch decides.
func furiten(v *game.Kyoku, s game.Seat, tiles []wall.Tile, melds int) bool {
	c := riichi.CountsOf(tiles)
	waits := riichi.Waits(&c, melds)
	return slices.ContainsFunc(v.River(s), func(r game.RiverTile) bool { return slices.Contains(waits, r.Tile.Kind()) })
}
