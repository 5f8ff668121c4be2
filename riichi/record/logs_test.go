package record

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// corpusLogs parses the logs of the corpus (tenhoucorpus.For), four- and
// three-player, in name order.
func corpusLogs(tb testing.TB, corpus tenhoucorpus.Corpus) []*mjlog.Game {
	tb.Helper()
	var games []*mjlog.Game
	for _, f := range corpus.MustFiles(tb) {
		g, err := mjlog.Read(f)
		if err != nil {
			tb.Fatal(err)
		}
		games = append(games, g)
	}
	return games
}

// specialRuleLogs counts the corpus's logs whose <GO type=> has bits above
// 0xFF, read from the raw text (tenhoucorpus.GoTypes).
func specialRuleLogs(tb testing.TB, corpus tenhoucorpus.Corpus) int {
	tb.Helper()
	types, err := corpus.GoTypes()
	if err != nil {
		tb.Fatal(err)
	}
	n := 0
	for _, typ := range types {
		if typ&^0xFF != 0 {
			n++
		}
	}
	return n
}

// specialRules reports whether g's GO type has bits above 0xFF: special
// rule sets (chip games, tournament rules with e.g. kiriage mangan) whose
// scoring the engine does not implement.
func specialRules(g *mjlog.Game) bool { return g.Go.Type&^0xFF != 0 }

// exceptions counts the differences between a Tenhou log and a recording
// that no engine can reproduce, each normalised away before comparing.
type exceptions struct {
	connTags   int // <BYE>, <UN nX=> reconnections and unknown tags dropped
	extraAttrs int // chip=, ratio= and other unknown attributes dropped
	ankanTile  int // ankan whose stored tile id is not the lowest
	reachNoTen int // REACH step 2 without ten= (logs that omit it)
}

// count adds to ex one round for each kind that grew from before to after.
func (ex *exceptions) count(before, after exceptions) {
	one := func(b, a int) int {
		if a > b {
			return 1
		}
		return 0
	}
	ex.connTags += one(before.connTags, after.connTags)
	ex.extraAttrs += one(before.extraAttrs, after.extraAttrs)
	ex.ankanTile += one(before.ankanTile, after.ankanTile)
	ex.reachNoTen += one(before.reachNoTen, after.reachNoTen)
}

func (ex exceptions) total() int { return ex.connTags + ex.extraAttrs + ex.ankanTile + ex.reachNoTen }

// normalise returns the log round as an engine-driven recorder can write
// it, given the recording got, counting what it changed in ex: Tenhou's
// connection tags and unknown attributes dropped, owari removed (compared
// at game level), the ankan tile id Tenhou stored replaced by the lowest
// one, and a REACH step 2 written without ten= given the recorded
// scores.
func normalise(rd mjlog.Round, got mjlog.Round, ex *exceptions) mjlog.Round {
	return normaliseOwari(rd, got, ex, false)
}

// normaliseOwari is normalise, keeping the owari if keepOwari.
func normaliseOwari(rd mjlog.Round, got mjlog.Round, ex *exceptions, keepOwari bool) mjlog.Round {
	out := mjlog.Round{Init: rd.Init}
	if out.Init.Extra != nil {
		ex.extraAttrs++
		out.Init.Extra = nil
	}
	ankan := func(md mjlog.Meld) mjlog.Meld {
		if md.Type != riichi.Ankan || md.KanTile == md.Tiles[0] {
			return md
		}
		md.KanTile = md.Tiles[0]
		code, err := mjlog.EncodeMeld(md)
		if err != nil {
			panic(err)
		}
		md.Code = code
		return md
	}
	for _, e := range rd.Events {
		switch e := e.(type) {
		case mjlog.Bye, mjlog.Reconnect, mjlog.Unknown:
			ex.connTags++
			continue
		case mjlog.Reach:
			if i := len(out.Events); e.Step == 2 && e.Ten == nil && i < len(got.Events) {
				if r, ok := got.Events[i].(mjlog.Reach); ok && r.Who == e.Who && r.Step == 2 {
					ex.reachNoTen++
					e.Ten = r.Ten
				}
			}
			out.Events = append(out.Events, e)
		case mjlog.Call:
			if n := ankan(e.Meld); n.Code != e.Meld.Code {
				ex.ankanTile++
				e.Meld = n
			}
			out.Events = append(out.Events, e)
		case mjlog.Agari:
			if e.Extra != nil {
				ex.extraAttrs++
				e.Extra = nil
			}
			if !keepOwari {
				e.Owari = nil
			}
			var ms []mjlog.Meld
			for _, md := range e.Melds {
				ms = append(ms, ankan(md))
			}
			e.Melds = ms
			out.Events = append(out.Events, e)
		case mjlog.Ryuukyoku:
			if e.Extra != nil {
				ex.extraAttrs++
				e.Extra = nil
			}
			if !keepOwari {
				e.Owari = nil
			}
			out.Events = append(out.Events, e)
		default:
			out.Events = append(out.Events, e)
		}
	}
	return out
}

// withoutOwari returns rd with the owari removed from its result tags.
func withoutOwari(rd mjlog.Round) mjlog.Round {
	rd.Events = slices.Clone(rd.Events)
	for i, e := range rd.Events {
		switch e := e.(type) {
		case mjlog.Agari:
			e.Owari = nil
			rd.Events[i] = e
		case mjlog.Ryuukyoku:
			e.Owari = nil
			rd.Events[i] = e
		}
	}
	return rd
}

// firstDiff describes the first difference between two rounds, or "".
func firstDiff(want, got mjlog.Round) string {
	if !reflect.DeepEqual(want.Init, got.Init) {
		return fmt.Sprintf("INIT\n  log:      %#v\n  recorded: %#v", want.Init, got.Init)
	}
	for i := range max(len(want.Events), len(got.Events)) {
		var w, g mjlog.Event
		if i < len(want.Events) {
			w = want.Events[i]
		}
		if i < len(got.Events) {
			g = got.Events[i]
		}
		if !reflect.DeepEqual(w, g) {
			return fmt.Sprintf("event %d\n  log:      %#v\n  recorded: %#v", i, w, g)
		}
	}
	return ""
}

// roundTrip is the outcome of recording the logs of one rule class.
type roundTrip struct {
	games, rounds int
	identical     int        // recording == log round (owari aside), untouched
	equal         int        // recording == normalised log round
	owari, owariN int        // games whose Game owari equals the log's, of owariN
	ex            exceptions // tags normalised
	exRounds      exceptions // rounds with such tags
	fails         []string
}

// record plays every round of g through a fresh match, records it, and
// compares the recording with the log.
func (rt *roundTrip) record(t *testing.T, g *mjlog.Game) {
	rt.games++
	rules := logRules(g)
	m := game.NewMatch(rules)
	var recorded []mjlog.Round
	complete := true
	for i := range g.Rounds {
		rt.rounds++
		rec, k, err := playRound(m, &g.Rounds[i])
		where := fmt.Sprintf("%s round %d (%s honba %d)", filepath.Base(g.File), i, game.RoundName(g.Rounds[i].Init.Kyoku), g.Rounds[i].Init.Honba)
		if err != nil {
			rt.fails = append(rt.fails, fmt.Sprintf("%s: engine: %v", where, err))
			complete = false
			continue
		}
		if err := rec.Err(); err != nil {
			rt.fails = append(rt.fails, fmt.Sprintf("%s: recorder: %v", where, err))
			complete = false
			continue
		}
		got := rec.Round()
		recorded = append(recorded, got)
		if reflect.DeepEqual(withoutOwari(g.Rounds[i]), got) {
			rt.identical++
		}
		before := rt.ex
		norm := normalise(g.Rounds[i], got, &rt.ex)
		rt.exRounds.count(before, rt.ex)
		if d := firstDiff(norm, got); d != "" {
			rt.fails = append(rt.fails, where+": "+d)
		} else {
			rt.equal++
		}
		if res := k.Result(); res == nil || m.End(res) != nil {
			complete = false
		}
	}
	var names [4]string
	for s := range min(4, len(g.Players)) {
		names[s] = g.Players[s].Name
	}
	out := Game(names, rules, recorded, m.Standings())
	for s := range min(4, len(g.Players)) {
		if out.Players[s].Name != g.Players[s].Name {
			t.Errorf("%s: UN n%d = %q, want %q", g.File, s, out.Players[s].Name, g.Players[s].Name)
		}
	}
	if !complete || g.Owari == nil || g.Go.Lobby != 0 {
		return // a private lobby's end rules and points are unknown
	}
	rt.owariN++
	// The whole last round, owari in place (e.g. on a double ron's second
	// AGARI), must equal the log's.
	n := len(g.Rounds) - 1
	var ex exceptions
	if d := firstDiff(normaliseOwari(g.Rounds[n], out.Rounds[n], &ex, true), out.Rounds[n]); d != "" || !reflect.DeepEqual(out.Owari, g.Owari) {
		rt.fails = append(rt.fails, fmt.Sprintf("%s: owari %+v, log %+v; last round: %s", g.File, out.Owari, g.Owari, d))
	} else {
		rt.owari++
	}
}

// TestRoundTripSharedLogs drives a fresh engine through every real
// Tenhou log of the corpus (four- and three-player) under the ranked rules, records each kyoku with Kyoku,
// and requires the recording to equal the log's round event by event
// (every tag and attribute: INIT, tsumo, dahai, REACH with ten=, N codes,
// DORA placement, AGARI and RYUUKYOKU), once normalise has removed only
// what no engine can know; Game must reproduce the names and the owari.
// The special-rule logs (kiriage mangan and the like) are recorded too and
// only reported: their scores differ by rule.
func TestRoundTripSharedLogs(t *testing.T) {
	corpus := tenhoucorpus.For(t)
	var ranked, special roundTrip
	for _, g := range corpusLogs(t, corpus) {
		if specialRules(g) {
			special.record(t, g)
		} else {
			ranked.record(t, g)
		}
	}
	t.Logf("ranked rules: %d logs, %d rounds: %d identical to the log, %d equal after normalising tags %+v in rounds %+v; owari equal in %d of %d games",
		ranked.games, ranked.rounds, ranked.identical, ranked.equal, ranked.ex, ranked.exRounds, ranked.owari, ranked.owariN)
	t.Logf("special rules (not required): %d logs, %d rounds: %d identical, %d equal after normalising; %d differences, first: %s",
		special.games, special.rounds, special.identical, special.equal, len(special.fails), strings.Join(special.fails[:min(1, len(special.fails))], ""))
	for i, f := range ranked.fails {
		if i == 30 {
			t.Errorf("… %d more", len(ranked.fails)-i)
			break
		}
		t.Error(f)
	}
	// The games and rounds of the MANIFEST.md; the special-rule logs
	// counted from the raw text.
	want, wantSpecial := corpus.MustManifest(t).Totals(), specialRuleLogs(t, corpus)
	if ranked.games+special.games != want.Games || ranked.rounds+special.rounds != want.Rounds || special.games != wantSpecial || wantSpecial == 0 {
		t.Errorf("recorded %d+%d logs (%d+%d rounds) of %s, want %d (%d rounds) of which %d special",
			ranked.games, special.games, ranked.rounds, special.rounds, corpus, want.Games, want.Rounds, wantSpecial)
	}
	if ranked.ex.total() > ranked.rounds/10 {
		t.Errorf("normalised %+v: too many exceptions for %d rounds", ranked.ex, ranked.rounds)
	}
}
