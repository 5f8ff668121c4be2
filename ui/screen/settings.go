package screen

import (
	"strings"

	"github.com/mentalmj/mentalmj/riichi/rules"
	"github.com/mentalmj/mentalmj/riichi/settings"
	"github.com/mentalmj/mentalmj/ui/i18n"
)

// SettingsMsg is a game's settings in words as a message (i18n.Msg)
// whose English is settings.Settings.Summary's line ("4 players, hanchan,
// Tenhou rules (red fives, open tanyao), 5+10 s per decision") and whose
// Japanese reads 4人打ち、半荘戦、天鳳ルール（赤あり、喰いタンあり）、1手5+10秒.
// Rule switches that differ from the preset ("tobi=off") stay as typed.
func SettingsMsg(s settings.Settings) i18n.Msg {
	length := any(i18n.M("game." + s.Length()))
	switch {
	case s.Hands == 1:
		length = i18n.M("game.one_hand", length)
	case s.Hands > 1:
		length = i18n.M("game.hands", s.Hands, length)
	}
	time := i18n.M("game.no_time")
	if !s.Time.IsOff() {
		time = i18n.M("game.time", s.Time.String())
	}
	parts := []any{i18n.M("game.players", s.Players), length, rulesMsg(s.Rules), time}
	if s.NoProofs {
		parts = append(parts, i18n.M("game.no_proofs"))
	} else if s.ProofSystem() != settings.ProofsLog {
		parts = append(parts, i18n.M("game.proofs", s.ProofSystem()))
	}
	if s.PrivateHands {
		parts = append(parts, i18n.M("game.private"))
	}
	if s.NoPipeline {
		parts = append(parts, i18n.M("game.no_pipeline"))
	}
	return i18n.List("list.sep", parts...)
}

// rulesMsg is rules.Set.Summary as a message.
func rulesMsg(s rules.Set) i18n.Msg {
	var aka i18n.Msg
	switch s.Aka {
	case 0:
		aka = i18n.M("game.no_red")
	case 3:
		aka = i18n.M("game.red")
	default:
		aka = i18n.M("game.n_red", s.Aka)
	}
	kuitan := i18n.M("game.no_kuitan")
	if s.Kuitan {
		kuitan = i18n.M("game.kuitan")
	}
	inner := i18n.List("list.sep", aka, kuitan)
	if base, err := rules.Preset(s.Preset); err == nil {
		var diff []any
		have, want := s.Switches(), base.Switches()
		for i := range have {
			if have[i] != want[i] && !strings.HasPrefix(have[i], "aka=") && !strings.HasPrefix(have[i], "kuitan=") {
				diff = append(diff, have[i])
			}
		}
		if len(diff) > 0 {
			inner = i18n.Join(inner, i18n.M("list.semi"), i18n.List("list.sep", diff...))
		}
	}
	title := any(s.Title())
	if _, err := rules.Preset(s.Preset); err == nil {
		title = i18n.M("preset." + s.Preset)
	}
	return i18n.M("game.rules", title, inner)
}
