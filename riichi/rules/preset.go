package rules

import (
	"fmt"
	"strings"
)

// preset is one named table: its display name and its values.
type preset struct {
	name, title string
	set         func() Set
}

func presets() []preset {
	return []preset{
		{"tenhou", "Tenhou", tenhou},
		{"majsoul", "Mahjong Soul", majsoul},
		{"mleague", "M-League", mleague},
		{"wrc", "WRC", wrc},
		{"ema", "EMA", ema},
	}
}

// PresetNames returns the preset names, the default ("tenhou") first:
// tenhou, majsoul, mleague, wrc, ema.
func PresetNames() []string {
	var out []string
	for _, p := range presets() {
		out = append(out, p.name)
	}
	return out
}

// Preset returns the named preset's rules: "tenhou" (the default),
// "majsoul", "mleague", "wrc" or "ema" (case-insensitive). An unknown name
// returns an error wrapping ErrUnknown that lists the valid names.
func Preset(name string) (Set, error) {
	for _, p := range presets() {
		if strings.EqualFold(p.name, name) {
			s := p.set()
			s.Preset = p.name
			return s, nil
		}
	}
	return Set{}, fmt.Errorf("%w: preset %q; presets: %s", ErrUnknown, name, strings.Join(PresetNames(), ", "))
}

// Default returns the default rules, the tenhou preset.
func Default() Set {
	s, _ := Preset("tenhou")
	return s
}

// Title returns the display name of s's preset ("Tenhou", "M-League").
func (s Set) Title() string {
	for _, p := range presets() {
		if p.name == s.Preset {
			return p.title
		}
	}
	return s.Preset
}
