package tenhou

import (
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/record/mjlog"
)

// TestVerifyCorpus verifies every real log of the corpus (the repository's
// subset, or the whole shared corpus beside the clone) with no mismatch:
// the numbers of games and rounds verified, by player count and seed form,
// are those its MANIFEST.md lists.
func TestVerifyCorpus(t *testing.T) {
	corpus := tenhoucorpus.For(t)
	want := corpus.MustManifest(t).Totals()
	var games, rounds, hexGames, hexRounds, rounds4, rounds3 int
	var checks Counts
	for _, f := range corpus.MustFiles(t) {
		g, err := mjlog.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Verify(g)
		if err != nil {
			t.Fatal(err)
		}
		if res.Skipped != "" {
			t.Errorf("%s skipped: %s", f, res.Skipped)
			continue
		}
		for _, m := range res.Mismatches {
			t.Error(m)
		}
		games++
		rounds += res.Rounds
		checks.Add(res.Checks)
		if res.Variant == Hex2009 {
			hexGames++
			hexRounds += res.Rounds
		}
		if res.Players == 4 {
			rounds4 += res.Rounds
		} else {
			rounds3 += res.Rounds
		}
	}
	if games != want.Games || rounds != want.Rounds || rounds4 != want.Rounds4 || rounds3 != want.Rounds3 || hexGames != want.HexGames || hexRounds != want.HexRounds {
		t.Errorf("verified %d games / %d rounds (%d 4p, %d 3p; %d hex games, %d rounds) of %s, its manifest says %d / %d (%d, %d; %d, %d)",
			games, rounds, rounds4, rounds3, hexGames, hexRounds, corpus,
			want.Games, want.Rounds, want.Rounds4, want.Rounds3, want.HexGames, want.HexRounds)
	}
	if checks[CheckDice] != rounds || checks[CheckDoraIndicator] != rounds || checks[CheckHaipai] != 4*rounds4+3*rounds3 {
		t.Errorf("per-round checks %v do not match %d rounds", checks.Map(), rounds)
	}
	for k, n := range checks {
		if n == 0 {
			t.Errorf("no %s check was made over the corpus", CheckKind(k))
		}
	}
	t.Logf("checks: %v", checks.Map())
}

// tampered parses a log of the corpus after replacing the first occurrence of old
// by new in its text.
func tampered(t *testing.T, name, old, new string) *mjlog.Game {
	t.Helper()
	raw, err := tenhoucorpus.ReadFile(tenhoucorpus.For(t).Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	if !strings.Contains(text, old) {
		t.Fatalf("%s does not contain %q", name, old)
	}
	g, err := mjlog.Parse(strings.NewReader(strings.Replace(text, old, new, 1)), name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestVerifyTamper changes one fact of a real log and expects exactly the
// one mismatch that names it. Expected values are the original log's.
func TestVerifyTamper(t *testing.T) {
	const e1 = "2022060100gm-00a9-0000-a11749d5.xml"
	cases := []struct {
		name, file, old, new string
		want                 Mismatch
	}{
		{
			name: "first draw changed", file: e1, old: "<T56/>", new: "<T57/>",
			want: Mismatch{File: e1, Round: "E1-0", Tag: "T live draw 0 (yama[83])", Expected: "56 (6p)", Actual: "57 (6p)"},
		},
		{
			name: "hai0 reordered", file: e1,
			old: `hai0="36,0,122,`, new: `hai0="0,36,122,`,
			want: Mismatch{File: e1, Round: "E1-0", Tag: "INIT hai0",
				Expected: "36,0,122,114,93,129,127,7,71,65,47,99,135",
				Actual:   "0,36,122,114,93,129,127,7,71,65,47,99,135"},
		},
		{
			name: "DORA changed", file: "2010112714gm-00a9-0000-d497e395.xml",
			old: `<DORA hai="44" />`, new: `<DORA hai="45" />`,
			want: Mismatch{File: "2010112714gm-00a9-0000-d497e395.xml", Round: "E3-0",
				Tag: "DORA kan dora 1 (yama[7])", Expected: "44 (3p)", Actual: "45 (3p)"},
		},
		{
			name: "dice changed", file: e1, old: `seed="0,0,0,5,3,87"`, new: `seed="0,0,0,5,4,87"`,
			want: Mismatch{File: e1, Round: "E1-0", Tag: "INIT seed dice", Expected: "5,3", Actual: "5,4"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Verify(tampered(t, c.file, c.old, c.new))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Mismatches) != 1 || res.Mismatches[0] != c.want {
				t.Fatalf("mismatches %+v, want exactly %+v", res.Mismatches, c.want)
			}
		})
	}
}

// TestVerifyShiftedDraws removes one draw/discard pair: every later live
// draw of the kyoku is then off by one, so mismatches appear (a check that
// the live pointer really advances per draw).
func TestVerifyShiftedDraws(t *testing.T) {
	g := tampered(t, "2022060100gm-00a9-0000-a11749d5.xml", "<T56/>", "")
	res, err := Verify(g)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Mismatches) < 10 {
		t.Fatalf("dropping the first draw gave only %d mismatches", len(res.Mismatches))
	}
}

func TestVerifySkipsAndErrors(t *testing.T) {
	const body = `<GO type="169" lobby="0"/><UN n0="a" n1="b" n2="c" n3="d" dan="0,0,0,0" rate="1500,1500,1500,1500" sx="M,M,M,M"/><TAIKYOKU oya="0"/></mjloggm>`
	g, err := mjlog.Parse(strings.NewReader(`<mjloggm ver="2.3">`+body), "noshuffle.xml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Verify(g)
	if err != nil || res.Skipped == "" || res.OK() {
		t.Fatalf("log without SHUFFLE: %+v, %v; want skipped", res, err)
	}
	g, err = mjlog.Parse(strings.NewReader(`<mjloggm ver="2.3"><SHUFFLE seed="xorshift-md5,AAAA" ref=""/>`+body), "odd.xml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Verify(g)
	if err == nil || !strings.Contains(err.Error(), "odd.xml") || !strings.Contains(err.Error(), `"xorshift-md5"`) {
		t.Fatalf("unknown variant error %v, want it to name the file and the variant", err)
	}
}

func TestRoundName(t *testing.T) {
	for _, c := range []struct {
		kyoku, honba int
		want         string
	}{{0, 0, "E1-0"}, {3, 1, "E4-1"}, {4, 0, "S1-0"}, {6, 2, "S3-2"}, {8, 0, "W1-0"}, {15, 0, "N4-0"}, {16, 0, "K16-0"}} {
		if got := RoundName(c.kyoku, c.honba); got != c.want {
			t.Errorf("RoundName(%d, %d) = %q, want %q", c.kyoku, c.honba, got, c.want)
		}
	}
}

// BenchmarkVerifyCorpus measures whole-log verification including reading
// and parsing: one iteration verifies every log of the corpus; rounds/s is the
// figure of merit.
func BenchmarkVerifyCorpus(b *testing.B) {
	files := tenhoucorpus.For(b).MustFiles(b)
	rounds := 0
	cpu0 := cpuNow()
	for b.Loop() {
		for _, f := range files {
			g, err := mjlog.Read(f)
			if err != nil {
				b.Fatal(err)
			}
			res, err := Verify(g)
			if err != nil {
				b.Fatal(err)
			}
			rounds += res.Rounds
		}
	}
	b.ReportMetric(float64(rounds)/b.Elapsed().Seconds(), "rounds/s")
	reportCPU(b, rounds, cpu0, "rounds/cpu-s")
}

// reportCPU reports n per second of this process's CPU time since cpu0:
// on a machine shared with other work it tells what one core does, where
// rounds/s (wall time) also counts the time the benchmark waited for a
// core. Run with -cpu 1 so that the process uses one core at a time.
func reportCPU(b *testing.B, n int, cpu0 time.Duration, unit string) {
	if c := cpuNow() - cpu0; cpu0 > 0 && c > 0 {
		b.ReportMetric(float64(n)/c.Seconds(), unit)
	}
}

// BenchmarkVerifyParsed measures verification alone over pre-parsed logs.
func BenchmarkVerifyParsed(b *testing.B) {
	var games []*mjlog.Game
	for _, f := range tenhoucorpus.For(b).MustFiles(b) {
		g, err := mjlog.Read(f)
		if err != nil {
			b.Fatal(err)
		}
		games = append(games, g)
	}
	rounds := 0
	for b.Loop() {
		for _, g := range games {
			res, err := Verify(g)
			if err != nil {
				b.Fatal(err)
			}
			rounds += res.Rounds
		}
	}
	b.ReportMetric(float64(rounds)/b.Elapsed().Seconds(), "rounds/s")
}
