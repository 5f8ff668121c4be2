package viewer

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
)

// The tests' truth about a record: its mjlog XML read tag by tag with
// regular expressions, apart from the package's reader and the rules
// engine. Meld codes are decoded with mjlog.DecodeMeld (Tenhou's layout,
// itself tested against Tenhou's logs).

// sharedLog returns the path of the real Tenhou log name (NAME.xml) in the
// corpus the tests read (tenhoucorpus.For; it may be NAME.xml.gz).
func sharedLog(t testing.TB, name string) string {
	t.Helper()
	return tenhoucorpus.For(t).Path(t, name)
}

var (
	rawTag  = regexp.MustCompile(`<([A-Za-z]+)([0-9]*)((?:\s+[A-Za-z0-9]+="[^"]*")*)\s*/?>`)
	rawAttr = regexp.MustCompile(`([A-Za-z0-9]+)="([^"]*)"`)
)

// rawEvent is one tag of a round: its name ("T", "D", "N", "AGARI", …),
// the number after a draw or discard letter, and its attributes.
type rawEvent struct {
	name  string
	tile  int
	attrs map[string]string
}

// rawRound is one INIT and the tags up to the next.
type rawRound struct {
	init   map[string]string
	events []rawEvent
}

// rawLog reads the rounds of an mjlog document (plain, or gzip when its
// name ends in .gz).
func rawLog(t testing.TB, path string) []rawRound {
	t.Helper()
	b, err := tenhoucorpus.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rounds []rawRound
	for _, m := range rawTag.FindAllStringSubmatch(string(b), -1) {
		attrs := map[string]string{}
		for _, a := range rawAttr.FindAllStringSubmatch(m[3], -1) {
			attrs[a[1]] = a[2]
		}
		name := m[1]
		switch {
		case name == "INIT":
			rounds = append(rounds, rawRound{init: attrs})
			continue
		case len(rounds) == 0, name == "mjloggm":
			continue
		}
		e := rawEvent{name: name, tile: -1, attrs: attrs}
		if m[2] != "" {
			e.tile, _ = strconv.Atoi(m[2])
		}
		rounds[len(rounds)-1].events = append(rounds[len(rounds)-1].events, e)
	}
	return rounds
}

func rawInts(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			n = -1 // "?" in a player's view
		}
		out = append(out, n)
	}
	return out
}

// hands returns the four concealed hands (sorted tile ids) after the
// first a events of round r, the discards of each seat, the melds and
// the norths set aside (kita).
func (r rawRound) hands(t testing.TB, a int) (hands [4][]int, discards, melds, kita [4]int) {
	t.Helper()
	for s := range 4 {
		hands[s] = rawInts(r.init["hai"+strconv.Itoa(s)])
	}
	remove := func(s, tile int) {
		i := slices.Index(hands[s], tile)
		if i < 0 {
			i = slices.Index(hands[s], -1) // a hidden tile now shown
		}
		if i < 0 {
			t.Fatalf("the log's seat %d discards or calls %d, which its hand %v lacks", s, tile, hands[s])
		}
		hands[s] = slices.Delete(hands[s], i, i+1)
	}
	for _, e := range r.events[:a] {
		switch {
		case len(e.name) == 1 && strings.Contains("TUVW", e.name):
			hands[strings.Index("TUVW", e.name)] = append(hands[strings.Index("TUVW", e.name)], e.tile)
		case len(e.name) == 1 && strings.Contains("DEFG", e.name):
			remove(strings.Index("DEFG", e.name), e.tile)
			discards[strings.Index("DEFG", e.name)]++
		case e.name == "N":
			who, _ := strconv.Atoi(e.attrs["who"])
			code, _ := strconv.Atoi(e.attrs["m"])
			m, err := mjlog.DecodeMeld(code)
			if err != nil {
				t.Fatal(err)
			}
			switch m.Type {
			case riichi.Kakan:
				remove(who, int(m.Added))
			default:
				for _, x := range m.Tiles {
					if x != m.Called {
						remove(who, int(x))
					}
				}
			}
			switch m.Type {
			case riichi.Kita:
				kita[who]++
			case riichi.Kakan:
			default:
				melds[who]++
			}
		}
	}
	for s := range 4 {
		slices.Sort(hands[s])
	}
	return hands, discards, melds, kita
}

// deltas returns the score changes of round r's end (points, each winner
// of a double ron added), from the sc attributes.
func (r rawRound) deltas() [4]int {
	var d [4]int
	for _, e := range r.events {
		if e.name != "AGARI" && e.name != "RYUUKYOKU" {
			continue
		}
		sc := rawInts(e.attrs["sc"])
		for s := 0; 2*s+1 < len(sc) && s < 4; s++ {
			d[s] += 100 * sc[2*s+1]
		}
	}
	return d
}

// firstCall returns the number of events up to and including round r's
// first chi, pon or kan (a step to show), 0 if it has none.
func (r rawRound) firstCall() int {
	for i, e := range r.events {
		if e.name == "N" {
			return i + 1
		}
	}
	return 0
}

// kinds maps tile ids to kinds with the red fives apart (34 + suit), for
// records that name tiles by kind only.
func kinds(ids []int) []int {
	out := make([]int, len(ids))
	for i, id := range ids {
		switch {
		case id < 0:
			out[i] = -1
		case id == 16 || id == 52 || id == 88:
			out[i] = 34 + id/36
		default:
			out[i] = id / 4
		}
	}
	slices.Sort(out)
	return out
}
