package mjai

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/wall"
)

// tagRE matches the tags the sanma test reads from the raw log: draws,
// calls and the kyoku starts.
var tagRE = regexp.MustCompile(`<([TUVW])(\d+)/>|<N who="(\d)" m="(\d+)"|<(INIT|AGARI) `)

// rawKita lists, from the raw XML and apart from package record/mjlog, each kita
// of a log (an <N> whose m has bit 0x20 and none of the chi, pon and
// kakan bits 0x4, 0x8, 0x10: tenhou.net/img/tehai.js) as "actor tile-id"
// of the draw that follows it, which must be the same seat's replacement
// tsumo, or "actor ron" when another player rons the north instead.
func rawKita(t *testing.T, doc string) (kita []string, draws int) {
	tags := tagRE.FindAllStringSubmatch(doc, -1)
	for i, m := range tags {
		switch {
		case m[1] != "":
			draws++
		case m[3] != "":
			code, _ := strconv.Atoi(m[4])
			if code&(0x4|0x8|0x10) != 0 || code&0x20 == 0 {
				continue // chi, pon, kakan (whose bits 3-6 also hold tile indexes), or a kan
			}
			switch {
			case i+1 < len(tags) && tags[i+1][5] == "AGARI":
				kita = append(kita, m[3]+" ron")
			case i+1 >= len(tags) || tags[i+1][1] == "" || int(tags[i+1][1][0]-'T') != int(m[3][0]-'0'):
				t.Fatalf("kita of seat %s followed by %q, not that seat's draw or a ron", m[3], tags[min(i+1, len(tags)-1)][0])
			default:
				kita = append(kita, m[3]+" "+tags[i+1][2])
			}
		}
	}
	return kita, draws
}

// TestSanmaStream converts every shared three-player Tenhou log and checks
// the stream against the raw log and the three-player extension the
// package documents: four seats with the fourth "" / 0 points / 13 "?"
// tiles / 0 deltas, every kita a nukidora {actor, "N"} followed by that
// seat's replacement tsumo of the tile the log draws, as many tsumo as
// the log's draws, no chi and no 2m–8m tile.
func TestSanmaStream(t *testing.T) {
	corpus := tenhoucorpus.For(t)
	files := corpus.MustFiles(t)
	games, nukis := 0, 0
	for _, f := range files {
		raw, err := tenhoucorpus.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g, err := mjlog.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		if g.Go.Players() != 3 {
			continue
		}
		games++
		evs, err := FromMjlog(g)
		if err != nil {
			t.Fatal(err)
		}
		wantKita, wantDraws := rawKita(t, string(raw))
		var gotKita []string
		draws := 0
		for i, e := range evs {
			tiles := append(slices.Clone(e.Consumed), e.Pai)
			switch e.Type {
			case StartGame:
				if len(e.Names) != 4 || e.Names[3] != "" {
					t.Fatalf("%s: start_game names %q", f, e.Names)
				}
			case StartKyoku:
				if len(e.Scores) != 4 || e.Scores[3] != 0 || len(e.Tehais) != 4 || !slices.Equal(e.Tehais[3], SanmaTehai()) {
					t.Fatalf("%s: %s", f, e)
				}
				for s := range 3 {
					if len(e.Tehais[s]) != 13 {
						t.Fatalf("%s: seat %d haipai of %d tiles", f, s, len(e.Tehais[s]))
					}
					tiles = append(tiles, e.Tehais[s]...)
				}
			case Nukidora:
				// The next event but a pending kan's dora: the replacement
				// tsumo, or a ron on the north.
				j := i + 1
				for j < len(evs) && evs[j].Type == Dora {
					j++
				}
				switch {
				case e.Pai != "N" || e.Actor > 2 || j >= len(evs):
					t.Fatalf("%s: %s", f, e)
				case evs[j].Type == Tsumo && evs[j].Actor == e.Actor:
					gotKita = append(gotKita, fmt.Sprintf("%d %s", e.Actor, evs[j].Pai))
				case evs[j].Type == Hora && evs[j].Target == e.Actor && evs[j].Actor != e.Actor:
					gotKita = append(gotKita, fmt.Sprintf("%d ron", e.Actor))
				default:
					t.Fatalf("%s: %s then %s", f, e, evs[j])
				}
			case Tsumo:
				draws++
			case Chi:
				t.Fatalf("%s: chi in sanma: %s", f, e)
			case Hora, Ryukyoku:
				if len(e.Deltas) != 4 || e.Deltas[3] != 0 {
					t.Fatalf("%s: %s", f, e)
				}
			}
			for _, tl := range tiles {
				if len(tl) >= 2 && tl[1] == 'm' && tl[0] >= '2' && tl[0] <= '8' {
					t.Fatalf("%s: %s holds %s, not a three-player tile", f, e, tl)
				}
			}
		}
		// The raw list names tile ids; the stream names tiles.
		if len(gotKita) != len(wantKita) {
			t.Fatalf("%s: %d nukidora, the log has %d kita", f, len(gotKita), len(wantKita))
		}
		for i := range wantKita {
			var seat, id int
			want := wantKita[i]
			if n, _ := fmt.Sscanf(wantKita[i], "%d %d", &seat, &id); n == 2 {
				want = fmt.Sprintf("%d %s", seat, Tile(wall.Tile(id), g.Go.Reds()))
			}
			if gotKita[i] != want {
				t.Errorf("%s: kita %d: %s, log %s", f, i, gotKita[i], want)
			}
		}
		if draws != wantDraws {
			t.Errorf("%s: %d tsumo events, the log draws %d", f, draws, wantDraws)
		}
		nukis += len(gotKita)
	}
	if want := corpus.MustManifest(t).Totals().Games3; games != want {
		t.Errorf("%d three-player games of %s, its MANIFEST.md lists %d", games, corpus, want)
	}
	if games == 0 || nukis == 0 {
		t.Errorf("%d three-player games and %d nukidora checked: nothing tested", games, nukis)
	}
	t.Logf("%d three-player games, %d nukidora checked", games, nukis)
}
