package tenhou

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// CheckKind is one kind of comparison Verify makes between a log and the
// regenerated wall.
type CheckKind int

// The check kinds, in report order. Each counts one comparison.
const (
	// CheckDice compares INIT seed fields 4–5 with rnd[135]%6, rnd[136]%6.
	CheckDice CheckKind = iota
	// CheckDoraIndicator compares INIT seed field 6 with the first dora
	// indicator slot.
	CheckDoraIndicator
	// CheckHaipai compares one INIT haiN list, in deal order.
	CheckHaipai
	// CheckLiveDraw compares one live-wall draw (T/U/V/W tag).
	CheckLiveDraw
	// CheckRinshan compares one replacement draw after a kan or kita.
	CheckRinshan
	// CheckKanDora compares one <DORA> tag with the k-th kan-dora slot.
	CheckKanDora
	// CheckDoraHai compares one AGARI doraHai list.
	CheckDoraHai
	// CheckUraHai compares one AGARI doraHaiUra list.
	CheckUraHai
	// CheckExhaustive compares, at an exhaustive draw, live + rinshan draws
	// with N - 14 - 13P.
	CheckExhaustive
	// NumCheckKinds is the number of check kinds.
	NumCheckKinds
)

var checkNames = [NumCheckKinds]string{
	"dice", "dora_indicator", "haipai", "live_draw", "rinshan_draw",
	"kan_dora", "agari_dora", "agari_ura", "exhaustive_draw",
}

// String returns the kind's report name ("dice", "haipai", "live_draw", …).
func (k CheckKind) String() string {
	if k < 0 || k >= NumCheckKinds {
		return "check(" + strconv.Itoa(int(k)) + ")"
	}
	return checkNames[k]
}

// Counts holds a number of checks per CheckKind.
type Counts [NumCheckKinds]int

// Add adds o to c.
func (c *Counts) Add(o Counts) {
	for i := range c {
		c[i] += o[i]
	}
}

// Total returns the sum over all kinds.
func (c Counts) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// Map returns the counts keyed by CheckKind.String(), including zero counts.
func (c Counts) Map() map[string]int {
	m := make(map[string]int, len(c))
	for k, v := range c {
		m[CheckKind(k).String()] = v
	}
	return m
}

// Mismatch is one disagreement between a log and its regenerated wall.
type Mismatch struct {
	// File is the log's name (mjlog.Game.File).
	File string `json:"file"`
	// Round names the kyoku as RoundName does, e.g. "E1-0" or "S3-2".
	Round string `json:"round"`
	// Tag names the log element and, for draws and indicators, the draw
	// number and yama index, e.g. "T live draw 12 (yama[71])".
	Tag string `json:"tag"`
	// Expected is what the wall predicts; Actual what the log says. Tiles
	// are written "id (name)", lists as comma-separated ids.
	Expected string `json:"expected"`
	Actual   string `json:"actual"`
}

// String formats m as "file round tag: expected E, log has A".
func (m Mismatch) String() string {
	return fmt.Sprintf("%s %s %s: expected %s, log has %s", m.File, m.Round, m.Tag, m.Expected, m.Actual)
}

// Result is the outcome of verifying one log.
type Result struct {
	// File is the log's name.
	File string
	// Skipped is non-empty when the log could not be checked (it has no
	// <SHUFFLE> seed); then nothing else is set. A skipped log is not a pass.
	Skipped string
	// Variant is the seed form; Players 3 or 4.
	Variant Variant
	Players int
	// Rounds is the number of <INIT> rounds checked.
	Rounds int
	// Checks counts the comparisons made, per kind.
	Checks Counts
	// Mismatches lists every failed comparison in log order.
	Mismatches []Mismatch
}

// OK reports whether the log was checked and every comparison matched.
func (r *Result) OK() bool { return r.Skipped == "" && len(r.Mismatches) == 0 }

// RoundName returns the conventional name of a kyoku: wind of the round
// (E, S, W, N), dealer number 1..4, "-", honba; e.g. kyoku 5 honba 2 is
// "S2-2". Three-player logs number kyoku 0, 1, 2, 4, 5, 6, … (Tenhou skips
// the fourth dealer), which this maps to E1..E3, S1..S3. Kyoku outside 0..15
// are written "K<kyoku>-<honba>".
func RoundName(kyoku, honba int) string {
	if kyoku < 0 || kyoku > 15 {
		return fmt.Sprintf("K%d-%d", kyoku, honba)
	}
	return fmt.Sprintf("%c%d-%d", "ESWN"[kyoku/4], kyoku%4+1, honba)
}

// Verify regenerates the walls of a parsed log from its <SHUFFLE> seed and
// checks every round against them (docs/wall-layout.md §1–6): INIT dice and dora
// indicator, hai0..hai3 in deal order, every draw (a draw after a Call of
// type Daiminkan, Ankan, Kakan or Kita is a rinshan draw and does not move
// the live pointer), every <DORA> tag, AGARI doraHai and doraHaiUra, and at
// each exhaustive draw that live + rinshan draws = N - 14 - 13P.
//
// A log without <SHUFFLE> gives a Result with Skipped set and a nil error.
// It returns an error naming the file when the seed is not a known variant
// or is malformed; disagreements are Mismatches, not errors.
func Verify(g *mjlog.Game) (Result, error) {
	res := Result{File: g.File}
	if g.Shuffle == nil {
		res.Skipped = "no SHUFFLE tag"
		return res, nil
	}
	seed, err := ParseSeed(g.Shuffle.Seed)
	if err != nil {
		return res, fmt.Errorf("%s: SHUFFLE seed: %w", g.File, err)
	}
	res.Variant = seed.Variant
	res.Players = g.Go.Players()
	gen, err := NewGenerator(seed, res.Players)
	if err != nil {
		return res, fmt.Errorf("%s: %w", g.File, err)
	}
	v := verifier{res: &res}
	var w Wall
	for i := range g.Rounds {
		gen.Next(&w)
		v.round(&g.Rounds[i], &w)
		res.Rounds++
	}
	return res, nil
}

// verifier checks the rounds of one log into res.
type verifier struct {
	res       *Result
	roundName string
	w         *Wall
}

func (v *verifier) mismatch(tag, expected, actual string) {
	v.res.Mismatches = append(v.res.Mismatches, Mismatch{
		File: v.res.File, Round: v.roundName, Tag: tag, Expected: expected, Actual: actual,
	})
}

// tile checks one tile of the log against yama[idx] (idx -1: no such slot).
func (v *verifier) tile(kind CheckKind, idx int, got wall.Tile, tag func() string) {
	v.res.Checks[kind]++
	if idx < 0 {
		v.mismatch(tag(), "no such wall slot", tileText(got))
		return
	}
	if want := v.w.Tiles[idx]; want != got {
		v.mismatch(tag(), tileText(want), tileText(got))
	}
}

func (v *verifier) round(r *mjlog.Round, w *Wall) {
	v.w = w
	l := w.Layout
	in := &r.Init
	v.roundName = RoundName(in.Kyoku, in.Honba)

	v.res.Checks[CheckDice]++
	if in.Dice != w.Dice {
		v.mismatch("INIT seed dice", diceText(w.Dice), diceText(in.Dice))
	}
	v.tile(CheckDoraIndicator, l.DoraIndicatorIndex(0), in.DoraIndicator, func() string {
		return fmt.Sprintf("INIT seed dora indicator (yama[%d])", l.DoraIndicatorIndex(0))
	})
	v.haipai(in, l)

	live, rinshan, pending, kanDora := 0, 0, 0, 0
	for _, ev := range r.Events {
		switch e := ev.(type) {
		case mjlog.Draw:
			if pending > 0 {
				pending--
				k, idx := rinshan, l.RinshanIndex(rinshan)
				rinshan++
				v.tile(CheckRinshan, idx, e.Tile, func() string {
					return fmt.Sprintf("%c rinshan draw %d (yama[%d])", drawLetter(e.Who), k, idx)
				})
				continue
			}
			d, idx := live, l.LiveDrawIndex(live, rinshan)
			live++
			v.tile(CheckLiveDraw, idx, e.Tile, func() string {
				return fmt.Sprintf("%c live draw %d (yama[%d])", drawLetter(e.Who), d, idx)
			})
		case mjlog.Call:
			switch e.Meld.Type {
			case riichi.Daiminkan, riichi.Ankan, riichi.Kakan, riichi.Kita:
				pending++
			}
		case mjlog.Dora:
			kanDora++
			k, idx := kanDora, l.DoraIndicatorIndex(kanDora)
			v.tile(CheckKanDora, idx, e.Tile, func() string {
				return fmt.Sprintf("DORA kan dora %d (yama[%d])", k, idx)
			})
		case mjlog.Agari:
			v.indicators(CheckDoraHai, "AGARI doraHai", e.DoraHai, l.DoraIndicatorIndex)
			if e.DoraHaiUra != nil {
				v.indicators(CheckUraHai, "AGARI doraHaiUra", e.DoraHaiUra, l.UraIndicatorIndex)
			}
		case mjlog.Ryuukyoku:
			if e.Type != "" {
				continue
			}
			v.res.Checks[CheckExhaustive]++
			if live+rinshan != l.LiveDraws() {
				v.mismatch("RYUUKYOKU exhaustive draw tile count",
					fmt.Sprintf("%d draws (N-14-13P)", l.LiveDraws()),
					fmt.Sprintf("%d draws (%d live + %d rinshan)", live+rinshan, live, rinshan))
			}
		}
	}
}

// haipai checks hai0..hai3 against the deal order of docs/wall-layout.md §5.
func (v *verifier) haipai(in *mjlog.Init, l wall.Layout) {
	if in.Oya < 0 || in.Oya >= l.Players {
		v.mismatch("INIT oya", fmt.Sprintf("a seat 0..%d", l.Players-1), strconv.Itoa(in.Oya))
		return
	}
	var buf [wall.HaipaiSize]wall.Tile
	want := buf[:]
	for seat := range l.Players {
		s := (seat - in.Oya + l.Players) % l.Players
		for n := range want {
			want[n] = v.w.Tiles[l.HaipaiIndex(s, n)]
		}
		v.res.Checks[CheckHaipai]++
		if !equalTiles(want, in.Hai[seat]) {
			v.mismatch("INIT hai"+strconv.Itoa(seat), listText(want), listText(in.Hai[seat]))
		}
	}
	if l.Players == 3 && len(in.Hai[3]) != 0 {
		v.mismatch("INIT hai3", "empty (three players)", listText(in.Hai[3]))
	}
}

// indicators checks one AGARI indicator list: entry k against slot(k).
func (v *verifier) indicators(kind CheckKind, tag string, got []wall.Tile, slot func(int) int) {
	v.res.Checks[kind]++
	var buf [5]wall.Tile
	want := buf[:0]
	for k := range got {
		idx := slot(k)
		if idx < 0 {
			v.mismatch(tag, fmt.Sprintf("at most %d indicators: %s", len(buf), listText(want)), listText(got))
			return
		}
		want = append(want, v.w.Tiles[idx])
	}
	if !equalTiles(want, got) {
		v.mismatch(tag, listText(want), listText(got))
	}
}

func drawLetter(who int) byte {
	if who < 0 || who > 3 {
		return '?'
	}
	return "TUVW"[who]
}

func equalTiles(a, b []wall.Tile) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func tileText(t wall.Tile) string { return fmt.Sprintf("%d (%s)", int(t), t) }

func diceText(d [2]int) string { return fmt.Sprintf("%d,%d", d[0], d[1]) }

func listText(ts []wall.Tile) string {
	if len(ts) == 0 {
		return "(none)"
	}
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(t)))
	}
	return b.String()
}
