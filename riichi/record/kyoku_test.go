package record

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

func readLog(t *testing.T, name string) *mjlog.Game {
	t.Helper()
	g, err := mjlog.Read(tenhoucorpus.For(t).Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// findRound returns the first round of g with an event ok accepts.
func findRound(t *testing.T, g *mjlog.Game, ok func(mjlog.Event) bool) *mjlog.Round {
	t.Helper()
	for i := range g.Rounds {
		for _, e := range g.Rounds[i].Events {
			if ok(e) {
				return &g.Rounds[i]
			}
		}
	}
	t.Fatalf("%s: no such round", g.File)
	return nil
}

func isAnkan(e mjlog.Event) bool {
	c, ok := e.(mjlog.Call)
	return ok && c.Meld.Type == riichi.Ankan
}

// sampleDeal returns a kyoku state with distinct tiles: seat s gets ids
// 13s..13s+12, the dora indicator id 52+1.
func sampleDeal() game.Deal {
	d := game.Deal{Scores: [4]int{25000, 25000, 25000, 25000}, DoraIndicator: 53}
	for s := range 4 {
		for i := range 13 {
			d.Haipai[s] = append(d.Haipai[s], wall.Tile(13*s+i))
		}
	}
	return d
}

func wantErr(t *testing.T, r *Kyoku, substr string) {
	t.Helper()
	if err := r.Err(); err == nil || !strings.Contains(err.Error(), substr) {
		t.Errorf("Err() = %v, want one mentioning %q", err, substr)
	}
}

// TestHiddenKanDora plays a real round with an ankan on an engine that was
// never shown the kan-dora indicator: the recorder must report it, and
// keep the events up to the kan, which equal the log's.
func TestHiddenKanDora(t *testing.T) {
	g := readLog(t, "2011020414gm-00a9-0000-ef18f336.xml")
	rd := findRound(t, g, isAnkan)
	rec, _, _ := play(game.NewMatch(logRules(g)), rd, false, true)
	wantErr(t, rec, "<DORA>")
	got := rec.Round()
	n := len(got.Events)
	if n == 0 || !isAnkan(got.Events[n-1]) {
		t.Fatalf("recording ends with %#v, want the ankan", got.Events[max(n-1, 0)])
	}
	var ex exceptions
	want := normalise(*rd, got, &ex)
	want.Events = want.Events[:n]
	if d := firstDiff(want, got); d != "" {
		t.Errorf("events before the hidden indicator differ: %s", d)
	}
}

func TestHiddenHaipai(t *testing.T) {
	d := sampleDeal()
	d.Haipai[2][5] = game.Unknown
	k, err := game.NewKyoku(game.TenhouRules(true, true, true), d)
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, NewKyoku(k, [2]int{0, 0}), "hai2")

	d = sampleDeal()
	d.DoraIndicator = game.Unknown
	k, err = game.NewKyoku(game.TenhouRules(true, true, true), d)
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, NewKyoku(k, [2]int{0, 0}), "dora indicator")
}

func TestNewKyokuMisuse(t *testing.T) {
	k, err := game.NewKyoku(game.TenhouRules(true, true, true), sampleDeal())
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, NewKyoku(k, [2]int{6, 0}), "die 6")
	wantErr(t, NewKyoku(k, [2]int{0, -1}), "die -1")
	r := NewKyoku(k, [2]int{5, 0})
	if r.Err() != nil {
		t.Fatalf("fresh kyoku: %v", r.Err())
	}
	in := r.Round().Init
	if in.Dice != [2]int{5, 0} || in.DoraIndicator != 53 || !reflect.DeepEqual(in.Ten, []int{250, 250, 250, 250}) || in.Hai[1][0] != 13 {
		t.Errorf("INIT %+v", in)
	}
	if _, err := k.Draw(100); err != nil {
		t.Fatal(err)
	}
	wantErr(t, NewKyoku(k, [2]int{0, 0}), "already in play")
	r.Draw(k, 0, game.Unknown)
	wantErr(t, r, "tile -1")
	if n := len(r.Round().Events); n != 0 {
		t.Errorf("%d events recorded after a hidden draw", n)
	}
	r.Draw(k, 0, 100) // nothing more after the first error
	if n := len(r.Round().Events); n != 0 {
		t.Errorf("%d events recorded after an error", n)
	}
}

// TestAfterEnd feeds a call after the kyoku's result: it is a misuse and
// the recording is left as it was.
func TestAfterEnd(t *testing.T) {
	g := readLog(t, "2011020414gm-00a9-0000-ef18f336.xml")
	rec, k, err := playRound(game.NewMatch(logRules(g)), &g.Rounds[0])
	if err != nil || rec.Err() != nil {
		t.Fatal(err, rec.Err())
	}
	before := rec.Round()
	rec.Apply(k, game.Action{Type: game.Pass, Seat: 1})
	wantErr(t, rec, "already recorded")
	if !reflect.DeepEqual(rec.Round(), before) {
		t.Error("recording changed after the end")
	}
}

// TestRoundIsACopy changes a returned Round and checks the recorder's own
// state is untouched.
func TestRoundIsACopy(t *testing.T) {
	k, err := game.NewKyoku(game.TenhouRules(true, true, true), sampleDeal())
	if err != nil {
		t.Fatal(err)
	}
	r := NewKyoku(k, [2]int{1, 2})
	a := r.Round()
	a.Init.Ten[0] = 1
	a.Init.Hai[0][0] = 99
	if b := r.Round(); b.Init.Ten[0] != 250 || b.Init.Hai[0][0] != 0 {
		t.Errorf("Round shares memory with the recorder: %+v", b.Init)
	}
}

// TestGameRuleBits checks the GO type of every rule combination with
// mjlog.GoRule's own decoding of the bits.
func TestGameRuleBits(t *testing.T) {
	for _, hanchan := range []bool{false, true} {
		for _, aka := range []bool{false, true} {
			for _, kuitan := range []bool{false, true} {
				g := Game([4]string{"a", "b", "c", "d"}, game.TenhouRules(hanchan, aka, kuitan), nil, game.Standings{})
				r := g.Go
				if r.Players() != 4 || r.Hanchan() != hanchan || r.Aka() != aka || r.Kuitan() != kuitan || !r.VsHuman() || r.Fast() || r.Level() != 0 || r.Lobby != 0 {
					t.Errorf("hanchan %v aka %v kuitan %v: GO type %#x lobby %d", hanchan, aka, kuitan, r.Type, r.Lobby)
				}
				if g.Shuffle != nil || g.Oya != 0 || g.Owari != nil || len(g.Players) != 4 || g.Players[3].Name != "d" {
					t.Errorf("header %+v", g)
				}
			}
		}
	}
}

// TestGameLeavesRoundsAlone checks that Game puts owari on a copy: the
// caller's rounds keep their result tags without owari.
func TestGameLeavesRoundsAlone(t *testing.T) {
	g := readLog(t, "2010091009gm-00a9-0000-83af2648.xml")
	last := withoutOwari(g.Rounds[len(g.Rounds)-1])
	rounds := []mjlog.Round{last}
	st := game.Standings{Scores: [4]int{26000, 32200, -24200, 66000}, Points: [4]int{-140, 120, -740, 760}}
	out := Game([4]string{}, game.TenhouRules(true, true, true), rounds, st)
	if !reflect.DeepEqual(rounds[0], last) {
		t.Error("Game modified its rounds argument")
	}
	evs := out.Rounds[0].Events
	// The game ends on a double ron: owari goes on the second AGARI only.
	a1, ok1 := evs[len(evs)-2].(mjlog.Agari)
	a2, ok2 := evs[len(evs)-1].(mjlog.Agari)
	if !ok1 || !ok2 || a1.Owari != nil || a2.Owari == nil || a2.Owari != out.Owari {
		t.Fatalf("owari not on the last AGARI: %#v %#v", evs[len(evs)-2], evs[len(evs)-1])
	}
	want := &mjlog.Owari{Scores: []int{260, 322, -242, 660}, Points: []float64{-14, 12, -74, 76}}
	if !reflect.DeepEqual(out.Owari, want) {
		t.Errorf("owari %+v, want %+v", out.Owari, want)
	}
}
