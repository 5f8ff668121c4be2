package lab

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/cheat"
	"github.com/mentalmj/mentalmj/rules"
)

// rulesStrategies are the cheats whose illegality the house rules decide:
// the swap call the kuikae switch forbids, and wins the hand's yaku (under
// the preset's kuitan, red fives and the rest) do not make.
var rulesStrategies = []string{"kuikae", "false-ron", "false-tsumo"}

// redFives says which presets play red fives, from their rulebooks, not
// from package rules: Tenhou's ranked lobbies, Mahjong Soul and M-League
// play one red five per suit; WRC and the EMA RCR (2016) play none.
var redFives = map[string]bool{"tenhou": true, "majsoul": true, "mleague": true, "wrc": false, "ema": false}

// goType reads the type attribute of an mjlog's <GO> tag (Tenhou's
// layout: bit 0x02 set means no red fives).
var goType = regexp.MustCompile(`<GO type="(\d+)"`)

// TestRulesPresets runs, for each house rules preset (mentalmj lab --rules
// PRESET), the honest control and the cheats that involve the rules, and
// holds the protocol to its promise under every preset: the control has no
// verdict; each cheater is blamed, with signed evidence, at once; the swap
// call is blamed for kuikae; no honest player is named. The control's
// record shows that the nodes played the preset (its red fives, as the
// GO tag's type bit 0x02 says them).
func TestRulesPresets(t *testing.T) {
	if testing.Short() {
		t.Skip("the presets run 20 tables of four processes")
	}
	bin := buildBinary(t)
	var strategies []cheat.Strategy
	for _, name := range rulesStrategies {
		s, err := cheat.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		strategies = append(strategies, s)
	}
	for _, preset := range rules.PresetNames() {
		t.Run(preset, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
			defer cancel()
			dir := t.TempDir()
			m, err := Run(ctx, Config{Binary: bin, Dir: dir, Strategies: strategies, Timeout: 3 * time.Second, Rules: Flags(preset, nil)})
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Control.Blamed) > 0 || len(m.Control.Faults) > 0 || m.Control.Caught != "not caught" {
				t.Errorf("control table: %+v", m.Control)
			}
			checkPresetRecord(t, filepath.Join(dir, "control-0", "player-0.mjlog"), preset)
			if len(m.Strategies) != len(strategies) {
				t.Fatalf("%d rows, want %d", len(m.Strategies), len(strategies))
			}
			for _, r := range m.Strategies {
				switch {
				case r.FalseBlames > 0 || r.FalseFaults > 0:
					t.Errorf("%s: %d false blames, %d false faults: %+v", r.Strategy, r.FalseBlames, r.FalseFaults, r)
				case !r.CheaterNamed || len(r.Blamed) == 0:
					t.Errorf("%s: cheater not blamed: %+v", r.Strategy, r)
				case r.Caught != "at once":
					t.Errorf("%s: caught %s, want at once", r.Strategy, r.Caught)
				}
				if r.Strategy == "kuikae" {
					checkKuikaeBlame(t, filepath.Join(dir, "kuikae-0"), r.Reasons)
				}
			}
			var b strings.Builder
			m.WriteText(&b)
			t.Log("\n" + b.String())
		})
	}
}

// checkPresetRecord checks that the mjlog at path was played with or
// without red fives as the preset's rulebook says.
func checkPresetRecord(t *testing.T, path, preset string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("control record: %v", err)
		return
	}
	mm := goType.FindSubmatch(b)
	if mm == nil {
		t.Errorf("%s: no <GO type=...> tag", path)
		return
	}
	typ, _ := strconv.Atoi(string(mm[1]))
	if noRed := typ&0x02 != 0; noRed == redFives[preset] {
		t.Errorf("%s: GO type %#x, but the %s rules play red fives: %v", path, typ, preset, redFives[preset])
	}
}

// checkKuikaeBlame checks that an honest node of the table in dir proved
// the swap call: its log says the discard broke the kuikae rule.
func checkKuikaeBlame(t *testing.T, dir string, reasons []string) {
	t.Helper()
	for _, p := range []string{"player-0", "player-2", "player-3"} {
		b, _ := os.ReadFile(filepath.Join(dir, p+".log"))
		for _, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, "cheating proven") && strings.Contains(line, "kuikae") {
				return
			}
		}
	}
	t.Errorf("kuikae: blamed for %q, but no honest node's log says the discard broke the kuikae rule", reasons)
}
