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
	// New returns a fresh Misbehavior for one game.
	New func() protocol.Misbehavior
}

// All returns every strategy, sorted by name.
func All() []Strategy {
	all := []Strategy{
		{"wrong-private-key", "sends a drawer a key that fails its commitment", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &wrongKey{private: true} }},
		{"wrong-public-key", "publishes a dora-indicator key that fails its commitment", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &wrongKey{} }},
		{"shuffle-drop", "drops a tile from its shuffle pass", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &shuffle{how: drop} }},
		{"shuffle-duplicate", "duplicates a tile in its shuffle pass", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &shuffle{how: duplicate} }},
		{"shuffle-replace", "replaces a tile of its shuffle pass by another group element", ExpectBlame, "end of hand", 1, func() protocol.Misbehavior { return &shuffle{how: replace} }},
		{"shuffle-two-keys", "shuffles half the deck under a second key", ExpectBlame, "end of hand", 1, func() protocol.Misbehavior { return &shuffle{how: twoKeys} }},
		{"identity-element", "puts the identity element in its shuffle pass", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &shuffle{how: identity} }},
		{"noncanonical-element", "puts a non-canonical encoding in its shuffle pass", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &shuffle{how: noncanonical} }},
		{"rekey-inconsistent", "rekeys one wall position with a factor its commitment does not match", ExpectBlame, "end of hand", 1, func() protocol.Misbehavior { return &rekey{} }},
		{"nonce-mismatch", "reveals a seat-and-dice nonce that does not open its commitment", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &nonce{} }},
		{"equivocate", "signs two different answers under one sequence number for different peers", ExpectBlame, "transcript comparison", 1, func() protocol.Misbehavior { return &equivocate{} }},
		{"replay", "sends a copy of its previous signed message instead of the next one", ExpectFault, "at once", 1, func() protocol.Misbehavior { return &envelope{how: replay} }},
		{"out-of-turn", "signs a dahai where its nonce reveal is due", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &outOfTurn{} }},
		{"forged-signature", "sends a message whose signature does not verify", ExpectFault, "at once", 1, func() protocol.Misbehavior { return &envelope{how: forge} }},
		{"stripped-signature", "sends a message without its signature", ExpectFault, "at once", 1, func() protocol.Misbehavior { return &envelope{how: strip} }},
		{"dahai-not-held", "discards claiming a tile it does not hold", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &dahai{} }},
		{"call-not-held", "answers pon and shows tiles it does not hold", ExpectBlame, "at once", 8, func() protocol.Misbehavior { return &call{} }},
		{"false-tsumo", "declares tsumo agari on a hand that is not complete", ExpectBlame, "at once", 1, func() protocol.Misbehavior { return &falseWin{} }},
		{"false-ron", "answers ron to a tile that does not complete its hand", ExpectBlame, "at once", 2, func() protocol.Misbehavior { return &falseWin{ron: true} }},
		{"false-tenpai", "declares tenpai at an exhaustive draw on a noten hand", ExpectBlame, "at once", 12, func() protocol.Misbehavior { return &falseTenpai{} }},
		{"noten-riichi", "declares riichi on a hand that is not tenpai", ExpectBlame, "end of hand", 2, func() protocol.Misbehavior { return &notenRiichi{} }},
		{"withhold-reveal", "withholds its key reveal at the end of a hand it did not win", ExpectFault, "at once", 1, func() protocol.Misbehavior { return &withhold{} }},
		{"stall", "falls silent after the seats and dice", ExpectFault, "at once", 1, func() protocol.Misbehavior { return &envelope{how: stall} }},
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all
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
