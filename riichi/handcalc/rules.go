package handcalc

import (
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/rules"
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

// rulesMemo remembers the rules of the last preset resolved without
// switches, so that a stream of requests under one preset (ScoreLines)
// resolves it once.
type rulesMemo struct {
	name    string
	players int
	rules   riichi.Rules
	ok      bool
}

// get is handRules, answered from the memo when it can be; a nil memo
// always resolves.
func (m *rulesMemo) get(name string, switches []string, players int) (riichi.Rules, error) {
	if m == nil || len(switches) > 0 {
		return handRules(name, switches, players)
	}
	if m.ok && m.name == name && m.players == players {
		return m.rules, nil
	}
	r, err := handRules(name, nil, players)
	if err == nil {
		*m = rulesMemo{name: name, players: players, rules: r, ok: true}
	}
	return r, err
}
