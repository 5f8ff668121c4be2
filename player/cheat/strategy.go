package cheat

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mentalmj/mentalmj/protocol"
)

// Expect is the verdict the protocol must reach on a strategy.
type Expect string

const (
	// ExpectBlame: honest nodes blame the cheater, with signed evidence.
	ExpectBlame Expect = "blame"
	// ExpectFault: the cheat leaves no signed evidence (silence, bytes
	// without a valid signature, a replayed copy); honest nodes name the
	// cheater in a fault.
	ExpectFault Expect = "fault"
)

// Strategy is one named cheating strategy.
type Strategy struct {
	// Name is the strategy's name on the command line ("shuffle-replace").
	Name string
	// Doc says in one line what the cheater does.
	Doc string
	// Expect is the verdict the protocol must reach.
	Expect Expect
	// When is the step at which the protocol is expected to catch it: "at
	// once", "end of hand" or "transcript comparison".
	When string
	// Hands is how many hands a lab run plays: enough for the cheat's
	// opportunity to arise (the game stops at the first verdict).
	Hands int
	// Passive makes every player of a lab run play tsumogiri (discard
	// each drawn tile, never call or win), so that the hand reaches its
	// exhaustive draw: the false tenpai claim's opportunity, and a hand the
	// withholder is sure not to win.
	Passive bool
	// Rules are the house-rule switches ("NAME=VALUE", as mentalmj join
	// --rule takes them) a lab run gives every node on top of the table's
	// preset: those under which the strategy's play is illegal (kuitan=off
	// for kuitan-off-win). Empty for the cheats every rule set forbids.
	Rules []string
	// Chance says the cheat's opportunity arises only by the deal (an
	// open all-simples hand completing, a swap call): a lab run of Hands hands may see
	// none, and then ends with no verdict.
	Chance bool
	// New returns a fresh Misbehavior for one game.
	New func() protocol.Misbehavior
}

// All returns every strategy, sorted by name.
func All() []Strategy {
	all := []Strategy{
		strategy("wrong-private-key", "sends a drawer a key that fails its commitment", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &wrongKey{private: true} }),
		strategy("wrong-public-key", "publishes a dora-indicator key that fails its commitment", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &wrongKey{} }),
		strategy("shuffle-drop", "drops a tile from its shuffle pass", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &shuffle{how: drop} }),
		strategy("shuffle-duplicate", "duplicates a tile in its shuffle pass", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &shuffle{how: duplicate} }),
		strategy("shuffle-replace", "replaces a tile of its shuffle pass by another group element", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &shuffle{how: replace} }),
		strategy("shuffle-two-keys", "shuffles half the deck under a second key", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &shuffle{how: twoKeys} }),
		strategy("identity-element", "puts the identity element in its shuffle pass", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &shuffle{how: identity} }),
		strategy("noncanonical-element", "puts a non-canonical encoding in its shuffle pass", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &shuffle{how: noncanonical} }),
		strategy("shuffle-proof-flip", "flips one byte of its shuffle pass's proof", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &shuffleProof{flip: true} }),
		strategy("shuffle-pass-replay", "sends in its second hand the shuffle pass, key commitment and proof of its first", ExpectBlame, "at once", 2, func() protocol.Misbehavior { return &shuffleProof{} }),
		strategy("prepared-deck-swap", "swaps two tiles of its shuffle pass of hand 2, prepared during hand 1, after proving it", ExpectBlame, "at once", 2, func() protocol.Misbehavior { return &preparedSwap{} }),
		strategy("prepared-rekey-replay", "sends as its rekey pass of hand 2, prepared during hand 1, its rekey pass of hand 1 (built on another input)", ExpectBlame, "at once", 2, func() protocol.Misbehavior { return &rekeyReplay{} }),
		byChance(strategy("prepared-wrong-hand", "signs its first pass prepared during a hand's play under the number of the hand in play", ExpectBlame, "at once", 3, func() protocol.Misbehavior { return &wrongHand{} })),
		strategy("rekey-inconsistent", "rekeys one wall position with a factor its commitment does not match", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &rekey{} }),
		strategy("nonce-mismatch", "reveals a seat-and-dice nonce that does not open its commitment", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &nonce{} }),
		strategy("equivocate", "signs two different answers under one sequence number for different peers, each chain kept whole", ExpectBlame, "transcript comparison", 1, func() protocol.Misbehavior { return &equivocate{} }),
		strategy("equivocate-naive", "signs two different answers under one sequence number and chains on from one", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &equivocate{naive: true} }),
		strategy("replay", "sends a copy of its previous signed message instead of the next one", ExpectFault, "at once", 1, func() protocol.Misbehavior { return &envelope{how: replay} }),
		strategy("out-of-turn", "signs a dahai where its nonce reveal is due", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &outOfTurn{} }),
		strategy("forged-signature", "sends a message whose signature does not verify", ExpectFault, "at once", 1, func() protocol.Misbehavior { return &envelope{how: forge} }),
		strategy("stripped-signature", "sends a message without its signature", ExpectFault, "at once", 1, func() protocol.Misbehavior { return &envelope{how: strip} }),
		strategy("dahai-not-held", "discards claiming a tile it does not hold", ExpectBlame, "at once", 3, func() protocol.Misbehavior { return &dahai{} }),
		strategy("call-not-held", "answers pon and shows tiles it does not hold", ExpectBlame, "at once", 8, func() protocol.Misbehavior { return &call{} }),
		byChance(strategy("kuikae", "calls, then at once discards a tile the table's kuikae rule forbids after that call (a swap call)", ExpectBlame, "at once", 8, func() protocol.Misbehavior { return &kuikae{} })),
		passive(underRules(strategy("kuitan-off-win", "plays for open tanyao and declares the win on its first complete open all-simples hand (illegal under --rule kuitan=off)", ExpectBlame, "at once", 8, func() protocol.Misbehavior { return &kuitanWin{called: -1} }), "kuitan=off")),
		strategy("false-tsumo", "declares tsumo agari on a hand that is not complete", ExpectBlame, "at once", 3, func() protocol.Misbehavior { return &falseWin{} }),
		strategy("false-ron", "answers ron to a tile that does not complete its hand", ExpectBlame, "at once", 3, func() protocol.Misbehavior { return &falseWin{ron: true} }),
		passive(strategy("false-tenpai", "declares tenpai at an exhaustive draw on a noten hand", ExpectBlame, "at once", 2, func() protocol.Misbehavior { return &falseTenpai{} })),
		strategy("noten-riichi", "declares riichi on a hand that is not tenpai", ExpectBlame, "end of hand", 4, func() protocol.Misbehavior { return &notenRiichi{} }),
		passive(strategy("withhold-reveal", "withholds its key reveal at the end of a hand it did not win", ExpectFault, "at once", 1, func() protocol.Misbehavior { return &withhold{} })),
		strategy("stall", "falls silent after the seats and dice", ExpectFault, "at once", 1, func() protocol.Misbehavior { return &envelope{how: stall} }),
		strategy("half-answer", "answers a dahai to the next drawer only, then falls silent", ExpectFault, "at once", 2, func() protocol.Misbehavior { return &halfAnswer{} }),
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all
}

func strategy(name, doc string, expect Expect, when string, hands int, new func() protocol.Misbehavior) Strategy {
	return Strategy{Name: name, Doc: doc, Expect: expect, When: when, Hands: hands, New: new}
}

// byChance marks s as a cheat whose opportunity comes only by the deal
// (kuikae: a call that leaves a tile of the called kind in hand).
func byChance(s Strategy) Strategy {
	s.Chance = true
	return s
}

// underRules marks s as a cheat by chance that is one only under the given
// house-rule switches.
func underRules(s Strategy, switches ...string) Strategy {
	s.Rules, s.Chance = switches, true
	return s
}

func passive(s Strategy) Strategy {
	s.Passive = true
	return s
}

// Lookup returns the strategy named name, or an error listing the names.
func Lookup(name string) (Strategy, error) {
	var names []string
	for _, s := range All() {
		if s.Name == name {
			return s, nil
		}
		names = append(names, s.Name)
	}
	return Strategy{}, fmt.Errorf("no cheating strategy %q; the strategies are %s", name, strings.Join(names, ", "))
}
