package builder_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/record/mjai"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/record/tenhou6"
	"github.com/mentalmj/mentalmj/wall"
)

// The truth: the real Tenhou log. Each log of the corpus is written as
// tenhou.net/6 JSON and as an mjai log (those packages' writers, which
// keep tile ids out: both name kinds only), read back by the two readers
// that use a Builder, and every round must hold the log's own plays —
// each draw, discard, call, riichi and result, with the seat, the tile
// kinds (red fives apart when the game plays them) and the result's score
// changes (sc='s deltas) — in the log's order, and the kyoku's kan dora
// indicators. Only which copy of a kind carries which id may differ, and
// where a kan's DORA tag stands among the plays around it (tenhou.net/6
// and mjai do not say), and the scores before the result, which the
// formats do not carry beyond the kyoku's start (a few logs of the corpus
// have sc= scores that are not the start's less the riichi deposits) nor
// the chip columns of sc=.
func TestReadersRebuildTheLogs(t *testing.T) {
	c := tenhoucorpus.For(t)
	files := c.MustFiles(t)
	read := 0
	for _, path := range files {
		g, err := mjlog.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		want := plays(g)
		l, err := tenhou6.Convert(g)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var b bytes.Buffer
		if err := l.Encode(&b); err != nil {
			t.Fatal(err)
		}
		t6, err := tenhou6.Read(b.Bytes(), "game.json")
		if err != nil {
			t.Fatalf("%s as tenhou.net/6: %v", tenhoucorpus.Name(path), err)
		}
		b.Reset()
		if err := mjai.WriteMjlog(&b, g, -1); err != nil {
			t.Fatal(err)
		}
		mj, _, err := mjai.Read(b.Bytes(), "game.mjai")
		if err != nil {
			t.Fatalf("%s as mjai: %v", tenhoucorpus.Name(path), err)
		}
		for _, r := range []struct {
			format string
			g      *mjlog.Game
			// mjai.Read leaves sc= empty (its hora and ryukyoku are scored by
			// the rules engine when replayed): compare the plays only.
			results bool
		}{{"tenhou.net/6", t6, true}, {"mjai", mj, false}} {
			got := plays(r.g)
			if len(got) != len(want) {
				t.Errorf("%s as %s: %d rounds, the log has %d", tenhoucorpus.Name(path), r.format, len(got), len(want))
				continue
			}
			for i := range want {
				w, gt := want[i], got[i]
				if !r.results {
					w, gt = dropResults(w), dropResults(gt)
				}
				if d := firstDiff(w, gt); d >= 0 {
					t.Errorf("%s as %s, round %d, play %d: %q, the log has %q", tenhoucorpus.Name(path), r.format, i, d, at(gt, d), at(w, d))
					break
				}
			}
		}
		read++
	}
	if read != len(files) || read == 0 {
		t.Fatalf("read %d logs of %d in %s", read, len(files), c)
	}
}

// plays returns each round of g as its plays, one string each.
func plays(g *mjlog.Game) [][]string {
	aka := g.Go.Aka()
	name := func(t wall.Tile) string {
		if t < 0 {
			return "?"
		}
		if aka && t.IsRed() {
			return "red " + t.Kind().String()
		}
		return t.Kind().String()
	}
	names := func(ts []wall.Tile) string {
		var out []string
		for _, t := range ts {
			out = append(out, name(t))
		}
		slices.Sort(out)
		return strings.Join(out, " ")
	}
	var rounds [][]string
	for _, rd := range g.Rounds {
		in := rd.Init
		var hai []string
		for s := range 4 {
			hai = append(hai, names(in.Hai[s]))
		}
		var doras []string
		ps := []string{fmt.Sprintf("init kyoku %d honba %d kyotaku %d oya %d ten %v dora %s hai %q", in.Kyoku, in.Honba, in.Kyotaku, in.Oya, in.Ten, name(in.DoraIndicator), hai)}
		for _, e := range rd.Events {
			var p string
			switch e := e.(type) {
			case mjlog.Draw:
				p = fmt.Sprintf("draw %d %s", e.Who, name(e.Tile))
			case mjlog.Discard:
				p = fmt.Sprintf("discard %d %s", e.Who, name(e.Tile))
			case mjlog.Call:
				p = fmt.Sprintf("call %d %v from %d: %s", e.Who, e.Meld.Type, e.Meld.From, names(e.Meld.Tiles))
			case mjlog.Reach:
				p = fmt.Sprintf("reach %d step %d", e.Who, e.Step)
			case mjlog.Dora:
				doras = append(doras, name(e.Tile))
				continue
			case mjlog.Agari:
				p = fmt.Sprintf("result: agari %d from %d deltas %v", e.Who, e.FromWho, deltas(e.Sc))
			case mjlog.Ryuukyoku:
				p = fmt.Sprintf("result: ryuukyoku %q deltas %v", e.Type, deltas(e.Sc))
			default:
				continue
			}
			ps = append(ps, p)
		}
		rounds = append(rounds, append(ps, fmt.Sprintf("kan dora %q", doras)))
	}
	return rounds
}

// deltas returns the four score changes of an sc= list (in 100s).
func deltas(sc []int) [4]int {
	var d [4]int
	for s := range 4 {
		if 2*s+1 < len(sc) {
			d[s] = sc[2*s+1]
		}
	}
	return d
}

// dropResults returns ps without its results.
func dropResults(ps []string) []string {
	return slices.DeleteFunc(slices.Clone(ps), func(p string) bool { return strings.HasPrefix(p, "result: ") })
}

// firstDiff returns the index of the first play where a and b differ
// (one running out counts), -1 when they are equal.
func firstDiff(a, b []string) int {
	for i := range max(len(a), len(b)) {
		if at(a, i) != at(b, i) {
			return i
		}
	}
	return -1
}

func at(ps []string, i int) string {
	if i < len(ps) {
		return ps[i]
	}
	return "(none)"
}
