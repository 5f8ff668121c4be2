package record

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/mentalmj/mentalmj/internal/selfplay"
	"github.com/mentalmj/mentalmj/player/bot"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/replay"
	houserules "github.com/mentalmj/mentalmj/riichi/rules"
	"github.com/mentalmj/mentalmj/wall"
)

// SelfPlay is selfPlay for the package's external tests.
var SelfPlay = selfPlay

// selfPlay plays one whole match under rules with four bots on random
// walls from a PCG seeded with seed, every tile known to the engine, and
// records it. It returns the recorded game.
func selfPlay(tb testing.TB, seed uint64, rules game.Rules) *mjlog.Game {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x7265636f7264))
	var choose [4]selfplay.Chooser
	for s := range choose {
		choose[s] = bot.New(seed*4 + uint64(s)).Choose
	}
	m := game.NewMatch(rules)
	var rounds []mjlog.Round
	for n := 0; !m.Over(); n++ {
		if n == 100 {
			tb.Fatalf("seed %d: match not over after 100 kyoku", seed)
		}
		yama := make([]wall.Tile, wall.NumTiles)
		for i, x := range rng.Perm(wall.NumTiles) {
			yama[i] = wall.Tile(x)
		}
		dice := [2]int{rng.IntN(6), rng.IntN(6)}
		k, err := selfplay.Deal(m, yama)
		if err != nil {
			tb.Fatal(err)
		}
		rec := NewKyoku(k, dice)
		err = selfplay.Play(k, yama, choose, selfplay.Hooks{
			Drew:    func(k *game.Kyoku, s game.Seat, t wall.Tile) error { rec.Draw(k, s, t); return nil },
			Applied: func(k *game.Kyoku, a game.Action) error { rec.Apply(k, a); return nil },
		})
		if err != nil {
			tb.Fatalf("seed %d kyoku %d: %v", seed, n, err)
		}
		if err := rec.Err(); err != nil {
			tb.Fatalf("seed %d kyoku %d: %v", seed, n, err)
		}
		rounds = append(rounds, rec.Round())
		if err := m.End(k.Result()); err != nil {
			tb.Fatal(err)
		}
	}
	names := [4]string{"東家ボット", "Süd bot", "west&<bot>", fmt.Sprintf("seed %d", seed)}
	return Game(names, rules, rounds, m.Standings())
}

// TestSelfPlayReplays records whole bot matches on random walls, writes
// them with mjlog.Write, parses them back and replays them with
// riichi/replay, which must find no mismatch: every tag is legal and in
// Tenhou's order, every REACH, DORA, AGARI and RYUUKYOKU equals what the
// engine computes, the match ends where the log ends and owari equals the
// final standings. GO's rule bits are what the replay plays by, so a wrong
// bit shows up as a mismatch under the non-default rules.
func TestSelfPlayReplays(t *testing.T) {
	t.Parallel()
	cases := []struct {
		seed  uint64
		rules game.Rules
	}{
		{1, game.TenhouRules(true, true, true)},
		{2, game.TenhouRules(true, true, true)},
		{3, game.TenhouRules(true, true, true)},
		{4, game.TenhouRules(false, false, true)}, // tonpuusen without red fives
		{5, game.TenhouRules(true, true, false)},  // hanchan without open tanyao
	}
	// Seed 129: a kakan, its rinshan draw, then an ankan before any
	// dahai: the ankan turns two indicators at once, written as two DORA
	// tags after its <N> (the replay once took the first of them as late).
	cases = append(cases, struct {
		seed  uint64
		rules game.Rules
	}{129, game.TenhouRules(true, true, true)})
	for seed := uint64(6); seed <= 20; seed++ {
		cases = append(cases, struct {
			seed  uint64
			rules game.Rules
		}{seed, game.TenhouRules(true, true, true)})
	}
	// House rules: every other preset, and switches the presets leave
	// alone. The record carries them (GO bits and the rules.RecordAttr
	// attribute), and the replay must play by them.
	house := [][]string{{"majsoul"}, {"mleague"}, {"wrc"}, {"ema"},
		{"tenhou", "aka=4", "kuikae=allowed", "tobi=5000", "renchan=agari", "honba=1500", "kiriage=on", "west-target=33000", "riichi-no-draw=on", "kan-dora=off"},
		{"mleague", "aka=1", "kuitan=off", "ron=triple", "nagashi=on", "start=30000", "return=40000", "uma=15,5,-5,-15"}}
	for i, h := range house {
		set, err := houserules.Parse(h[0], h[1:])
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct {
			seed  uint64
			rules game.Rules
		}{uint64(21 + i), set.Game(4, i%2 == 0)})
	}
	tags := map[string]int{}
	for _, c := range cases {
		g := selfPlay(t, c.seed, c.rules)
		var buf bytes.Buffer
		if err := mjlog.Write(&buf, g); err != nil {
			t.Fatalf("seed %d: write: %v", c.seed, err)
		}
		back, err := mjlog.Parse(bytes.NewReader(buf.Bytes()), fmt.Sprintf("selfplay-%d.xml", c.seed))
		if err != nil {
			t.Fatalf("seed %d: parse: %v", c.seed, err)
		}
		g.File = back.File
		if !reflect.DeepEqual(back, g) {
			t.Errorf("seed %d: Parse(Write(g)) differs from g", c.seed)
		}
		res := replay.Game(back)
		for _, mm := range res.Mismatches {
			t.Errorf("seed %d: %s [%s] %s:\n  log:    %s\n  engine: %s", c.seed, mm.File, mm.Round, mm.Tag, mm.Expected, mm.Actual)
		}
		if res.Games != 1 || res.Rounds != len(g.Rounds) || len(res.Skipped) != 0 || len(res.Errors) != 0 {
			t.Errorf("seed %d: replayed %d games, %d of %d rounds, skipped %v, errors %v", c.seed, res.Games, res.Rounds, len(g.Rounds), res.Skipped, res.Errors)
		}
		if res.Checks[replay.CheckOwariScores] != 1 || res.Checks[replay.CheckOwariPoints] != 1 {
			t.Errorf("seed %d: owari not checked (%v)", c.seed, res.Checks)
		}
		countTags(tags, g)
	}
	t.Logf("tags recorded: %v", tags)
	for _, tag := range []string{"REACH", "DORA", "chi", "pon", "daiminkan", "kakan", "ankan", "AGARI tsumo", "AGARI ron", "double ron", "RYUUKYOKU"} {
		if tags[tag] == 0 {
			t.Errorf("self-play recorded no %s: the test does not cover it", tag)
		}
	}
}

// countTags adds the tags of g to n, calls by meld type and AGARI by kind.
func countTags(n map[string]int, g *mjlog.Game) {
	for _, rd := range g.Rounds {
		agari := 0
		for _, e := range rd.Events {
			switch e := e.(type) {
			case mjlog.Reach:
				if e.Step == 2 {
					n["REACH"]++
				}
			case mjlog.Dora:
				n["DORA"]++
			case mjlog.Call:
				n[e.Meld.Type.String()]++
			case mjlog.Agari:
				agari++
				if e.Who == e.FromWho {
					n["AGARI tsumo"]++
				} else {
					n["AGARI ron"]++
				}
			case mjlog.Ryuukyoku:
				n["RYUUKYOKU"]++
				if e.Type != "" {
					n["RYUUKYOKU "+e.Type]++
				}
			}
		}
		if agari > 1 {
			n["double ron"]++
		}
	}
}
