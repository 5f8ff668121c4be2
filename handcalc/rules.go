package handcalc

import (
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/rules"
)

// RulesNames returns the rules presets a Request may name
// (rules.PresetNames: tenhou, majsoul, mleague, wrc, ema).
func RulesNames() []string { return rules.PresetNames() }

// handRules returns the hand-evaluation rules of preset name ("" is
// "tenhou") with switches ("NAME=VALUE", rules.Set.Apply) applied in
// order, for 4 or 3 players (rules.Set.Game). Errors wrap ErrMalformed
// and list the valid presets, switch names or values.
func handRules(name string, switches []string, players int) (riichi.Rules, error) {
	set, err := rules.Parse(name, switches)
	if err != nil {
		return riichi.Rules{}, malformed("%v", err)
	}
	return set.Game(players, true).Hand, nil
}
