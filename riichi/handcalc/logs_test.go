package handcalc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// tenhouAgari is one <AGARI> of the corpus: the calculator request built
// from its attributes alone (plus the round's dealer, wind and riichi
// declarations) as a JSON line, and Tenhou's own evaluation of it.
type tenhouAgari struct {
	where   string
	line    []byte
	fu      int
	points  int
	limit   int
	yaku    []mjlog.YakuHan
	yakuman []int
	// payers maps seat wind letters (or "discarder") to what Tenhou's sc=
	// deltas took from them; nil when not comparable (chip games, pao).
	payers map[string]int
}

// meldNames are the request's names of mjlog's meld types.
var meldNames = map[riichi.MeldType]string{
	riichi.Chi: "chi", riichi.Pon: "pon", riichi.Daiminkan: "daiminkan",
	riichi.Kakan: "kakan", riichi.Ankan: "ankan", riichi.Kita: "kita",
}

// tileNames writes tiles as a list of names ("1m", "0p").
func tileNames(ts []wall.Tile) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.String()
	}
	return out
}

// hasYaku reports whether Tenhou listed yaku id.
func hasYaku(ys []mjlog.YakuHan, id int) bool {
	return slices.ContainsFunc(ys, func(y mjlog.YakuHan) bool { return y.ID == id })
}

// agariRequest builds the JSON request of one <AGARI>: hand (hai= without
// the winning tile), win (machi=), melds (m=, in call order), ron (who ≠
// fromWho), dora and ura (doraHai=, doraHaiUra=), honba (ba=, 0 for the
// second winner of a double ron), winds and dealer from the round's
// <INIT>, reached from the winner's accepted <REACH>. The other situations
// (double riichi, ippatsu, haitei, houtei, rinshan, chankan, tenhou,
// chiihou) are in no other attribute, so they are read off yaku= and
// yakuman=.
func agariRequest(a *mjlog.Agari, init *mjlog.Init, players int, reached, first bool) map[string]any {
	hand := slices.Clone(a.Hai)
	if i := slices.Index(hand, a.Machi); i >= 0 {
		hand = slices.Delete(hand, i, i+1)
	}
	melds := []string{}
	for i := len(a.Melds) - 1; i >= 0; i-- {
		m := a.Melds[i]
		if m.Type == riichi.Kita {
			melds = append(melds, "kita")
			continue
		}
		melds = append(melds, meldNames[m.Type]+":"+riichiFormat(m.Tiles))
	}
	seat := (a.Who - init.Oya + players) % players
	req := map[string]any{
		"hand":       riichiFormat(hand),
		"win":        a.Machi.String(),
		"melds":      melds,
		"ron":        a.Who != a.FromWho,
		"dora":       tileNames(a.DoraHai),
		"seat_wind":  windNames[seat],
		"round_wind": windNames[init.Kyoku/4],
		"dealer":     seat == 0,
		"players":    players,
		"rules":      "tenhou",
	}
	if first {
		req["honba"] = a.Honba
	}
	double := hasYaku(a.Yaku, 21)
	if reached && !double {
		req["riichi"] = true
	}
	if reached && len(a.DoraHaiUra) > 0 {
		req["ura"] = tileNames(a.DoraHaiUra)
	}
	for key, id := range map[string]int{"double_riichi": 21, "ippatsu": 2, "haitei": 5, "houtei": 6, "rinshan": 4, "chankan": 3} {
		if hasYaku(a.Yaku, id) {
			req[key] = true
		}
	}
	if slices.Contains(a.Yakuman, 37) {
		req["tenhou"] = true
	}
	if slices.Contains(a.Yakuman, 38) {
		req["chiihou"] = true
	}
	return req
}

// riichiFormat writes tiles in the hand notation.
func riichiFormat(ts []wall.Tile) string { return riichi.FormatHand(ts) }

// loadAgari reads every <AGARI> of the corpus (four- and three-player,
// Tenhou's ari-ari rules) of corpus.
func loadAgari(t testing.TB, corpus tenhoucorpus.Corpus) []tenhouAgari {
	t.Helper()
	var out []tenhouAgari
	for _, f := range corpus.MustFiles(t) {
		g, err := mjlog.Read(f)
		if err != nil {
			t.Fatalf("reading %s: %v", f, err)
		}
		if !g.Go.Aka() || !g.Go.Kuitan() {
			t.Fatalf("%s: GO type %d is not ari-ari; the calculator test assumes Tenhou's red fives and open tanyao", f, g.Go.Type)
		}
		players := g.Go.Players()
		chip := g.Go.Type&0x200 != 0
		for ri := range g.Rounds {
			r := &g.Rounds[ri]
			var reached [4]bool
			first := true
			for _, ev := range r.Events {
				switch e := ev.(type) {
				case mjlog.Reach:
					if e.Step == 2 {
						reached[e.Who] = true
					}
				case mjlog.Agari:
					req := agariRequest(&e, &r.Init, players, reached[e.Who], first)
					line, err := json.Marshal(req)
					if err != nil {
						t.Fatal(err)
					}
					w := tenhouAgari{
						where: fmt.Sprintf("%s round %d agari by %d", tenhoucorpus.Name(f), ri, e.Who),
						line:  line, fu: e.Fu, points: e.Ten, limit: e.Limit,
						yaku: e.Yaku, yakuman: e.Yakuman,
					}
					if !chip && e.Paowho < 0 {
						w.payers = map[string]int{}
						for s := 0; s < players; s++ {
							if s == e.Who || (e.Who != e.FromWho && s != e.FromWho) {
								continue
							}
							payer := "discarder"
							if e.Who == e.FromWho {
								payer = windNames[(s-r.Init.Oya+players)%players]
							}
							w.payers[payer] = -e.Sc[2*s+1] * 100
						}
					}
					out = append(out, w)
					first = false
				}
			}
		}
	}
	return out
}

// TestScoreLinesMatchesTenhouLogs feeds every <AGARI> of the real
// Tenhou logs of the corpus (four- and three-player) through the JSON path, as a bot
// author would, and requires Tenhou's yaku (names and han, in Tenhou's
// order, with their ids), yakuman, han, fu, points, limit and, outside chip
// games and pao, each payer's score change (sc=) exactly.
func TestScoreLinesMatchesTenhouLogs(t *testing.T) {
	corpus := tenhoucorpus.For(t)
	agari := loadAgari(t, corpus)
	// Every <AGARI> of the corpus, counted in the raw text.
	want, err := corpus.Count(regexp.MustCompile(`<AGARI `), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(agari) != want || want == 0 {
		t.Fatalf("%d agari read from %s, its logs hold %d <AGARI>", len(agari), corpus, want)
	}
	var in bytes.Buffer
	for _, a := range agari {
		in.Write(a.line)
		in.WriteByte('\n')
	}
	var out bytes.Buffer
	n, err := ScoreLines(context.Background(), &in, &out)
	if err != nil {
		t.Fatal(err)
	}
	if n.Lines != len(agari) {
		t.Fatalf("ScoreLines read %d lines, want %d", n.Lines, len(agari))
	}
	sc := bufio.NewScanner(&out)
	failures, paid, sanma := 0, 0, 0
	for i := 0; sc.Scan(); i++ {
		a := agari[i]
		var res Result
		if err := json.Unmarshal(sc.Bytes(), &res); err != nil {
			t.Fatalf("%s: result %q: %v", a.where, sc.Bytes(), err)
		}
		var diffs []string
		if !res.OK {
			diffs = append(diffs, res.Error)
		} else {
			var want []Yaku
			han := 0
			for _, y := range a.yaku {
				want = append(want, Yaku{riichi.YakuName(y.ID), y.Han, y.ID})
				han += y.Han
			}
			for _, id := range a.yakuman {
				want = append(want, Yaku{riichi.YakuName(id), 13, id})
				han += 13
			}
			if !slices.Equal(res.Yaku, want) {
				diffs = append(diffs, fmt.Sprintf("yaku %v, Tenhou %v", res.Yaku, want))
			}
			if res.Han != han || res.Yakuman != len(a.yakuman) || res.Fu != a.fu || res.Limit != limitName(a) {
				diffs = append(diffs, fmt.Sprintf("%d han %d fu %d yakuman %q, Tenhou %d han %d fu %d yakuman limit %d", res.Han, res.Fu, res.Yakuman, res.Limit, han, a.fu, len(a.yakuman), a.limit))
			}
			if a.payers != nil {
				if res.Points != a.points {
					diffs = append(diffs, fmt.Sprintf("points %d, Tenhou %d", res.Points, a.points))
				}
				got := map[string]int{}
				for _, p := range res.Payments {
					got[p.Payer] = p.Points
				}
				if fmt.Sprint(got) != fmt.Sprint(a.payers) {
					diffs = append(diffs, fmt.Sprintf("payments %v, Tenhou %v", got, a.payers))
				} else {
					paid++
				}
			}
		}
		if strings.Contains(string(a.line), `"players":3`) {
			sanma++
		}
		if len(diffs) > 0 {
			failures++
			t.Errorf("%s: %s: %s", a.where, a.line, strings.Join(diffs, "; "))
			if failures > 20 {
				t.Fatal("too many failures")
			}
		}
	}
	t.Logf("checked %d agari (%d three-player) against Tenhou through the JSON path; %d with payments", len(agari), sanma, paid)
}

// limitName is the Result.Limit Tenhou's ten= third field stands for.
func limitName(a tenhouAgari) string {
	if a.limit == 5 && len(a.yakuman) == 0 {
		return "kazoe yakuman"
	}
	return limitNames[a.limit]
}
