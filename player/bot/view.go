package bot

import (
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// meld is the part of a declared meld a plan needs: its first kind, whether
// it is a sequence, and whether it opens the hand.
type meld struct {
	kind wall.Kind
	seq  bool
	open bool
}

// view is what one seat knows of a kyoku: its own concealed tiles and
// melds, and every tile shown on the table (rivers, all melds, dora
// indicators). It never reads another seat's concealed tiles, so the bot
// decides the same way whether the engine sees them or not.
type view struct {
	seat   game.Seat
	hand   []wall.Tile   // own concealed tiles, all known
	counts riichi.Counts // histogram of hand
	melds  []meld        // own declared melds in call order
	// unseen[k] is the number of tiles of kind k the seat has not seen:
	// 4 minus those in its hand, in any meld, in any river (called
	// tiles counted once, in their meld) and among the dora indicators.
	unseen [wall.NumKinds]int
	// dora[k] is the number of turned dora indicators pointing at kind k.
	dora [wall.NumKinds]int
	// yakuhai[k] is true for the dragons, the seat wind and the round wind.
	yakuhai [wall.NumKinds]bool
	// reds are the red fives of the table's rules (worth a han each).
	reds wall.Reds
}

// newView collects seat s's view of k; the caller has checked that the
// seat's own concealed tiles are all known to the engine.
func newView(k *game.Kyoku, s game.Seat) *view {
	v := &view{seat: s, reds: k.Rules().Hand.Reds()}
	hand, _ := k.Hand(s)
	v.hand = hand
	v.counts = riichi.CountsOf(hand)
	var seen riichi.Counts = v.counts
	for o := game.Seat(0); o < 4; o++ {
		for _, m := range k.Melds(o) {
			for _, t := range m.Tiles {
				if t != game.Unknown {
					seen[t.Kind()]++
				}
			}
			if o == s {
				v.melds = append(v.melds, meld{kind: m.Kind(), seq: m.Type == riichi.Chi, open: m.Open()})
			}
		}
		for _, r := range k.River(o) {
			if !r.Called && r.Tile != game.Unknown {
				seen[r.Tile.Kind()]++
			}
		}
	}
	for _, ind := range k.DoraIndicators() {
		if ind != game.Unknown {
			seen[ind.Kind()]++
			v.dora[riichi.DoraOf(ind)]++
		}
	}
	for kind := range v.unseen {
		v.unseen[kind] = max(0, 4-seen[kind])
	}
	for kind := wall.Kind(31); kind <= 33; kind++ {
		v.yakuhai[kind] = true
	}
	v.yakuhai[s.Wind(k.Oya())] = true
	v.yakuhai[wall.Kind(27+(k.Round()/4)%4)] = true
	return v
}

// tileValue ranks how much the seat wants to keep tile t, higher kept
// longer: guest-wind honours 0, other honours 1, terminals 2, twos and
// eights 3, other simples 4, plus 10 per dora the kind is and 10 for a
// red five of the table's rules. It only breaks ties between discards of equal shanten and
// ukeire.
func (v *view) tileValue(t wall.Tile) int {
	k := t.Kind()
	var val int
	switch {
	case k.IsHonor() && !v.yakuhai[k]:
		val = 0
	case k.IsHonor():
		val = 1
	case k.IsTerminal():
		val = 2
	case k.Number() == 2 || k.Number() == 8:
		val = 3
	default:
		val = 4
	}
	val += 10 * v.dora[k]
	if v.reds.Has(t) {
		val += 10
	}
	return val
}
