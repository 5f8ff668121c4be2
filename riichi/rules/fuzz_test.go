package rules

import (
	"strings"
	"testing"
)

// FuzzParse: the wire form comes from peers, so Parse must never panic,
// and whatever it accepts must be a playable set that survives its own
// canonical form.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"tenhou|aka=0", "mleague|uma=30,10,-10,-30;tobi=off", "wrc|west-target=return", "ema|honba=1500", "x|y=z", "tenhou|aka=", "tenhou|uma=1,,2,3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		preset, rest, _ := strings.Cut(in, "|")
		var sw []string
		if rest != "" {
			sw = strings.Split(rest, ";")
		}
		s, err := Parse(preset, sw)
		if err != nil {
			return
		}
		if err := s.Check(); err != nil {
			t.Fatalf("Parse(%q) accepted an unplayable set: %v", in, err)
		}
		back, err := Parse(s.Preset, s.Switches())
		if err != nil || back != s {
			t.Fatalf("Parse(%q): canonical form %v does not round-trip: %v", in, s.Switches(), err)
		}
		_ = s.Summary()
		_ = s.Game(3, true)
		_ = s.Game(4, false)
	})
}
