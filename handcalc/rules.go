package handcalc

import (
	"strings"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// RulesNames returns the rules presets a Request may name.
func RulesNames() []string { return []string{"tenhou"} }

// handRules returns the hand-evaluation rules of preset name ("" is
// "tenhou") for 4 or 3 players: Tenhou's ari-ari rules (game.TenhouRules,
// game.TenhouSanmaRules with red fives and open tanyao).
func handRules(name string, players int) (riichi.Rules, error) {
	switch strings.ToLower(name) {
	case "", "tenhou":
		if players == 3 {
			return game.TenhouSanmaRules(true, true, true).Hand, nil
		}
		return game.TenhouRules(true, true, true).Hand, nil
	}
	return riichi.Rules{}, malformed("rules %q: unknown preset; valid: %s", name, strings.Join(RulesNames(), ", "))
}
