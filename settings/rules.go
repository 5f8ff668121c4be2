package settings

import (
	"fmt"
	"strings"
)

// Rules are a table's house rules: a preset and the switches set on top
// of it. (Stand-in until package rules lands: only the "tenhou" preset,
// no switches.)
type Rules struct {
	preset string
}

// DefaultRules returns the default preset, "tenhou".
func DefaultRules() Rules { return Rules{preset: "tenhou"} }

// ParseRules returns the rules of a preset with switches applied in
// order; an error wrapping ErrUnknown for a preset or switch this build
// does not know.
func ParseRules(preset string, switches []string) (Rules, error) {
	if preset != "tenhou" {
		return Rules{}, fmt.Errorf("%w: rules preset %q (known: tenhou)", ErrUnknown, preset)
	}
	if len(switches) > 0 {
		return Rules{}, fmt.Errorf("%w: rule switches %s", ErrUnknown, strings.Join(switches, " "))
	}
	return Rules{preset: preset}, nil
}

// Preset returns the preset's name.
func (r Rules) Preset() string { return r.preset }

// Switches returns the canonical switches.
func (r Rules) Switches() []string { return nil }

// Summary returns the rules for a player to read.
func (r Rules) Summary() string { return "Tenhou rules (red fives, open tanyao)" }

// Apply sets one switch, "NAME=VALUE" (the --rule flag).
func (r *Rules) Apply(assign string) error {
	return fmt.Errorf("%w: rule switch %q (no switches yet)", ErrUnknown, assign)
}

// PresetNames lists the known presets.
func PresetNames() []string { return []string{"tenhou"} }
