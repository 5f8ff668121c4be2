package rules

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// TestRulebookExamples scores the worked examples of
// testdata/rulebook_examples.txt under their preset.
func TestRulebookExamples(t *testing.T) {
	f, err := os.Open("testdata/rulebook_examples.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		in, want, ok := strings.Cut(text, "|")
		if !ok {
			t.Fatalf("line %d: no |", line)
		}
		ctx, err := exampleContext(strings.Fields(in))
		if err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		res, err := riichi.Score(ctx)
		if err != nil {
			t.Errorf("line %d: %v", line, err)
			continue
		}
		for _, w := range strings.Fields(want) {
			k, v, _ := strings.Cut(w, "=")
			var got string
			switch k {
			case "points":
				got = strconv.Itoa(res.Points)
			case "ron":
				got = strconv.Itoa(res.Pay.Ron)
			case "tsumo":
				got = fmt.Sprintf("%d/%d", res.Pay.TsumoDealer, res.Pay.TsumoNonDealer)
			default:
				t.Fatalf("line %d: unknown expectation %q", line, k)
			}
			if got != v {
				t.Errorf("line %d (%s): %s = %s, want %s (yaku %v yakuman %v han %d fu %d)", line, strings.TrimSpace(in), k, got, v, res.Yaku, res.Yakuman, res.Han, res.Fu)
			}
		}
		n++
	}
	if n < 20 {
		t.Fatalf("only %d examples read", n)
	}
}

// exampleContext builds the WinContext of one example line.
func exampleContext(fields []string) (riichi.WinContext, error) {
	s, err := Preset(fields[0])
	if err != nil {
		return riichi.WinContext{}, err
	}
	ctx := riichi.WinContext{SeatWind: 28, RoundWind: 27, Rules: s.Game(4, true).Hand}
	var all strings.Builder
	var parts [][2]string
	win := ""
	for _, f := range fields[1:] {
		k, v, ok := strings.Cut(f, "=")
		switch {
		case !ok && k == "tsumo":
			ctx.Tsumo = true
		case !ok && k == "riichi":
			ctx.Riichi = true
		case !ok && k == "dealer":
			ctx.SeatWind = 27
		case k == "win":
			win = v
		case k == "hand" || k == "dora" || k == "chi" || k == "pon":
			parts = append(parts, [2]string{k, v})
			all.WriteString(v)
		default:
			return ctx, fmt.Errorf("unknown field %q", f)
		}
	}
	tiles, err := riichi.ParseHand(all.String())
	if err != nil {
		return ctx, err
	}
	for _, p := range parts {
		part, _ := riichi.ParseHand(p[1])
		ts := tiles[:len(part)]
		tiles = tiles[len(part):]
		switch p[0] {
		case "hand":
			ctx.Hand = ts
		case "dora":
			ctx.DoraIndicators = append(ctx.DoraIndicators, ts...)
		case "chi":
			ctx.Melds = append(ctx.Melds, riichi.Meld{Type: riichi.Chi, Tiles: ts, Called: ts[0], From: 3})
		case "pon":
			ctx.Melds = append(ctx.Melds, riichi.Meld{Type: riichi.Pon, Tiles: ts, Called: ts[0], From: 2})
		}
	}
	k, red, err := wall.ParseTileName(win)
	if err != nil {
		return ctx, err
	}
	ctx.WinTile = -1
	for _, t := range ctx.Hand {
		if t.Kind() == k && t.IsRed() == red {
			ctx.WinTile = t
		}
	}
	return ctx, nil
}

// TestMajsoulPoints: Mahjong Soul counts a player's points from the
// starting score, with uma 15/5/-5/-15 and no oka (riichi.wiki "Majsoul",
// Ladder: "PtsGain = (RawScore - StartingPts) / 1000 + UmaPts +
// RankPts"). The final scores of the published Gold-room game
// 90LXpfcSY9g (amae-koromo; rank points +115, +59, -11, which these
// points give with the room's +80/+40/0 rounded up) give 34.2, 18.9,
// -11.4 and -41.7 without the room's rank points; the target that ends
// the last hand is 30000 (40000 for three players).
func TestMajsoulPoints(t *testing.T) {
	s, _ := Preset("majsoul")
	m := game.NewMatch(s.Game(4, true))
	m.Resync(game.Deal{Round: 7, Scores: [4]int{44200, 38900, 18600, -1700}})
	if got, want := m.Standings().Points, [4]int{342, 189, -114, -417}; got != want {
		t.Errorf("points %v (tenths), want %v", got, want)
	}
	// South 4 ends with a dealer (seat 3) win only if someone has 30000:
	// 29900 on top plays the west round.
	for _, c := range []struct {
		scores [4]int
		over   bool
	}{{[4]int{30000, 25000, 25000, 20000}, true}, {[4]int{29900, 25100, 25000, 20000}, false}} {
		m := game.NewMatch(s.Game(4, true))
		m.Resync(game.Deal{Round: 7, Oya: 3, Scores: [4]int{25000, 25000, 25000, 25000}})
		res := game.Result{End: game.EndAgari, Scores: c.scores}
		if err := m.End(&res); err != nil {
			t.Fatal(err)
		}
		if m.Over() != c.over {
			t.Errorf("South 4 ends at %v: over %v, want %v", c.scores, m.Over(), c.over)
		}
	}
	if g := s.Game(3, true); g.WestTarget != 40000 || g.Return != 35000 || g.Start != 35000 {
		t.Errorf("three players: start %d, return %d, target %d; want 35000, 35000, 40000", g.Start, g.Return, g.WestTarget)
	}
}
