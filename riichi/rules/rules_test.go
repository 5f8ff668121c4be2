package rules

import (
	"bufio"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/riichi/game"
)

// The tenhou preset is the engine's rules before house rules: the engine's
// own constructors are the second code path.
func TestTenhouPresetIsTodaysRules(t *testing.T) {
	s, err := Preset("tenhou")
	if err != nil {
		t.Fatal(err)
	}
	for _, hanchan := range []bool{true, false} {
		if got, want := s.Game(4, hanchan), game.TenhouRules(hanchan, true, true); got != want {
			t.Errorf("Game(4, %v) = %+v, want TenhouRules %+v", hanchan, got, want)
		}
		if got, want := s.Game(3, hanchan), game.TenhouSanmaRules(hanchan, true, true); got != want {
			t.Errorf("Game(3, %v) = %+v, want TenhouSanmaRules %+v", hanchan, got, want)
		}
	}
	// The zero switches of the engine's structs are Tenhou's: the preset
	// must equal a literal that sets only the classic fields.
	if Default() != s {
		t.Errorf("Default() != Preset(tenhou)")
	}
}

func TestPresetNames(t *testing.T) {
	want := []string{"tenhou", "majsoul", "mleague", "wrc", "ema"}
	if got := PresetNames(); !slices.Equal(got, want) {
		t.Fatalf("PresetNames() = %v, want %v", got, want)
	}
	seen := map[Set]string{}
	for _, name := range want {
		s, err := Preset(name)
		if err != nil {
			t.Fatalf("Preset(%q): %v", name, err)
		}
		if s.Preset != name {
			t.Errorf("Preset(%q).Preset = %q", name, s.Preset)
		}
		if err := s.Check(); err != nil {
			t.Errorf("Preset(%q).Check(): %v", name, err)
		}
		if other, dup := seen[s]; dup {
			t.Errorf("presets %s and %s are equal", name, other)
		}
		seen[s] = name
	}
	if s, err := Preset("MLeague"); err != nil || s.Preset != "mleague" {
		t.Errorf("Preset(MLeague) = %q, %v; want case-insensitive mleague", s.Preset, err)
	}
}

// Every preset survives its canonical form, which lists every switch once,
// sorted; and every switch can be set to each value it prints.
func TestCanonicalRoundTrip(t *testing.T) {
	for _, name := range PresetNames() {
		s, _ := Preset(name)
		sw := s.Switches()
		var names []string
		for _, a := range sw {
			n, _, _ := strings.Cut(a, "=")
			names = append(names, n)
		}
		if !slices.IsSorted(names) || !slices.Equal(names, Names()) || len(slices.Compact(slices.Clone(names))) != len(names) {
			t.Errorf("%s: Switches() not one sorted entry per switch: %v", name, sw)
		}
		back, err := Parse(name, sw)
		if err != nil {
			t.Fatalf("%s: Parse(Switches()): %v", name, err)
		}
		if back != s {
			t.Errorf("%s: Parse(Switches()) = %+v, want %+v", name, back, s)
		}
	}
}

// Each switch changes the Set, shows in the canonical form and in the
// Summary, and a second Apply of the preset's value undoes it.
func TestEverySwitchApplies(t *testing.T) {
	flips := map[string]string{
		"agari-yame": "off", "aka": "0", "double-yakuman": "on", "honba": "1500",
		"kan-dora": "off", "kan-ura": "off", "kazoe": "sanbaiman", "kiriage": "on",
		"kuikae": "allowed", "kuitan": "off", "kyuushu": "off", "nagashi": "off",
		"pao": "off", "renchan": "agari", "return": "25000", "riichi-no-draw": "on",
		"ron": "atamahane", "sanchahou": "off", "sanma-return": "35000", "sanma-start": "30000",
		"sanma-uma": "30,0,-30", "sanma-west-target": "45000", "stacked-yakuman": "off", "start": "30000", "suucha": "off",
		"suufon": "off", "suukaikan": "off", "tenpai-yame": "off", "tobi": "off",
		"uma": "30,10,-10,-30", "ura": "off", "west": "off", "west-target": "35000",
	}
	if len(flips) != len(Names()) {
		t.Fatalf("test covers %d switches, package has %d: %v", len(flips), len(Names()), Names())
	}
	base := Default()
	for _, name := range Names() {
		v, ok := flips[name]
		if !ok {
			t.Errorf("switch %s not covered", name)
			continue
		}
		s := base
		if err := s.Apply(name + "=" + v); err != nil {
			t.Errorf("Apply(%s=%s): %v", name, v, err)
			continue
		}
		if s == base {
			t.Errorf("Apply(%s=%s) changed nothing", name, v)
		}
		if !slices.Contains(s.Switches(), name+"="+v) {
			t.Errorf("Switches() after %s=%s lacks it: %v", name, v, s.Switches())
		}
		if name != "aka" && name != "kuitan" && !strings.Contains(s.Summary(), name+"="+v) {
			t.Errorf("Summary() after %s=%s = %q", name, v, s.Summary())
		}
		for _, a := range base.Switches() {
			if strings.HasPrefix(a, name+"=") {
				if err := s.Apply(a); err != nil || s != base {
					t.Errorf("Apply(%s) did not restore the preset: %v", a, err)
				}
			}
		}
	}
}

func TestSummary(t *testing.T) {
	for _, c := range []struct {
		preset string
		rules  []string
		want   string
	}{
		{"tenhou", nil, "Tenhou rules (red fives, open tanyao)"},
		{"tenhou", []string{"aka=0"}, "Tenhou rules (no red fives, open tanyao)"},
		{"tenhou", []string{"kuitan=off", "tobi=off", "aka=4"}, "Tenhou rules (4 red fives, no open tanyao; tobi=off)"},
		{"mleague", nil, "M-League rules (red fives, open tanyao)"},
		{"wrc", nil, "WRC rules (no red fives, open tanyao)"},
		{"ema", []string{"ron=atamahane"}, "EMA rules (no red fives, open tanyao; ron=atamahane)"},
		{"majsoul", []string{"tobi=0"}, "Mahjong Soul rules (red fives, open tanyao)"},
	} {
		s, err := Parse(c.preset, c.rules)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Summary(); got != c.want {
			t.Errorf("%s %v: Summary() = %q, want %q", c.preset, c.rules, got, c.want)
		}
	}
}

// Bad input from testdata/bad_rules.txt: each line must fail with an
// error naming the valid names or values.
func TestBadInput(t *testing.T) {
	f, err := os.Open("testdata/bad_rules.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		in, want, ok := strings.Cut(line, " => ")
		if !ok {
			t.Fatalf("malformed line %q", line)
		}
		fields := strings.Fields(in)
		before := Default()
		s, err := Parse(fields[0], fields[1:])
		if err == nil {
			t.Errorf("Parse(%q): no error, got %+v", in, s)
			continue
		}
		if !errors.Is(err, ErrUnknown) && !errors.Is(err, ErrValue) {
			t.Errorf("Parse(%q): %v wraps neither ErrUnknown nor ErrValue", in, err)
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) error %q lacks %q", in, err, want)
		}
		// Apply leaves the set unchanged on error.
		for _, a := range fields[1:] {
			s := before
			if s.Apply(a) != nil && s != before {
				t.Errorf("failed Apply(%q) changed the set", a)
			}
		}
		n++
	}
	if n < 20 {
		t.Fatalf("only %d cases read", n)
	}
}

// FromGame inverts Game for every preset and every single switch, and the
// record value round-trips (a second path: string form, Parse, Game).
func TestFromGameAndRecord(t *testing.T) {
	var sets []Set
	for _, name := range PresetNames() {
		s, _ := Preset(name)
		sets = append(sets, s)
	}
	base := Default()
	for _, a := range []string{"aka=0", "aka=1", "aka=2", "aka=4", "kuitan=off", "kuikae=suji", "tobi=1000", "tobi=off",
		"ron=triple", "kyuushu=off", "sanchahou=off", "nagashi=off", "kiriage=on", "kazoe=sanbaiman", "double-yakuman=on",
		"stacked-yakuman=off", "renchan=agari", "agari-yame=off", "tenpai-yame=off", "start=30000", "return=35000",
		"uma=30,10,-10,-30", "sanma-uma=30,0,-30", "honba=1500", "pao=off", "west=off", "west-target=32000",
		"sanma-west-target=42000", "riichi-no-draw=on", "ura=off", "kan-dora=off", "kan-ura=off"} {
		s := base
		if err := s.Apply(a); err != nil {
			t.Fatal(err)
		}
		sets = append(sets, s)
	}
	for _, s := range sets {
		for _, n := range []int{3, 4} {
			for _, h := range []bool{true, false} {
				g := s.Game(n, h)
				if back := FromGame(g).Game(n, h); back != g {
					t.Errorf("%v (%d players): FromGame(Game) = %+v, want %+v", s.Switches(), n, back, g)
				}
				got, err := FromRecord(RecordValue(g), n, h)
				if err != nil || got != g {
					t.Errorf("%v (%d players): FromRecord(%q) = %+v, %v; want %+v", s.Switches(), n, RecordValue(g), got, err, g)
				}
			}
		}
	}
	if v := RecordValue(Default().Game(4, true)); v != "" {
		t.Errorf("RecordValue(tenhou) = %q, want empty", v)
	}
	if _, err := FromRecord("aka=9", 4, true); !errors.Is(err, ErrValue) {
		t.Errorf("FromRecord(aka=9): %v, want ErrValue", err)
	}
}
