package bot

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"

	"github.com/mentalmj/mentalmj/riichi/game"
)

// ErrNoAction is wrapped by Choose when the seat has no legal action in
// the kyoku's current phase (not its turn, not awaited, or the kyoku is
// waiting for a Draw or is over).
var ErrNoAction = errors.New("bot: no legal action")

// DefaultKyuushuKinds is the default Bot.KyuushuKinds: kyuushu kyuuhai is
// declared with 10 or more distinct terminal and honour kinds; with exactly
// 9 the bot plays on (toward kokushi musou when that is its best shanten).
const DefaultKyuushuKinds = 10

// Bot chooses actions for one seat of a kyoku. It sees the kyoku through
// the engine as that seat sees it: its own concealed tiles (which must be
// revealed to the engine) and what is on the table; it never reads another
// seat's concealed tiles. A Bot holds no state that Choose changes: the
// choice is a pure function of the seed, the exported knobs and the
// kyoku's state, and a Bot may be shared between goroutines.
type Bot struct {
	seed uint64
	// KyuushuKinds is the least number of distinct terminal and honour
	// kinds (9..14) at which the bot declares kyuushu kyuuhai when the
	// engine allows it (it allows it from 9); New sets
	// DefaultKyuushuKinds.
	KyuushuKinds int
	// Calls enables chi, pon and daiminkan (New: true). With Calls false
	// the bot plays closed hands only.
	Calls bool
	// Kans enables ankan, kakan and daiminkan (New: true).
	Kans bool
}

// New returns a bot whose tie-breaks are drawn from a math/rand/v2 PCG
// seeded with seed and a digest of the state, with the default knobs:
// KyuushuKinds = DefaultKyuushuKinds, Calls and Kans enabled.
func New(seed uint64) *Bot {
	return &Bot{seed: seed, KyuushuKinds: DefaultKyuushuKinds, Calls: true, Kans: true}
}

// Choose returns the action seat takes now in k, one of
// k.LegalActions(seat), following the policy in the package
// documentation. k must show seat's own concealed tiles (a player's
// private view, or an engine that knows every tile). It returns an error
// wrapping ErrNoAction when the seat has no legal action, or naming the
// seat's unrevealed tile when the view lacks one of its own tiles. Choose
// does not change k.
func (b *Bot) Choose(k *game.Kyoku, seat game.Seat) (game.Action, error) {
	if hand, pos := k.Hand(seat); slices.Contains(hand, game.Unknown) {
		i := slices.Index(hand, game.Unknown)
		return game.Action{}, fmt.Errorf("bot: seat %d: own tile at yama[%d] not revealed to the engine", int(seat), pos[i])
	}
	acts := k.LegalActions(seat)
	if len(acts) == 0 {
		return game.Action{}, fmt.Errorf("seat %d in phase %s: %w", int(seat), k.Phase(), ErrNoAction)
	}
	// Decisions that need no evaluation. In sanma a north is always set
	// aside as nukidora (kita: one dora, and a replacement draw) rather
	// than kept, as Tenhou players do.
	for _, want := range []game.ActionType{game.TsumoAgari, game.Ron, game.Tenpai, game.Kita} {
		for _, a := range acts {
			if a.Type == want {
				return a, nil
			}
		}
	}
	if len(acts) == 1 {
		return acts[0], nil
	}
	v := newView(k, seat)
	r := b.rand(k, v)
	if k.Phase() == game.PhaseResponse {
		return b.chooseResponse(v, acts, r), nil
	}
	// Own turn.
	for _, a := range acts {
		if a.Type == game.KyuushuKyuuhai && yaochuuKinds(&v.counts) >= b.KyuushuKinds {
			return a, nil
		}
	}
	if a, ok := b.chooseKan(v, acts, k.Riichi(seat)); ok {
		return a, nil
	}
	for _, a := range acts {
		if a.Type == game.Discard && a.Riichi {
			return v.chooseRiichi(acts, r), nil
		}
	}
	return v.chooseDiscard(acts, r), nil
}

// rand returns the tie-break source for one decision: a PCG seeded with the
// bot's seed and an FNV-1a digest of the public position (phase, draws,
// river lengths, tile on offer) and the seat's own hand, so equal states
// give equal choices.
func (b *Bot) rand(k *game.Kyoku, v *view) *rand.Rand {
	h := fnv.New64a()
	var buf []byte
	put := func(x int) { buf = binary.LittleEndian.AppendUint64(buf, uint64(x)) }
	put(int(v.seat))
	put(int(k.Phase()))
	live, rinshan := k.Draws()
	put(live)
	put(rinshan)
	for s := game.Seat(0); s < 4; s++ {
		put(len(k.River(s)))
		put(len(k.Melds(s)))
	}
	if t, _, _, _, ok := k.Offer(); ok {
		put(int(t))
	}
	for _, t := range v.hand {
		put(int(t))
	}
	h.Write(buf)
	return rand.New(rand.NewPCG(b.seed, h.Sum64()))
}
