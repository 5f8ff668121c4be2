package mjlog

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// corpusGame is one parsed log of the corpus with its raw bytes.
type corpusGame struct {
	path string
	raw  []byte
	game *Game
}

// parseCorpus parses every log of the corpus (the repository's subset or
// the whole shared corpus, tenhoucorpus.For) once per test binary; the
// result is read-only.
var parseCorpus = sync.OnceValues(func() ([]corpusGame, error) {
	paths, err := corpus.Files()
	if err != nil {
		return nil, err
	}
	out := make([]corpusGame, 0, len(paths))
	for _, p := range paths {
		raw, err := tenhoucorpus.ReadFile(p)
		if err != nil {
			return nil, err
		}
		g, err := Read(p)
		if err != nil {
			return nil, fmt.Errorf("parse: %w", err)
		}
		out = append(out, corpusGame{path: p, raw: raw, game: g})
	}
	return out, nil
})

// corpus is the corpus the tests read, set by loadCorpus before the first
// parseCorpus.
var corpus tenhoucorpus.Corpus

// loadCorpus returns the parsed corpus, failing the test on any parse
// error.
func loadCorpus(t testing.TB) []corpusGame {
	t.Helper()
	corpus = tenhoucorpus.For(t)
	games, err := parseCorpus()
	if err != nil {
		t.Fatal(err)
	}
	return games
}

// TestParseCorpus checks every log of the corpus parses, that the numbers
// of games and rounds are those its MANIFEST.md lists, and that the number of each tag
// kind counted with a regular expression over the raw text equals the
// number of parsed events of that kind.
func TestParseCorpus(t *testing.T) {
	games := loadCorpus(t)
	manifest := corpus.MustManifest(t)
	want := manifest.Totals()
	rounds := 0
	for _, c := range games {
		rounds += len(c.game.Rounds)
	}
	if len(games) != want.Games || rounds != want.Rounds {
		t.Errorf("%s: %d games, %d rounds; its MANIFEST.md says %d and %d", corpus, len(games), rounds, want.Games, want.Rounds)
	}
	patterns := map[string]*regexp.Regexp{
		"draw":      regexp.MustCompile(`<[TUVW][0-9]+/>`),
		"discard":   regexp.MustCompile(`<[DEFG][0-9]+/>`),
		"call":      regexp.MustCompile(`<N `),
		"reach":     regexp.MustCompile(`<REACH `),
		"dora":      regexp.MustCompile(`<DORA `),
		"agari":     regexp.MustCompile(`<AGARI `),
		"ryuukyoku": regexp.MustCompile(`<RYUUKYOKU `),
		"bye":       regexp.MustCompile(`<BYE `),
		"init":      regexp.MustCompile(`<INIT `),
	}
	for _, c := range games {
		got := map[string]int{"init": len(c.game.Rounds)}
		events := [][]Event{c.game.Prelude}
		for _, r := range c.game.Rounds {
			events = append(events, r.Events)
		}
		for _, evs := range events {
			for _, ev := range evs {
				switch ev.(type) {
				case Draw:
					got["draw"]++
				case Discard:
					got["discard"]++
				case Call:
					got["call"]++
				case Reach:
					got["reach"]++
				case Dora:
					got["dora"]++
				case Agari:
					got["agari"]++
				case Ryuukyoku:
					got["ryuukyoku"]++
				case Bye:
					got["bye"]++
				case Unknown:
					t.Errorf("%s: unexpected unknown tag %v", c.path, ev)
				}
			}
		}
		for kind, re := range patterns {
			if want := len(re.FindAllIndex(c.raw, -1)); got[kind] != want {
				t.Errorf("%s: %d %s events, raw text has %d", c.path, got[kind], kind, want)
			}
		}
		if c.game.Shuffle == nil || !strings.HasPrefix(c.game.Shuffle.Seed, "mt19937ar-sha512-n288") {
			t.Errorf("%s: shuffle %+v", c.path, c.game.Shuffle)
		}
		if len(c.game.Players) != 4 {
			t.Errorf("%s: %d players", c.path, len(c.game.Players))
		}
		if c.game.Owari == nil && !strings.Contains(manifest.ByFile[tenhoucorpus.Name(c.path)].Notes, "no owari") {
			t.Errorf("%s: no owari", c.path)
		}
	}
}

// TestGoRuleManifest decodes <GO type=> of every log and compares it with
// the rule column of MANIFEST.md (e.g. 四鳳南喰赤速), written by the
// corpus builder from the same bits with an independent decoder.
func TestGoRuleManifest(t *testing.T) {
	games := loadCorpus(t)
	manifest := corpus.MustManifest(t)
	for _, c := range games {
		row, ok := manifest.ByFile[tenhoucorpus.Name(c.path)]
		want := row.Rule
		if !ok {
			t.Errorf("%s: not in MANIFEST.md", c.path)
			continue
		}
		g := c.game.Go
		var b strings.Builder
		b.WriteString(map[int]string{3: "三", 4: "四"}[g.Players()])
		b.WriteString([]string{"般", "上", "特", "鳳"}[g.Level()])
		b.WriteString(map[bool]string{true: "南", false: "東"}[g.Hanchan()])
		if g.Kuitan() {
			b.WriteString("喰")
		}
		if g.Aka() {
			b.WriteString("赤")
		}
		if g.Fast() {
			b.WriteString("速")
		}
		if b.String() != want {
			t.Errorf("%s: GO type %d decodes to %s, MANIFEST.md says %s", c.path, g.Type, b.String(), want)
		}
	}
}

// TestHandConservation replays every round of every log with each seat's
// concealed hand as a set of tile ids and checks: INIT deals 13 tiles per
// active seat (none to seat 3 in 3p); no tile id is dealt or drawn twice;
// each discard, meld tile and kita is a tile the seat holds; each chi,
// pon and daiminkan takes exactly the last discard, from the seat its
// From says; each kakan extends that seat's pon of the same kind with the
// same called tile; AGARI hai equals the winner's hand (plus the ron
// tile) and its m= equals the seat's calls; shown RYUUKYOKU hands equal
// the seats' hands. A ron may take the last discard or a tile just added by kakan or kita (chankan).
func TestHandConservation(t *testing.T) {
	for _, c := range loadCorpus(t) {
		players := c.game.Go.Players()
		for ri, r := range c.game.Rounds {
			fail := func(format string, a ...any) {
				t.Helper()
				t.Errorf("%s round %d: "+format, append([]any{c.path, ri}, a...)...)
			}
			checkRound(c.game, &r, players, fail)
		}
	}
}

func checkRound(g *Game, r *Round, players int, fail func(string, ...any)) {
	var seen [wall.NumTiles]bool
	hands := make([]map[wall.Tile]bool, 4)
	melds := make([][]Meld, 4)
	take := func(t wall.Tile) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		return true
	}
	for s := range 4 {
		hands[s] = map[wall.Tile]bool{}
		want := 13
		if s >= players {
			want = 0
		}
		if len(r.Init.Hai[s]) != want {
			fail("INIT hai%d has %d tiles, want %d", s, len(r.Init.Hai[s]), want)
		}
		for _, tl := range r.Init.Hai[s] {
			if !take(tl) {
				fail("tile %d dealt twice", tl)
			}
			hands[s][tl] = true
		}
	}
	remove := func(who int, t wall.Tile, what string) {
		if !hands[who][t] {
			fail("seat %d %s tile %d not in hand", who, what, t)
		}
		delete(hands[who], t)
	}
	lastWho, lastTile := -1, wall.Tile(-1)
	var lastRobbable wall.Tile = -1
	for i, ev := range r.Events {
		switch ev := ev.(type) {
		case Draw:
			if !take(ev.Tile) {
				fail("event %d: tile %d drawn twice", i, ev.Tile)
			}
			hands[ev.Who][ev.Tile] = true
		case Discard:
			remove(ev.Who, ev.Tile, "discard")
			lastWho, lastTile, lastRobbable = ev.Who, ev.Tile, -1
		case Call:
			m := ev.Meld
			switch m.Type {
			case riichi.Chi, riichi.Pon, riichi.Daiminkan:
				if m.Called != lastTile {
					fail("event %d: %v calls %d, last discard %d", i, m.Type, m.Called, lastTile)
				}
				if (ev.Who+m.From)%4 != lastWho {
					fail("event %d: seat %d %v from relative %d, discarder %d", i, ev.Who, m.Type, m.From, lastWho)
				}
				called := false
				for _, tl := range m.Tiles {
					if tl == m.Called {
						called = true
						continue
					}
					remove(ev.Who, tl, m.Type.String())
				}
				if !called {
					fail("event %d: meld %v lacks its called tile", i, m)
				}
			case riichi.Ankan:
				for _, tl := range m.Tiles {
					remove(ev.Who, tl, "ankan")
				}
			case riichi.Kakan:
				remove(ev.Who, m.Added, "kakan")
				lastRobbable = m.Added
				found := false
				for j, p := range melds[ev.Who] {
					if p.Type == riichi.Pon && p.Tiles[0].Kind() == m.Tiles[0].Kind() {
						found = p.Called == m.Called && p.From == m.From
						melds[ev.Who] = append(melds[ev.Who][:j], melds[ev.Who][j+1:]...)
						break
					}
				}
				if !found {
					fail("event %d: kakan %v without matching pon", i, m)
				}
			case riichi.Kita:
				remove(ev.Who, m.Tiles[0], "kita")
				lastRobbable = m.Tiles[0] // a kita can be robbed like a kakan
			}
			melds[ev.Who] = append(melds[ev.Who], m)
		case Agari:
			want := map[wall.Tile]bool{}
			for tl := range hands[ev.Who] {
				want[tl] = true
			}
			if ev.Who != ev.FromWho {
				if ev.Machi != lastTile && ev.Machi != lastRobbable {
					fail("event %d: ron on %d, last discard %d", i, ev.Machi, lastTile)
				}
				want[ev.Machi] = true
			} else if !want[ev.Machi] {
				fail("event %d: tsumo on %d not in hand", i, ev.Machi)
			}
			if !sameSet(want, ev.Hai) {
				fail("event %d: agari hai %v, replayed hand %v", i, ev.Hai, want)
			}
			var gotCodes, wantCodes []int
			for _, m := range ev.Melds {
				gotCodes = append(gotCodes, m.Code)
			}
			for _, m := range melds[ev.Who] {
				wantCodes = append(wantCodes, m.Code)
			}
			if !sameInts(gotCodes, wantCodes) {
				fail("event %d: agari m %v, replayed calls %v", i, gotCodes, wantCodes)
			}
		case Ryuukyoku:
			for s, h := range ev.Hai {
				if h != nil && !sameSet(hands[s], h) {
					fail("event %d: ryuukyoku hai%d %v, replayed hand %v", i, s, h, hands[s])
				}
			}
		}
	}
}

func sameSet(set map[wall.Tile]bool, list []wall.Tile) bool {
	if len(set) != len(list) {
		return false
	}
	for _, t := range list {
		if !set[t] {
			return false
		}
	}
	return true
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[int]int{}
	for _, x := range a {
		count[x]++
	}
	for _, x := range b {
		count[x]--
		if count[x] < 0 {
			return false
		}
	}
	return true
}

// TestScoresChain checks the numbers parsed from consecutive tags agree:
// each kyoku's INIT ten equals the previous kyoku's last sc (score+delta
// per seat), and the game's owari scores equal the final sc (Tenhou gives
// leftover riichi deposits to the top seat, so the owari total may exceed
// the sc total by exactly the deposits, 10 per stick).
func TestScoresChain(t *testing.T) {
	for _, c := range loadCorpus(t) {
		var prev []int
		var prevKyotaku int
		for ri, r := range c.game.Rounds {
			if prev != nil && ri > 0 {
				for s := range 4 {
					if s < len(r.Init.Ten) && r.Init.Ten[s] != prev[s] {
						t.Errorf("%s round %d: INIT ten %v, previous sc gives %v", c.path, ri, r.Init.Ten, prev)
						break
					}
				}
			}
			prevKyotaku = r.Init.Kyotaku
			for _, ev := range r.Events {
				var sc []int
				switch ev := ev.(type) {
				case Agari:
					sc = ev.Sc
					prevKyotaku = 0
				case Ryuukyoku:
					sc = ev.Sc
				case Reach:
					if ev.Step == 2 {
						prevKyotaku++
					}
				}
				if sc != nil {
					prev = make([]int, 4)
					for s := range 4 {
						prev[s] = sc[2*s] + sc[2*s+1]
					}
				}
			}
		}
		o := c.game.Owari
		if o == nil || prev == nil {
			continue
		}
		diff := 0
		for s := range 4 {
			diff += o.Scores[s] - prev[s]
		}
		if diff != 0 && diff != 10*prevKyotaku {
			t.Errorf("%s: owari scores %v vs final sc %v (deposits %d)", c.path, o.Scores, prev, prevKyotaku)
		}
	}
}
