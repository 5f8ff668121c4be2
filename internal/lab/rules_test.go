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

	"github.com/mentalmj/mentalmj/player/cheat"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/rules"
)

// rulesStrategies are the cheats whose illegality the house rules decide:
// the swap call the kuikae switch forbids, and wins the hand's yaku (under
// the preset's kuitan, red fives and the rest) do not make.
var rulesStrategies = []string{"kuikae", "false-ron", "false-tsumo"}

// redFives says which presets play red fives, from their rulebooks, not
// from package riichi/rules: Tenhou's ranked lobbies, Mahjong Soul and M-League
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
				case r.Strategy == "kuikae" && r.Caught == "not caught" && len(r.Faults) == 0:
					// Its chance comes from the deal: a call that leaves a
					// tile of the called kind in hand. No swap, no cheat
					// (a fresh-clone CI run under ema found none in its
					// hands); TestKuikaeAllowed and the other presets
					// cover the verdict.
					t.Logf("kuikae: no swap call came up in this table's hands: nothing to catch")
					continue
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
		want := "red fives"
		if !redFives[preset] {
			want = "no red fives"
		}
		t.Errorf("%s: GO type %#x (bit 0x02: no red fives), but the %s rules play %s", path, typ, preset, want)
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

// TestKuikaeAllowed is the switch's other side: under --rule
// kuikae=allowed (Tenhou's unranked lobbies allow the swap) the kuikae
// strategy's swap discard is legal, so the same play is no cheat and must
// get no verdict at all. The record (package record/mjlog) shows the swap: a chi
// or pon followed by its caller's discard of the called kind.
func TestKuikaeAllowed(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a table of four processes")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	tb, err := runTable(ctx, bin, dir, spec{hands: 6, timeout: 3 * time.Second, cheats: map[int]string{1: "kuikae"}, rules: Flags("tenhou", []string{"kuikae=allowed"})})
	if err != nil {
		t.Fatal(err)
	}
	r := Result{Blamed: []string{}, Faults: []string{}, CheaterNamed: true}
	r.judge(tb, "none")
	if len(r.Blamed) > 0 || len(r.Faults) > 0 {
		t.Errorf("a swap call under kuikae=allowed got a verdict: blamed %v, faults %v, reasons %q", r.Blamed, r.Faults, r.Reasons)
	}
	for _, p := range tb.players {
		if p.code != 0 {
			t.Errorf("%s exited %d (see %s.log)", p.Name, p.code, filepath.Join(dir, p.Name))
		}
	}
	g, err := mjlog.Read(filepath.Join(dir, "player-0.mjlog"))
	if err != nil {
		t.Fatal(err)
	}
	swaps := 0
	for _, round := range g.Rounds {
		for i := 1; i < len(round.Events); i++ {
			c, ok := round.Events[i-1].(mjlog.Call)
			d, ok2 := round.Events[i].(mjlog.Discard)
			if ok && ok2 && (c.Meld.Type == riichi.Chi || c.Meld.Type == riichi.Pon) && d.Who == c.Who && d.Tile.Kind() == c.Meld.Called.Kind() {
				swaps++
			}
		}
	}
	t.Logf("%d swap calls in %d hands, no verdict", swaps, len(g.Rounds))
	if swaps == 0 && !t.Failed() {
		t.Skip("no swap call arose in 6 hands (the cheater never held the called kind after a call): nothing tested")
	}
}
