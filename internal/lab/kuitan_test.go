package lab

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/player/cheat"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
)

// Tenhou's yaku IDs (the <AGARI yaku=> layout): 8 is tanyao; 52, 53 and 54
// are dora, ura-dora and aka dora, which count han but are no yaku.
const (
	yakuTanyao = 8
	yakuDora   = 52
	yakuUra    = 53
	yakuAka    = 54
)

// openTanyaoOnly reports whether a is a win of an open hand whose only
// yaku is tanyao, as the record's yaku= pairs say it.
func openTanyaoOnly(a mjlog.Agari) bool {
	open := slices.ContainsFunc(a.Melds, func(m mjlog.Meld) bool {
		return m.Type == riichi.Chi || m.Type == riichi.Pon || m.Type == riichi.Daiminkan || m.Type == riichi.Kakan
	})
	var yaku []int
	for _, y := range a.Yaku {
		if y.ID != yakuDora && y.ID != yakuUra && y.ID != yakuAka {
			yaku = append(yaku, y.ID)
		}
	}
	return open && slices.Equal(yaku, []int{yakuTanyao})
}

// TestKuitanSwitch plays the kuitan-off-win strategy on both sides of
// the kuitan switch. The claim is the same, a win whose only yaku is
// tanyao in an open hand; only the table's rules decide it. Under --rule
// kuitan=on (every preset's default) it is legal: no verdict, and the
// record shows an open tanyao-only win. Under --rule kuitan=off it is
// blamed at once on the cheater, with its signed win as evidence (an
// honest node's log says "no yaku"), and no honest player is named. The
// opportunity arises only by the deal: a side that sees none in its
// hands skips, saying so.
func TestKuitanSwitch(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two tables of four processes")
	}
	s, err := cheat.Lookup("kuitan-off-win")
	if err != nil {
		t.Fatal(err)
	}
	bin := buildBinary(t)
	run := func(t *testing.T, kuitan string) (*table, string) {
		dir := t.TempDir()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		tb, err := runTable(ctx, bin, dir, spec{hands: s.Hands, passive: s.Passive, timeout: 3 * time.Second, turnTimeout: 6 * time.Second, cheats: map[int]string{1: s.Name}, rules: Flags("tenhou", []string{"kuitan=" + kuitan})})
		if err != nil {
			t.Fatal(err)
		}
		return tb, dir
	}
	t.Run("on", func(t *testing.T) {
		tb, dir := run(t, "on")
		r := Result{Caught: "not caught", Blamed: []string{}, Faults: []string{}, CheaterNamed: true}
		r.judge(tb, "none")
		if len(r.Blamed) > 0 || len(r.Faults) > 0 {
			t.Fatalf("an open tanyao win under kuitan=on got a verdict: blamed %v, faults %v, reasons %q", r.Blamed, r.Faults, r.Reasons)
		}
		wins, hands := kuitanWins(t, filepath.Join(dir, "player-0.mjlog"))
		t.Logf("%d open tanyao-only wins in %d hands, no verdict", wins, hands)
		if wins == 0 {
			t.Skipf("no open tanyao-only win arose in %d hands: nothing tested", hands)
		}
	})
	t.Run("off", func(t *testing.T) {
		tb, dir := run(t, "off")
		r := Result{Caught: "not caught", Blamed: []string{}, Faults: []string{}, CheaterNamed: true}
		r.judge(tb, string(s.Expect))
		if r.FalseBlames > 0 || r.FalseFaults > 0 {
			t.Fatalf("an honest player named: %+v", r)
		}
		if len(r.Blamed) == 0 {
			// With no verdict the game ran to its end: a recorded open
			// tanyao-only win means the nodes let it stand.
			if wins, _ := kuitanWins(t, filepath.Join(dir, "player-0.mjlog")); wins > 0 {
				t.Fatalf("%d open tanyao-only wins recorded under kuitan=off, and no verdict", wins)
			}
			t.Skipf("no verdict: the cheater declared no open all-simples win in %d hands (faults %v): nothing tested", s.Hands, r.Faults)
		}
		if !r.CheaterNamed || r.Caught != "at once" {
			t.Errorf("cheater not blamed at once: %+v", r)
		}
		var proven []string
		for _, p := range []string{"player-0", "player-2", "player-3"} {
			b, _ := os.ReadFile(filepath.Join(dir, p+".log"))
			for _, line := range strings.Split(string(b), "\n") {
				if strings.Contains(line, "cheating proven") {
					if strings.Contains(line, "no yaku") {
						return
					}
					proven = append(proven, line)
				}
			}
		}
		if len(proven) > 0 && !strings.Contains(strings.Join(proven, "\n"), "no yaku") && r.FalseBlames == 0 {
			// The cheater's win broke another rule first (a fresh-clone
			// CI run saw a furiten ron): it is blamed, but the kuitan
			// switch was not what decided it.
			t.Skipf("the cheater's win was illegal for another reason, not open tanyao: %q", proven)
		}
		t.Errorf("blamed for %q, but no honest node's log says the win has no yaku: %q", r.Reasons, proven)
	})
}

// kuitanWins counts the open tanyao-only wins in the mjlog at path, and
// its hands.
func kuitanWins(t *testing.T, path string) (wins, hands int) {
	t.Helper()
	g, err := mjlog.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, round := range g.Rounds {
		for _, e := range round.Events {
			if a, ok := e.(mjlog.Agari); ok && openTanyaoOnly(a) {
				wins++
			}
		}
	}
	return wins, len(g.Rounds)
}
