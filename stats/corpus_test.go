package stats

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
)

// corpusFiles returns the real Tenhou logs the tests read
// (tenhoucorpus.For); its MANIFEST.md describes them.
func corpusFiles(t testing.TB) []string {
	t.Helper()
	return tenhoucorpus.For(t).MustFiles(t)
}

// xmlGame is what the second code path reads of a log.
type xmlGame struct {
	players  int
	names    [4]string
	firstOya int
	final    []int
	points   []float64 // owari's game points (uma and oka included)
	seats    [4]Tally
}

// readXML is the second code path: written apart from Scan, over
// encoding/xml's tokens of the raw log, with its own reading of the meld
// bits (tenhou.net/img/tehai.js: 0x4 chi, 0x8 pon, 0x10 kakan, 0x20 kita,
// else a kan, open when m&3 != 0) and of every attribute.
func readXML(t *testing.T, path string) xmlGame {
	raw, err := tenhoucorpus.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(raw))
	g := xmlGame{players: 4}
	attrs := map[string]string{}
	num := func(s string) int {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("%s: %q: %v", path, s, err)
		}
		return n
	}
	kyoku := 0
	var riichi, called, dealtIn map[int]bool
	flush := func() {
		for s := range riichi {
			g.seats[s].RiichiKyoku++
		}
		for s := range called {
			g.seats[s].CallKyoku++
		}
		for s := range dealtIn {
			g.seats[s].DealInKyoku++
		}
		riichi, called, dealtIn = map[int]bool{}, map[int]bool{}, map[int]bool{}
	}
	flush()
	seenUN := false
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		clear(attrs)
		for _, a := range se.Attr {
			attrs[a.Name.Local] = a.Value
		}
		switch se.Name.Local {
		case "GO":
			if num(attrs["type"])&0x10 != 0 {
				g.players = 3
			}
		case "UN":
			if seenUN || kyoku > 0 {
				continue
			}
			seenUN = true
			for i := range 4 {
				g.names[i], err = url.PathUnescape(attrs["n"+strconv.Itoa(i)])
				if err != nil {
					t.Fatal(err)
				}
			}
		case "INIT":
			if kyoku == 0 {
				g.firstOya = num(attrs["oya"])
			}
			kyoku++
			flush()
			for s := 0; s < g.players; s++ {
				g.seats[s].Kyoku++
			}
		case "REACH":
			if attrs["step"] == "1" {
				riichi[num(attrs["who"])] = true
			}
		case "N":
			m := num(attrs["m"])
			kan := m&(0x4|0x8|0x10|0x20) == 0
			if m&0x4 != 0 || m&0x8 != 0 || m&0x10 != 0 || kan && m&3 != 0 {
				called[num(attrs["who"])] = true
			}
		case "AGARI":
			who, from := num(attrs["who"]), num(attrs["fromWho"])
			pts := num(strings.Split(attrs["ten"], ",")[1])
			g.seats[who].Wins++
			g.seats[who].WinPoints += pts
			if who == from {
				g.seats[who].TsumoWins++
			} else {
				dealtIn[from] = true
				g.seats[from].DealIns++
				g.seats[from].DealInPoints += pts
			}
		case "RYUUKYOKU":
			if typ := attrs["type"]; typ == "" || typ == "nm" {
				for s := 0; s < g.players; s++ {
					g.seats[s].DrawKyoku++
					if attrs["hai"+strconv.Itoa(s)] != "" {
						g.seats[s].DrawTenpai++
					}
				}
			}
		}
		if o, ok := attrs["owari"]; ok && (se.Name.Local == "AGARI" || se.Name.Local == "RYUUKYOKU") {
			fields := strings.Split(o, ",")
			g.final, g.points = nil, nil
			for s := 0; s < g.players; s++ {
				g.final = append(g.final, num(fields[2*s]))
				pt, err := strconv.ParseFloat(fields[2*s+1], 64)
				if err != nil {
					t.Fatalf("%s: owari %q: %v", path, o, err)
				}
				g.points = append(g.points, pt)
			}
		}
	}
	flush()
	return g
}

// xmlPlacements ranks the seats by sorting: score descending, then the
// seat's distance from the first dealer.
func xmlPlacements(g xmlGame) []int {
	seats := make([]int, g.players)
	for i := range seats {
		seats[i] = i
	}
	dist := func(s int) int { return (s - g.firstOya + g.players) % g.players }
	sort.SliceStable(seats, func(i, j int) bool {
		a, b := seats[i], seats[j]
		if g.final[a] != g.final[b] {
			return g.final[a] > g.final[b]
		}
		return dist(a) < dist(b)
	})
	out := make([]int, g.players)
	for place, s := range seats {
		out[s] = place + 1
	}
	return out
}

// TestSecondPath compares Scan with the second code path on every shared
// Tenhou log: players, names, first dealer, final scores, every tally and
// the placements.
func TestSecondPath(t *testing.T) {
	for _, path := range corpusFiles(t) {
		g, err := ReadFile(path)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		x := readXML(t, path)
		if g.Players != x.players || g.Names != x.names || g.FirstOya != x.firstOya || !slices.Equal(g.Final, x.final) {
			t.Errorf("%s: players %d names %q oya %d final %v; second path %d %q %d %v", path, g.Players, g.Names, g.FirstOya, g.Final, x.players, x.names, x.firstOya, x.final)
		}
		if g.Seats != x.seats {
			t.Errorf("%s: tallies\n%+v\nsecond path\n%+v", path, g.Seats, x.seats)
		}
		if x.final != nil && !slices.Equal(g.Placements(), xmlPlacements(x)) {
			t.Errorf("%s: placements %v, second path %v (final %v, first dealer %d)", path, g.Placements(), xmlPlacements(x), x.final, x.firstOya)
		}
	}
}

// TestPlacementsMatchTenhou: Tenhou's own placements show in its owari
// game points: with uma by place, a higher place has more points, also
// between tied scores (some private-lobby rules give tied players equal
// points instead). In every shared game with a final result no seat may
// be placed above a seat with more points, and the tied scores that
// Tenhou's points tell apart must be in Tenhou's order.
func TestPlacementsMatchTenhou(t *testing.T) {
	ties := 0
	for _, path := range corpusFiles(t) {
		g, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		x := readXML(t, path)
		p := g.Placements()
		if p == nil {
			continue
		}
		for a := range g.Players {
			for b := range g.Players {
				if p[a] < p[b] && x.points[a] < x.points[b] {
					t.Errorf("%s: seat %d placed %d above seat %d placed %d, but Tenhou's points are %v (scores %v)", path, a, p[a], b, p[b], x.points, g.Final)
				}
				if a < b && g.Final[a] == g.Final[b] && x.points[a] != x.points[b] {
					ties++
				}
			}
		}
	}
	if ties == 0 {
		t.Error("no tied final scores that Tenhou's points tell apart: the tie order went unchecked")
	}
	t.Logf("%d pairs of tied final scores ranked as Tenhou's points rank them", ties)
}

// TestPlacementsArePermutations: in every shared game with a final result
// the players' placements are a permutation of 1..4 (1..3 in sanma), also
// where scores tie.
func TestPlacementsArePermutations(t *testing.T) {
	ties := 0
	for _, path := range corpusFiles(t) {
		g, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		p := g.Placements()
		if p == nil {
			continue
		}
		sorted := slices.Sorted(slices.Values(p))
		for i, v := range sorted {
			if v != i+1 {
				t.Errorf("%s: placements %v (final %v) are not a permutation of 1..%d", path, p, g.Final, g.Players)
				break
			}
		}
		if len(slices.Compact(slices.Sorted(slices.Values(g.Final)))) < g.Players {
			ties++
		}
	}
	t.Logf("%d games with tied final scores", ties)
}

// TestPlacementsTies: over random final scores drawn from a few values
// (many ties), any first dealer and both table sizes, the placements are
// a permutation of 1..N, and of two tied seats the one fewer seats after
// the first dealer ranks higher.
func TestPlacementsTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 2))
	for range 5000 {
		n := 3 + rng.IntN(2)
		g := &Game{Players: n, FirstOya: rng.IntN(n), Final: make([]int, n)}
		for s := range n {
			g.Final[s] = 100 * (rng.IntN(3) - 1) // -100, 0 or 100: ties
		}
		p := g.Placements()
		if !slices.Equal(slices.Sorted(slices.Values(p)), []int{1, 2, 3, 4}[:n]) {
			t.Fatalf("final %v, first dealer %d: placements %v", g.Final, g.FirstOya, p)
		}
		for a := range n {
			for b := range n {
				da, db := (a-g.FirstOya+n)%n, (b-g.FirstOya+n)%n
				if g.Final[a] == g.Final[b] && da < db && p[a] > p[b] {
					t.Fatalf("final %v, first dealer %d: seat %d placed %d after tied seat %d placed %d", g.Final, g.FirstOya, a, p[a], b, p[b])
				}
			}
		}
	}
}

// TestCorpusTotals checks the corpus's totals against the line of its
// MANIFEST.md that counts them (the whole corpus's "Totals: 342 games (242
// four-player, 100 three-player), 3250 rounds (2198 4p, 1052 3p)"), with
// no game read twice.
func TestCorpusTotals(t *testing.T) {
	corpus := tenhoucorpus.For(t)
	files := corpus.MustFiles(t)
	manifest, err := os.ReadFile(corpus.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`Totals: \d+ games \((\d+) four-player, (\d+) three-player\), \d+ rounds \((\d+) 4p, (\d+) 3p\)`).FindSubmatch(manifest)
	if m == nil {
		t.Fatal("MANIFEST.md has no Totals line")
	}
	var want [4]int
	for i := range want {
		want[i], _ = strconv.Atoi(string(m[i+1]))
	}
	set, _, err := Load(context.Background(), files, LoadOptions{Bad: func(p string, err error) { t.Error(err) }})
	if err != nil {
		t.Fatal(err)
	}
	got := [4]int{set.Four.Games, set.Three.Games, set.Four.Kyoku, set.Three.Kyoku}
	if got != want || set.Duplicates != 0 {
		t.Errorf("games 4p/3p and kyoku 4p/3p %v, %d duplicates; MANIFEST.md says %v and none", got, set.Duplicates, want)
	}
}
