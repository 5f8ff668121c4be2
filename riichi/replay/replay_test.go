package replay

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/wall"
)

// TestSharedLogs replays every real Tenhou log of the corpus: every draw,
// discard, call, riichi, kan-dora, win (yaku, fu, points, payments), draw
// and final standing must match the engine.
func TestSharedLogs(t *testing.T) {
	corpus := tenhoucorpus.For(t)
	res, err := Files(context.Background(), []string{corpus.Dir})
	if err != nil || len(res.Errors) > 0 {
		t.Fatalf("reading logs: %v %v", err, res.Errors)
	}
	t.Logf("games %d rounds %d agari %d checks %v skipped %d", res.Games, res.Rounds, res.Agari, res.Checks, len(res.Skipped))
	for i, m := range res.Mismatches {
		if i >= 40 {
			t.Errorf("… %d more mismatches", len(res.Mismatches)-i)
			break
		}
		t.Errorf("%s [%s] %s:\n  log:    %s\n  engine: %s", m.File, m.Round, m.Tag, m.Expected, m.Actual)
	}
	special := 0
	for _, s := range res.Skipped {
		if strings.Contains(s.Reason, "rules not supported: 0x") {
			special++
		}
	}
	// The MANIFEST.md's four- and three-player games and rounds; the chip
	// games (GO type bit 0x200, read from the raw text) are the special-rule
	// logs skipped (TestSpecialRuleLogs).
	want := corpus.MustManifest(t).Totals()
	types, err := corpus.GoTypes()
	if err != nil {
		t.Fatal(err)
	}
	chip := 0
	for _, typ := range types {
		if typ&0x200 != 0 {
			chip++
		}
	}
	if res.SanmaGames != want.Games3 || res.SanmaRounds != want.Rounds3 || res.Games-res.SanmaGames+special != want.Games4 || special != chip || chip == 0 {
		t.Errorf("replayed %d games (%d three-player, %d rounds), skipped %d special-rule, of %s; want %d four-player with %d chip games skipped, %d three-player (%d rounds)",
			res.Games, res.SanmaGames, res.SanmaRounds, special, corpus, want.Games4, chip, want.Games3, want.Rounds3)
	}
	for _, k := range []string{CheckInit, CheckDraw, CheckDiscard, CheckCall, CheckReach, CheckDora, CheckAgari, CheckAgariSc, CheckRyuukyoku, CheckRyuukyokuSc, CheckEnd, CheckOwariScores, CheckOwariPoints} {
		if res.Checks[k] == 0 {
			t.Errorf("no %s check was made", k)
		}
	}
}

func readLog(t *testing.T, name string) *mjlog.Game {
	t.Helper()
	g, err := mjlog.Read(tenhoucorpus.For(t).Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// firstEvent returns the index of the first event in round r of type E
// matching ok.
func firstEvent[E mjlog.Event](t *testing.T, g *mjlog.Game, r int, ok func(E) bool) int {
	t.Helper()
	for i, e := range g.Rounds[r].Events {
		if x, is := e.(E); is && ok(x) {
			return i
		}
	}
	t.Fatalf("round %d has no such event", r)
	return -1
}

// wantMismatch replays g and wants a mismatch of tag prefix tag (and only
// mismatches in round r or later).
func wantMismatch(t *testing.T, g *mjlog.Game, tag string) Result {
	t.Helper()
	res := Game(g)
	for _, m := range res.Mismatches {
		if strings.HasPrefix(m.Tag, tag) {
			return res
		}
	}
	t.Fatalf("tampered log: want a %q mismatch, got %+v", tag, res.Mismatches)
	return res
}

const sample = "2022060100gm-00a9-0000-a11749d5.xml"

func TestUntamperedSample(t *testing.T) {
	res := Game(readLog(t, sample))
	if len(res.Mismatches) != 0 || res.Games != 1 || res.Rounds != 12 {
		t.Fatalf("%+v", res)
	}
}

func TestTamperAgariPoints(t *testing.T) {
	g := readLog(t, sample)
	i := firstEvent(t, g, 0, func(mjlog.Agari) bool { return true })
	a := g.Rounds[0].Events[i].(mjlog.Agari)
	a.Ten = 11600 // the log says 12000
	g.Rounds[0].Events[i] = a
	wantMismatch(t, g, "AGARI who=2")
}

func TestTamperYakuHan(t *testing.T) {
	g := readLog(t, sample)
	i := firstEvent(t, g, 0, func(mjlog.Agari) bool { return true })
	a := g.Rounds[0].Events[i].(mjlog.Agari)
	a.Yaku = slices.Clone(a.Yaku)
	a.Yaku[len(a.Yaku)-1].Han++
	g.Rounds[0].Events[i] = a
	wantMismatch(t, g, "AGARI who=2")
}

func TestTamperScoreChange(t *testing.T) {
	g := readLog(t, sample)
	i := firstEvent(t, g, 0, func(mjlog.Agari) bool { return true })
	a := g.Rounds[0].Events[i].(mjlog.Agari)
	a.Sc = slices.Clone(a.Sc)
	a.Sc[1] -= 10 // seat 0 pays 1000 more
	a.Sc[3] += 10
	g.Rounds[0].Events[i] = a
	wantMismatch(t, g, "AGARI who=2")
}

func TestTamperDiscard(t *testing.T) {
	g := readLog(t, sample)
	// Seat 0's first discard becomes a tile seat 1 holds.
	i := firstEvent(t, g, 0, func(d mjlog.Discard) bool { return d.Who == 0 })
	g.Rounds[0].Events[i] = mjlog.Discard{Who: 0, Tile: g.Rounds[0].Init.Hai[1][0]}
	res := wantMismatch(t, g, "D")
	if !strings.Contains(res.Mismatches[0].Actual, "not in the hand") {
		t.Errorf("reason %q", res.Mismatches[0].Actual)
	}
}

func TestTamperRiichiNotTenpai(t *testing.T) {
	g := readLog(t, sample)
	// A riichi declared on seat 1's first discard (a fresh haipai is far
	// from tenpai).
	i := firstEvent(t, g, 0, func(d mjlog.Discard) bool { return d.Who == 1 })
	ev := g.Rounds[0].Events
	ev = slices.Insert(slices.Clone(ev), i, mjlog.Event(mjlog.Reach{Who: 1, Step: 1}))
	g.Rounds[0].Events = ev
	res := wantMismatch(t, g, "E")
	if !strings.Contains(res.Mismatches[0].Actual, "not tenpai") {
		t.Errorf("reason %q", res.Mismatches[0].Actual)
	}
}

func TestTamperOwari(t *testing.T) {
	g := readLog(t, sample)
	r := len(g.Rounds) - 1
	ev := g.Rounds[r].Events
	a := ev[len(ev)-1].(mjlog.Agari)
	o := *a.Owari
	o.Points = slices.Clone(o.Points)
	o.Points[0] += 1
	o.Points[2] -= 1
	a.Owari = &o
	ev[len(ev)-1] = a
	wantMismatch(t, g, "owari")
}

func TestTamperTenpaiShown(t *testing.T) {
	g := readLog(t, sample)
	// Hide the first tenpai hand shown at an exhaustive draw.
	for r := range g.Rounds {
		ev := g.Rounds[r].Events
		rk, ok := ev[len(ev)-1].(mjlog.Ryuukyoku)
		if !ok || rk.Type != "" {
			continue
		}
		for s := range rk.Hai {
			if rk.Hai[s] != nil {
				rk.Hai[s] = nil
				ev[len(ev)-1] = rk
				wantMismatch(t, g, "RYUUKYOKU")
				return
			}
		}
	}
	t.Fatal("no exhaustive draw with a tenpai hand in the sample")
}

func TestTamperDrawOrder(t *testing.T) {
	g := readLog(t, sample)
	// The second draw of the kyoku is credited to the wrong seat.
	i := firstEvent(t, g, 0, func(d mjlog.Draw) bool { return d.Who == 1 })
	d := g.Rounds[0].Events[i].(mjlog.Draw)
	d.Who = 2
	g.Rounds[0].Events[i] = d
	wantMismatch(t, g, "V")
}

// TestThreePlayerReplayed replays a three-player log (kita, tsumo loss,
// 200-point honba) with every check passing, and the same log with one
// AGARI payment changed, which must be a mismatch.
func TestThreePlayerReplayed(t *testing.T) {
	g := readLog(t, "2014091101gm-00b9-0000-5ca6b487.xml")
	res := Game(g)
	if res.Games != 1 || res.SanmaGames != 1 || res.Rounds != 11 || len(res.Mismatches) != 0 || len(res.Skipped) != 0 {
		t.Fatalf("%+v", res)
	}
	if res.Checks[CheckOwariPoints] != 1 || res.Checks[CheckAgariSc] == 0 {
		t.Fatalf("checks %v", res.Checks)
	}
	// The first AGARI is the dealer's haneman tsumo: 6000 from each of the
	// two others (no share from the empty seat). Pretend Tenhou charged a
	// fourth player's share.
	a := g.Rounds[0].Events[len(g.Rounds[0].Events)-1].(mjlog.Agari)
	a.Sc = slices.Clone(a.Sc)
	a.Sc[3] -= 60
	g.Rounds[0].Events[len(g.Rounds[0].Events)-1] = a
	if res := Game(g); len(res.Mismatches) == 0 {
		t.Fatal("a changed three-player tsumo payment was not found")
	}
}

// TestMalformedLogsNoPanic replays logs damaged at random (events dropped,
// duplicated, swapped, tiles and seats changed): the replay must report
// mismatches, never panic (the panic guard would report tag "(engine)").
func TestMalformedLogsNoPanic(t *testing.T) {
	names := []string{sample, "mjx-project+mjx__test__resources__mjlog__kan4.xml", "dnovikoff+tenhou__log__test_data__pao.xml",
		"mjx-project+mjx__tests_cpp__resources__mjlog__upd-aft-ron3.xml", "mjx-project+mjx__test__resources__mjlog__nm.xml"}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range names {
		base := readLog(t, name)
		for trial := 0; trial < 60; trial++ {
			g := *base
			g.Rounds = slices.Clone(base.Rounds)
			r := rng.IntN(len(g.Rounds))
			ev := slices.Clone(g.Rounds[r].Events)
			for range 1 + rng.IntN(3) {
				if len(ev) < 2 {
					break
				}
				i := rng.IntN(len(ev) - 1)
				switch rng.IntN(5) {
				case 0:
					ev = slices.Delete(ev, i, i+1)
				case 1:
					ev = slices.Insert(ev, i, ev[i])
				case 2:
					ev[i], ev[i+1] = ev[i+1], ev[i]
				case 3:
					switch e := ev[i].(type) {
					case mjlog.Draw:
						e.Tile = wall.Tile(rng.IntN(136))
						ev[i] = e
					case mjlog.Discard:
						e.Tile = wall.Tile(rng.IntN(136))
						ev[i] = e
					}
				case 4:
					switch e := ev[i].(type) {
					case mjlog.Draw:
						e.Who = rng.IntN(4)
						ev[i] = e
					case mjlog.Call:
						e.Who = rng.IntN(4)
						ev[i] = e
					case mjlog.Agari:
						e.Who = rng.IntN(4)
						ev[i] = e
					}
				}
			}
			g.Rounds[r].Events = ev
			res := Game(&g)
			for _, m := range res.Mismatches {
				if m.Tag == "(engine)" {
					t.Fatalf("%s trial %d: %s", name, trial, m.Actual)
				}
			}
		}
	}
}
