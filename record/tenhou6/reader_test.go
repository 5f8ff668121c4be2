package tenhou6

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// This file is a reader of tenhou.net/6 JSON written apart from the
// writer: it decodes the JSON generically, turns every kyoku back into
// per-seat plays (draws, discards, calls) and results, and the test
// compares them with the mjlog the JSON came from.

// play is one step of a seat as the reader sees it: a draw, a discard or
// a call, with tiles as "5m"/"0m" names (0 a red five).
type play struct {
	kind   string   // "draw", "discard", "riichi", "chi", "pon", "daiminkan", "kakan", "ankan", "kita"
	tile   string   // drawn or discarded tile; the called (or added) tile of a call
	tiles  []string // every tile of a call, sorted
	giri   bool     // discard of the tile just drawn
	called int      // relative seat a call came from: 1 shimocha, 2 toimen, 3 kamicha
}

func (p play) String() string {
	return fmt.Sprintf("%s %s %v giri=%v from=%d", p.kind, p.tile, p.tiles, p.giri, p.called)
}

// codeName turns a tenhou.net/6 code into a tile name: the tens digit is
// the suit (1 m, 2 p, 3 s, 4 z), the unit the number; 51–53 are the red
// fives "0m", "0p", "0s".
func codeName(c int) (string, error) {
	switch {
	case c >= 51 && c <= 53:
		return "0" + string("mps"[c-51]), nil
	case c/10 >= 1 && c/10 <= 3 && c%10 >= 1:
		return strconv.Itoa(c%10) + string("mps"[c/10-1]), nil
	case c/10 == 4 && c%10 >= 1 && c%10 <= 7:
		return strconv.Itoa(c%10) + "z", nil
	}
	return "", fmt.Errorf("tile code %d", c)
}

// tileName names a wall tile the same way from its id (independent of
// Code): red ids give "0x" when the game has red fives.
func tileName(t wall.Tile, aka bool) string {
	s := t.Kind().String()
	if aka && t.IsRed() {
		return "0" + s[1:]
	}
	return s
}

// parseCall reads a call string: pairs of digits with one letter before
// the called tile. It returns the letter, the called tile code, all codes
// in order and the index of the called one.
func parseCall(s string) (letter byte, codes []int, at int, err error) {
	at = -1
	for i := 0; i < len(s); {
		if s[i] >= 'a' && s[i] <= 'z' {
			if at >= 0 {
				return 0, nil, 0, fmt.Errorf("call %q: two letters", s)
			}
			letter, at = s[i], len(codes)
			i++
			continue
		}
		if i+2 > len(s) {
			return 0, nil, 0, fmt.Errorf("call %q: odd digits", s)
		}
		c, err := strconv.Atoi(s[i : i+2])
		if err != nil {
			return 0, nil, 0, fmt.Errorf("call %q: %w", s, err)
		}
		codes = append(codes, c)
		i += 2
	}
	if at < 0 {
		return 0, nil, 0, fmt.Errorf("call %q: no letter", s)
	}
	return letter, codes, at, nil
}

func names(codes []int) ([]string, error) {
	var out []string
	for _, c := range codes {
		n, err := codeName(c)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return out, nil
}

// readSeat rebuilds one seat's plays from its takes and discards arrays,
// in the only order the format allows: each take is followed by one
// discard (a daiminkan by its 0, an ankan, kakan or kita by the next
// rinshan take).
func readSeat(takes, discards []any) ([]play, error) {
	var out []play
	ti, di := 0, 0
	lastDraw := ""
	for ti < len(takes) || di < len(discards) {
		if ti < len(takes) {
			switch v := takes[ti].(type) {
			case float64:
				n, err := codeName(int(v))
				if err != nil {
					return nil, err
				}
				out = append(out, play{kind: "draw", tile: n})
				lastDraw = n
			case string:
				letter, codes, at, err := parseCall(v)
				if err != nil {
					return nil, err
				}
				p := play{tile: mustName(codes[at])}
				if p.tiles, err = names(codes); err != nil {
					return nil, err
				}
				switch {
				case letter == 'c' && at == 0 && len(codes) == 3:
					p.kind, p.called = "chi", 3
				case letter == 'p' && len(codes) == 3:
					p.kind, p.called = "pon", []int{3, 2, 1}[at]
				case letter == 'm' && len(codes) == 4:
					p.kind, p.called = "daiminkan", []int{3, 2, 0, 1}[at]
				default:
					return nil, fmt.Errorf("take %q", v)
				}
				out = append(out, p)
				lastDraw = ""
			default:
				return nil, fmt.Errorf("take %v", v)
			}
			ti++
		}
		if di >= len(discards) {
			continue
		}
		switch v := discards[di].(type) {
		case float64:
			switch int(v) {
			case 0:
			case Tsumogiri:
				if lastDraw == "" {
					return nil, fmt.Errorf("tsumogiri without a draw")
				}
				out = append(out, play{kind: "discard", tile: lastDraw, giri: true})
			default:
				n, err := codeName(int(v))
				if err != nil {
					return nil, err
				}
				out = append(out, play{kind: "discard", tile: n})
			}
		case string:
			if strings.HasPrefix(v, "r") {
				c, err := strconv.Atoi(v[1:])
				if err != nil {
					return nil, fmt.Errorf("discard %q", v)
				}
				p := play{kind: "riichi"}
				if c == Tsumogiri {
					p.tile, p.giri = lastDraw, true
				} else if p.tile, err = codeName(c); err != nil {
					return nil, err
				}
				out = append(out, p)
				break
			}
			letter, codes, at, err := parseCall(v)
			if err != nil {
				return nil, err
			}
			p := play{}
			if p.tiles, err = names(codes); err != nil {
				return nil, err
			}
			switch {
			case letter == 'a' && at == 3 && len(codes) == 4:
				p.kind = "ankan"
			case letter == 'k' && len(codes) == 4 && at < 3:
				p.kind, p.tile, p.called = "kakan", mustName(codes[at]), []int{3, 2, 1}[at]
			case letter == 'f' && len(codes) == 1:
				p.kind, p.tile = "kita", mustName(codes[0])
			default:
				return nil, fmt.Errorf("discard %q", v)
			}
			out = append(out, p)
		default:
			return nil, fmt.Errorf("discard %v", v)
		}
		di++
		lastDraw = ""
	}
	return out, nil
}

func mustName(c int) string {
	n, err := codeName(c)
	if err != nil {
		return fmt.Sprintf("?%d", c)
	}
	return n
}

// fromMjlog lists each seat's plays in one mjlog round.
func fromMjlog(rd *mjlog.Round, aka bool) [4][]play {
	var out [4][]play
	var lastDraw [4]wall.Tile
	var reach [4]bool
	for _, e := range rd.Events {
		switch e := e.(type) {
		case mjlog.Draw:
			out[e.Who] = append(out[e.Who], play{kind: "draw", tile: tileName(e.Tile, aka)})
			lastDraw[e.Who] = e.Tile
		case mjlog.Discard:
			p := play{kind: "discard", tile: tileName(e.Tile, aka), giri: e.Tile == lastDraw[e.Who]}
			if reach[e.Who] {
				p.kind, reach[e.Who] = "riichi", false
			}
			out[e.Who] = append(out[e.Who], p)
			lastDraw[e.Who] = -1
		case mjlog.Reach:
			if e.Step == 1 {
				reach[e.Who] = true
			}
		case mjlog.Call:
			m := e.Meld
			p := play{kind: m.Type.String(), called: m.From}
			for _, t := range m.Tiles {
				p.tiles = append(p.tiles, tileName(t, aka))
			}
			slices.Sort(p.tiles)
			switch m.Type {
			case riichi.Chi, riichi.Pon, riichi.Daiminkan:
				p.tile = tileName(m.Called, aka)
			case riichi.Kakan:
				p.tile = tileName(m.Added, aka)
			case riichi.Kita:
				p.tile, p.called = tileName(m.Tiles[0], aka), 0
			case riichi.Ankan:
				p.called = 0
			}
			out[e.Who] = append(out[e.Who], p)
			lastDraw[e.Who] = -1
		}
	}
	return out
}

// readBack converts g, encodes it, decodes the JSON generically and
// compares every kyoku with the mjlog. It returns the number of plays
// compared.
func readBack(t *testing.T, g *mjlog.Game) int {
	t.Helper()
	var doc struct {
		Log  [][]any  `json:"log"`
		Sc   []any    `json:"sc"`
		Name []string `json:"name"`
	}
	if err := json.Unmarshal(encoded(t, g), &doc); err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(g.File)
	if len(doc.Log) != len(g.Rounds) {
		t.Fatalf("%s: %d kyoku in JSON, %d in mjlog", name, len(doc.Log), len(g.Rounds))
	}
	aka := g.Go.Aka()
	plays := 0
	for i, k := range doc.Log {
		rd := &g.Rounds[i]
		where := fmt.Sprintf("%s kyoku %d", name, i)
		if len(k) != 17 {
			t.Fatalf("%s: %d elements, want 17", where, len(k))
		}
		head := k[0].([]any)
		if int(head[0].(float64)) != rd.Init.Kyoku || int(head[1].(float64)) != rd.Init.Honba || int(head[2].(float64)) != rd.Init.Kyotaku {
			t.Errorf("%s: header %v", where, head)
		}
		for s, v := range k[1].([]any) {
			if int(v.(float64)) != 100*rd.Init.Ten[s] {
				t.Errorf("%s: start score %d = %v, mjlog %d00", where, s, v, rd.Init.Ten[s])
			}
		}
		want := fromMjlog(rd, aka)
		for s := range 4 {
			hai, err := names(toInts(k[4+3*s].([]any)))
			if err != nil {
				t.Fatalf("%s seat %d haipai: %v", where, s, err)
			}
			var wantHai []string
			for _, t := range rd.Init.Hai[s] {
				wantHai = append(wantHai, tileName(t, aka))
			}
			slices.Sort(wantHai)
			if !slices.Equal(hai, wantHai) {
				t.Errorf("%s seat %d haipai %v, mjlog %v", where, s, hai, wantHai)
			}
			got, err := readSeat(k[5+3*s].([]any), k[6+3*s].([]any))
			if err != nil {
				t.Fatalf("%s seat %d: %v", where, s, err)
			}
			if len(got) != len(want[s]) {
				t.Errorf("%s seat %d: %d plays, mjlog %d", where, s, len(got), len(want[s]))
				continue
			}
			for j := range got {
				if got[j].String() != want[s][j].String() {
					t.Errorf("%s seat %d play %d: JSON %v, mjlog %v", where, s, j, got[j], want[s][j])
				}
			}
			plays += len(got)
		}
		checkResult(t, where, k[16].([]any), rd, g.Go.Players() == 3)
	}
	return plays
}

func toInts(vs []any) []int {
	out := make([]int, len(vs))
	for i, v := range vs {
		out[i] = int(v.(float64))
	}
	return out
}

// checkResult compares a kyoku's result with the mjlog's AGARI or
// RYUUKYOKU tags: the deltas with sc=, who and from, and the points in
// the score string with Tenhou's ten= value.
func checkResult(t *testing.T, where string, res []any, rd *mjlog.Round, threePlayer bool) {
	var ends []mjlog.Event
	for _, e := range rd.Events {
		switch e.(type) {
		case mjlog.Agari, mjlog.Ryuukyoku:
			ends = append(ends, e)
		}
	}
	deltas := func(sc []int) []int {
		d := make([]int, 4)
		for s := 0; 2*s+1 < len(sc) && s < 4; s++ {
			d[s] = 100 * sc[2*s+1]
		}
		return d
	}
	if res[0] == "和了" {
		if len(res) != 1+2*len(ends) {
			t.Errorf("%s: %d result elements for %d wins", where, len(res), len(ends))
			return
		}
		for i, e := range ends {
			a := e.(mjlog.Agari)
			if got := toInts(res[1+2*i].([]any)); !slices.Equal(got, deltas(a.Sc)) {
				t.Errorf("%s: deltas %v, mjlog sc %v", where, got, a.Sc)
			}
			d := res[2+2*i].([]any)
			if int(d[0].(float64)) != a.Who || int(d[1].(float64)) != a.FromWho {
				t.Errorf("%s: winner %v from %v, mjlog %d from %d", where, d[0], d[1], a.Who, a.FromWho)
			}
			if nominal, actual := pointsOf(d[3].(string)); a.Ten != nominal && (!threePlayer || a.Ten != actual) {
				t.Errorf("%s: score %q is %d (or %d) points, mjlog ten= %d", where, d[3], nominal, actual, a.Ten)
			}
		}
		return
	}
	if len(ends) != 1 {
		t.Errorf("%s: draw %v with %d end tags", where, res[0], len(ends))
		return
	}
	rk := ends[0].(mjlog.Ryuukyoku)
	want := deltas(rk.Sc)
	got := make([]int, 4)
	if len(res) > 1 {
		got = toInts(res[1].([]any))
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: %v deltas %v, mjlog sc %v", where, res[0], got, rk.Sc)
	}
}

// pointsOf reads the points of a score string as the winner's gain
// without honba: nominal is the ron value, a dealer tsumo 3×, a non-dealer
// tsumo 2×non-dealer + dealer (Tenhou's ten= in four-player games and in
// older three-player ones); actual is what two payers pay in a
// three-player game (Tenhou's ten= there since about 2015: a dealer tsumo
// 2×, a non-dealer tsumo non-dealer + dealer).
func pointsOf(s string) (nominal, actual int) {
	i := strings.IndexAny(s, "0123456789")
	for strings.ContainsAny(s[i:], "符飜") {
		s = s[strings.IndexAny(s, "飜")+len("飜"):]
		i = 0
	}
	s = strings.TrimPrefix(s, "満貫")
	for _, r := range []string{"三倍満", "倍満", "跳満", "役満"} {
		s = strings.TrimPrefix(s, r)
	}
	all := strings.HasSuffix(s, "点∀")
	s = strings.TrimSuffix(strings.TrimSuffix(s, "∀"), "点")
	if a, b, ok := strings.Cut(s, "-"); ok {
		x, _ := strconv.Atoi(a)
		y, _ := strconv.Atoi(b)
		return 2*x + y, x + y
	}
	n, _ := strconv.Atoi(s)
	if all {
		return 3 * n, 2 * n
	}
	return n, n
}

// TestSharedLogsReadBack converts every real Tenhou log of the corpus and
// reads the JSON back; the games and three-player games read must be those
// its MANIFEST.md lists. The subtest drops one log, as a lost file would,
// and requires that count check to fail.
func TestSharedLogsReadBack(t *testing.T) {
	corpus := tenhoucorpus.For(t)
	files := corpus.MustFiles(t)
	want := corpus.MustManifest(t).Totals()
	games, three, plays := readBackFiles(t, files)
	t.Logf("%d games (%d three-player), %d draws, discards and calls compared", games, three, plays)
	if err := countError(games, three, want); err != nil {
		t.Errorf("%s: %v", corpus, err)
	}
	t.Run("a missing log is caught", func(t *testing.T) {
		games, three, _ := readBackFiles(t, files[1:])
		if countError(games, three, want) == nil {
			t.Errorf("%d of %d logs read back, and the count check passed", games, len(files))
		}
	})
}

// readBackFiles converts and reads back every log in files (readBack),
// returning the numbers of games and of three-player games read and the
// plays compared.
func readBackFiles(t *testing.T, files []string) (games, three, plays int) {
	t.Helper()
	for _, f := range files {
		g, err := mjlog.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		plays += readBack(t, g)
		games++
		if g.Go.Players() == 3 {
			three++
		}
	}
	return games, three, plays
}

// countError returns an error when the games and three-player games read
// are not the manifest's.
func countError(games, three int, want tenhoucorpus.Totals) error {
	if games != want.Games || three != want.Games3 {
		return fmt.Errorf("%d games (%d three-player) read back, the MANIFEST.md lists %d (%d)", games, three, want.Games, want.Games3)
	}
	return nil
}
