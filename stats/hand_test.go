package stats

import (
	"bytes"
	"compress/gzip"
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// handFiles are the hand-written records of testdata/hand. What happens in
// them, and so the expected figures, is worked out by hand below.
//
// a.xml, four players A B C D, first dealer A (seat 0):
//
//	kyoku 1: B declares riichi, C pons (m=11274), A deals in to B's ron
//	         worth 3900.
//	kyoku 2: D makes an ankan (m=31744, not a call), A chis (m=25791);
//	         D wins by tsumo, 7700.
//	kyoku 3: C declares riichi; double ron on C's discard: A for 2000 and
//	         B for 1600.
//	kyoku 4: exhaustive draw, A and D tenpai (hai0, hai3 shown); final
//	         scores A 31000, B 39000, C -1000, D 31000: B 1st, A 2nd (ties
//	         with D and is the earlier seat), D 3rd, C 4th and bust.
//
// a-view-of-A.mjlog.xml is the same game as A's private view (the others'
// draws hidden, <U/>): a copy, counted once.
//
// e.xml, four players A B C E, no final result (a game cut short): A
// declares riichi, B makes a kakan (m=16947, a call); kyuushu kyuuhai, an
// abortive draw (not an exhaustive one).
//
// 2020010100gm-00b9-0000-0000hand.xml, sanma X Y Z, first dealer Y
// (seat 1):
//
//	kyoku 1: Y declares riichi, Z calls kita (m=31264, not a call); Y wins
//	         by tsumo, 2000.
//	kyoku 2: X pons (m=11274); nagashi mangan (type nm, an exhaustive draw),
//	         X tenpai (hai0 shown); final scores all 35000: Y 1st (first
//	         dealer), Z 2nd, X 3rd.
var handFiles = []string{"a.xml", "a-view-of-A.mjlog.xml", "e.xml", "2020010100gm-00b9-0000-0000hand.xml"}

// want are the hand-computed figures; nan stands for null (no
// denominator).
type want struct {
	games, kyoku int
	place        [4]int
	avg, bust    float64
	win, tsumo   float64
	dealIn       float64
	riichi, call float64
	winPts, dPts float64
	tenpai       float64
}

var nan = math.NaN()

var wantFour = map[string]want{
	// A: 5 kyoku (4 + 1 in e.xml); won kyoku 3 by ron (2000); dealt in
	// kyoku 1 (3900); riichi in e.xml; chi in kyoku 2; tenpai at the one
	// exhaustive draw; 2nd.
	"A": {1, 5, [4]int{0, 1, 0, 0}, 2, 0, 1.0 / 5, 0, 1.0 / 5, 1.0 / 5, 1.0 / 5, 2000, 3900, 1},
	// B: 5 kyoku; rons in kyoku 1 (3900) and 3 (1600); riichi kyoku 1;
	// kakan in e.xml; noten at the draw; 1st.
	"B": {1, 5, [4]int{1, 0, 0, 0}, 1, 0, 2.0 / 5, 0, 0, 1.0 / 5, 1.0 / 5, 2750, nan, 0},
	// C: 5 kyoku; dealt in once (kyoku 3, two rons: 2000 + 1600); riichi
	// kyoku 3; pon kyoku 1; noten; 4th, bust.
	"C": {1, 5, [4]int{0, 0, 0, 1}, 4, 1, 0, nan, 1.0 / 5, 1.0 / 5, 1.0 / 5, nan, 1800, 0},
	// D: 4 kyoku; tsumo 7700; ankan only; tenpai; 3rd.
	"D": {1, 4, [4]int{0, 0, 1, 0}, 3, 0, 1.0 / 4, 1, 0, 0, 0, 7700, nan, 1},
	// E: 1 kyoku of an unfinished game: no game, nothing else.
	"E": {0, 1, [4]int{}, nan, nan, 0, nan, 0, 0, 0, nan, nan, nan},
	// The whole set: 4 finished seats, 20 kyoku, 4 wins (1 tsumo) worth
	// 15200, 2 deal-in kyoku, 3 rons paid worth 7500, 3 riichi, 3 calls,
	// 4 seats at exhaustive draws of which 2 tenpai, 1 bust.
	AllName: {4, 20, [4]int{1, 1, 1, 1}, 2.5, 0.25, 4.0 / 20, 0.25, 2.0 / 20, 3.0 / 20, 3.0 / 20, 3800, 2500, 0.5},
}

var wantThree = map[string]want{
	// X: 2 kyoku; pon in kyoku 2; tenpai at the nagashi mangan; 3rd.
	"X": {1, 2, [4]int{0, 0, 1, 0}, 3, 0, 0, nan, 0, 0, 0.5, nan, nan, 1},
	// Y: tsumo 2000 with riichi in kyoku 1; 1st.
	"Y": {1, 2, [4]int{1, 0, 0, 0}, 1, 0, 0.5, 1, 0, 0.5, 0, 2000, nan, 0},
	// Z: kita only; 2nd.
	"Z": {1, 2, [4]int{0, 1, 0, 0}, 2, 0, 0, nan, 0, 0, 0, nan, nan, 0},
	// The whole set: 6 kyoku, 1 win, 1 riichi, 1 call, 3 seats at one
	// exhaustive draw of which 1 tenpai.
	AllName: {3, 6, [4]int{1, 1, 1, 0}, 2, 0, 1.0 / 6, 1, 0, 1.0 / 6, 1.0 / 6, 2000, nan, 1.0 / 3},
}

func checkFigures(t *testing.T, f Figures, w want) {
	t.Helper()
	if f.Games != w.games || f.Kyoku != w.kyoku || f.Placements != w.place {
		t.Errorf("%s: games %d kyoku %d placements %v, want %d %d %v", f.Name, f.Games, f.Kyoku, f.Placements, w.games, w.kyoku, w.place)
	}
	for _, c := range []struct {
		key  string
		got  *float64
		want float64
	}{
		{"avg_placement", f.AvgPlacement, w.avg}, {"bust_rate", f.BustRate, w.bust},
		{"win_rate", f.WinRate, w.win}, {"tsumo_share", f.TsumoShare, w.tsumo},
		{"deal_in_rate", f.DealInRate, w.dealIn}, {"riichi_rate", f.RiichiRate, w.riichi},
		{"call_rate", f.CallRate, w.call}, {"avg_win_points", f.AvgWinPoints, w.winPts},
		{"avg_deal_in_points", f.AvgDealInPoints, w.dPts}, {"draw_tenpai_rate", f.DrawTenpaiRate, w.tenpai},
	} {
		switch {
		case math.IsNaN(c.want) && c.got != nil:
			t.Errorf("%s: %s = %v, want null", f.Name, c.key, *c.got)
		case !math.IsNaN(c.want) && c.got == nil:
			t.Errorf("%s: %s = null, want %v", f.Name, c.key, c.want)
		case c.got != nil && math.Abs(*c.got-c.want) > 1e-12:
			t.Errorf("%s: %s = %v, want %v", f.Name, c.key, *c.got, c.want)
		}
	}
}

// TestHandComputed checks every figure of the hand-written set against the
// values worked out by hand (see handFiles), and that the private view of
// a game already read is counted once.
func TestHandComputed(t *testing.T) {
	var files []string
	for _, f := range handFiles {
		files = append(files, filepath.Join("testdata", "hand", f))
	}
	set, _, err := Load(context.Background(), files, LoadOptions{Bad: func(p string, err error) { t.Errorf("%s: %v", p, err) }})
	if err != nil {
		t.Fatal(err)
	}
	if set.Duplicates != 1 {
		t.Errorf("duplicates %d, want 1 (the private view of a.xml)", set.Duplicates)
	}
	r := set.Report("")
	if r.FourPlayer == nil || r.ThreePlayer == nil {
		t.Fatalf("report %+v: want both kinds", r)
	}
	if g := r.FourPlayer; g.Games != 2 || g.Unfinished != 1 || g.Kyoku != 5 || len(g.Players) != 5 {
		t.Errorf("four-player: games %d unfinished %d kyoku %d players %d, want 2 1 5 5", g.Games, g.Unfinished, g.Kyoku, len(g.Players))
	}
	if g := r.ThreePlayer; g.Games != 1 || g.Unfinished != 0 || g.Kyoku != 2 || len(g.Players) != 3 {
		t.Errorf("three-player: games %d unfinished %d kyoku %d players %d, want 1 0 2 3", g.Games, g.Unfinished, g.Kyoku, len(g.Players))
	}
	for _, k := range []struct {
		t    *TableReport
		want map[string]want
	}{{r.FourPlayer, wantFour}, {r.ThreePlayer, wantThree}} {
		seen := 0
		for _, f := range append(k.t.Players, k.t.All) {
			w, ok := k.want[f.Name]
			if !ok {
				t.Errorf("unexpected player %q", f.Name)
				continue
			}
			seen++
			checkFigures(t, f, w)
		}
		if seen != len(k.want) {
			t.Errorf("%d players checked, want %d", seen, len(k.want))
		}
	}
	// --player keeps one player and the whole set, and only the kinds of
	// game the player played.
	one := set.Report("B")
	if one.ThreePlayer != nil || len(one.FourPlayer.Players) != 1 || one.FourPlayer.All.Kyoku != 20 {
		t.Errorf("Report(B): %+v", one)
	}
}

// TestSince: the sanma record is dated 2020-01-01 by its Tenhou log id;
// --since the next day leaves it out.
func TestSince(t *testing.T) {
	path := filepath.Join("testdata", "hand", "2020010100gm-00b9-0000-0000hand.xml")
	g, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if g.Stamp != 20200101 {
		t.Errorf("stamp %d, want 20200101", g.Stamp)
	}
	for _, c := range []struct{ since, older, games int }{{20200101, 0, 1}, {20200102, 1, 0}} {
		set, older, err := Load(context.Background(), []string{path}, LoadOptions{Since: c.since})
		if err != nil || older != c.older || set.Three.Games != c.games {
			t.Errorf("since %d: older %d games %d (%v), want %d %d", c.since, older, set.Three.Games, err, c.older, c.games)
		}
	}
}

// TestGzip: a gzip-compressed record reads as the plain one.
func TestGzip(t *testing.T) {
	plain := filepath.Join("testdata", "hand", "a.xml")
	raw, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(raw)
	zw.Close()
	path := filepath.Join(t.TempDir(), "a.mjlog.gz")
	if err := os.WriteFile(path, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if a.Key != b.Key || a.Seats != b.Seats || !slices.Equal(a.Final, b.Final) || a.Names != b.Names {
		t.Errorf("gzip record differs: %+v\nplain: %+v", b, a)
	}
}
