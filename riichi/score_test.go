package riichi

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/wall"
)

// scoreCase is one line of testdata/score_cases.txt.
type scoreCase struct {
	name   string
	line   int
	ctx    WinContext
	expect map[string]string
}

// parseScoreCase builds the WinContext of one vector line.
func parseScoreCase(name string, inputs, expects []string) (WinContext, map[string]string, error) {
	ctx := WinContext{SeatWind: 28, RoundWind: 27, Rules: TenhouRules}
	// Parse all tiles in one ParseHand call so that hand, melds and
	// indicators get distinct ids.
	type part struct {
		key, text string
	}
	var parts []part
	var combined strings.Builder
	win := ""
	for _, f := range inputs {
		key, val, hasVal := strings.Cut(f, "=")
		if !hasVal {
			switch key {
			case "tsumo":
				ctx.Tsumo = true
			case "riichi":
				ctx.Riichi = true
			case "double":
				ctx.DoubleRiichi = true
			case "ippatsu":
				ctx.Ippatsu = true
			case "haitei":
				ctx.Haitei = true
			case "houtei":
				ctx.Houtei = true
			case "rinshan":
				ctx.Rinshan = true
			case "chankan":
				ctx.Chankan = true
			case "tenhou":
				ctx.Tenhou = true
			case "chiihou":
				ctx.Chiihou = true
			case "nokuitan":
				ctx.Rules.Kuitan = false
			case "noaka":
				ctx.Rules.Aka = false
			case "kiriage":
				ctx.Rules.Kiriage = true
			case "sanbaiman":
				ctx.Rules.KazoeSanbaiman = true
			case "double-yakuman":
				ctx.Rules.DoubleYakuman = true
			case "single-yakuman":
				ctx.Rules.SingleYakuman = true
			case "noura":
				ctx.Rules.NoUra = true
			case "nokandora":
				ctx.Rules.NoKanDora = true
			case "nokanura":
				ctx.Rules.NoKanUra = true
			default:
				return ctx, nil, fmt.Errorf("unknown flag %q", key)
			}
			continue
		}
		switch key {
		case "hand", "chi", "pon", "minkan", "kakan", "ankan", "dora", "ura":
			parts = append(parts, part{key, val})
			combined.WriteString(val)
		case "win":
			win = val
		case "seat", "round":
			k, _, err := wall.ParseTileName(val)
			if err != nil {
				return ctx, nil, err
			}
			if key == "seat" {
				ctx.SeatWind = k
			} else {
				ctx.RoundWind = k
			}
		case "honba", "honba-value", "red":
			n, err := strconv.Atoi(val)
			if err != nil {
				return ctx, nil, err
			}
			switch key {
			case "honba":
				ctx.Honba = n
			case "honba-value":
				ctx.Rules.Honba = n
			default:
				ctx.Rules.Red = n
			}
		default:
			return ctx, nil, fmt.Errorf("unknown key %q", key)
		}
	}
	all, err := ParseHand(combined.String())
	if err != nil {
		return ctx, nil, err
	}
	for _, p := range parts {
		n := len(mustParse(p.text))
		tiles := all[:n]
		all = all[n:]
		switch p.key {
		case "hand":
			ctx.Hand = tiles
		case "dora":
			ctx.DoraIndicators = tiles
		case "ura":
			ctx.UraIndicators = tiles
		default:
			m := Meld{Tiles: tiles, Called: tiles[0], From: 2}
			switch p.key {
			case "chi":
				m.Type, m.From = Chi, 3
			case "pon":
				m.Type = Pon
			case "minkan":
				m.Type = Daiminkan
			case "kakan":
				m.Type = Kakan
			case "ankan":
				m.Type, m.Called, m.From = Ankan, -1, 0
			}
			ctx.Melds = append(ctx.Melds, m)
		}
	}
	wk, red, err := wall.ParseTileName(win)
	if err != nil {
		return ctx, nil, fmt.Errorf("win: %w", err)
	}
	ctx.WinTile = -1
	for _, t := range ctx.Hand {
		if t.Kind() == wk && t.IsRed() == red {
			ctx.WinTile = t
		}
	}
	expect := map[string]string{}
	for _, f := range expects {
		key, val, ok := strings.Cut(f, "=")
		if !ok {
			return ctx, nil, fmt.Errorf("expectation %q without value", f)
		}
		expect[key] = val
	}
	return ctx, expect, nil
}

func mustParse(s string) []wall.Tile {
	t, err := ParseHand(s)
	if err != nil {
		panic(err)
	}
	return t
}

// loadScoreCases reads testdata/score_cases.txt (Tenhou's rules) and
// testdata/house_score_cases.txt (the house-rule switches).
func loadScoreCases(t *testing.T) []scoreCase {
	t.Helper()
	var out []scoreCase
	for _, f := range []string{"testdata/score_cases.txt", "testdata/house_score_cases.txt"} {
		out = append(out, loadScoreFile(t, f)...)
	}
	return out
}

func loadScoreFile(t *testing.T, file string) []scoreCase {
	t.Helper()
	fh, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []scoreCase
	sc := bufio.NewScanner(fh)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		in, ex, ok := strings.Cut(line, "|")
		if !ok {
			t.Fatalf("%s:%d: no '|'", file, n)
		}
		fields := strings.Fields(in)
		ctx, expect, err := parseScoreCase(fields[0], fields[1:], strings.Fields(ex))
		if err != nil {
			t.Fatalf("%s:%d (%s): %v", file, n, fields[0], err)
		}
		out = append(out, scoreCase{name: fields[0], line: n, ctx: ctx, expect: expect})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func parseYakuList(s string) ([]Yaku, error) {
	if s == "-" {
		return nil, nil
	}
	var out []Yaku
	for _, item := range strings.Split(s, ",") {
		id, han, ok := strings.Cut(item, ":")
		a, err1 := strconv.Atoi(id)
		b, err2 := strconv.Atoi(han)
		if !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("bad yaku item %q", item)
		}
		out = append(out, Yaku{a, b})
	}
	return out, nil
}

// TestScoreVectors checks Score against the hand-worked vectors of
// testdata/score_cases.txt (one yaku or fu rule per case).
func TestScoreVectors(t *testing.T) {
	cases := loadScoreCases(t)
	if len(cases) < 50 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Score(c.ctx)
			if want, ok := c.expect["err"]; ok {
				target := map[string]error{"noyaku": ErrNoYaku, "notcomplete": ErrNotComplete, "invalid": ErrInvalidHand}[want]
				if target == nil {
					t.Fatalf("line %d: unknown err %q", c.line, want)
				}
				if !errors.Is(err, target) {
					t.Fatalf("line %d: err = %v, want %v", c.line, err, target)
				}
				return
			}
			if err != nil {
				t.Fatalf("line %d: %v", c.line, err)
			}
			check := func(key string, got int) {
				if v, ok := c.expect[key]; ok {
					want, err := strconv.Atoi(v)
					if err != nil {
						t.Fatalf("line %d: %s=%q", c.line, key, v)
					}
					if got != want {
						t.Errorf("line %d: %s = %d, want %d (result %+v)", c.line, key, got, want, res)
					}
				}
			}
			check("fu", res.Fu)
			check("han", res.Han)
			check("points", res.Points)
			check("limit", res.Limit)
			check("ron", res.Pay.Ron)
			if v, ok := c.expect["tsumo"]; ok {
				d, n, _ := strings.Cut(v, "/")
				if got := fmt.Sprintf("%d/%d", res.Pay.TsumoDealer, res.Pay.TsumoNonDealer); got != d+"/"+n {
					t.Errorf("line %d: tsumo payment %s, want %s", c.line, got, v)
				}
				if res.Pay.Ron != 0 {
					t.Errorf("line %d: tsumo win has Ron payment %d", c.line, res.Pay.Ron)
				}
			}
			if v, ok := c.expect["yaku"]; ok {
				want, err := parseYakuList(v)
				if err != nil {
					t.Fatalf("line %d: %v", c.line, err)
				}
				if !slices.Equal(res.Yaku, want) {
					t.Errorf("line %d: yaku %v, want %v", c.line, res.Yaku, want)
				}
			}
			if v, ok := c.expect["yakuman"]; ok {
				var want []int
				for _, s := range strings.Split(v, ",") {
					n, err := strconv.Atoi(s)
					if err != nil {
						t.Fatalf("line %d: yakuman %q", c.line, v)
					}
					want = append(want, n)
				}
				if !slices.Equal(res.Yakuman, want) {
					t.Errorf("line %d: yakuman %v, want %v", c.line, res.Yakuman, want)
				}
				if len(res.Yaku) != 0 {
					t.Errorf("line %d: yakuman hand lists yaku %v", c.line, res.Yaku)
				}
			} else if len(res.Yakuman) != 0 {
				t.Errorf("line %d: unexpected yakuman %v", c.line, res.Yakuman)
			}
		})
	}
}

// TestScoreHanIsSumOfYaku checks on the vectors that Han is the sum of the
// listed yaku and that Points follows from han and fu by the point table.
func TestScoreHanIsSumOfYaku(t *testing.T) {
	for _, c := range loadScoreCases(t) {
		res, err := Score(c.ctx)
		if err != nil || len(res.Yakuman) > 0 {
			continue
		}
		sum := 0
		for _, y := range res.Yaku {
			sum += y.Han
		}
		if sum != res.Han {
			t.Errorf("%s: han %d but yaku sum %d", c.name, res.Han, sum)
		}
	}
}

// TestScoreRejectsBadInput checks malformed contexts give ErrInvalidHand and
// never panic.
func TestScoreRejectsBadInput(t *testing.T) {
	good := WinContext{Hand: mustParse("234m99m567p345678s"), SeatWind: 28, RoundWind: 27, Rules: TenhouRules, Tsumo: true}
	good.WinTile = good.Hand[0]
	if _, err := Score(good); err != nil {
		t.Fatalf("baseline: %v", err)
	}
	mutations := map[string]func(*WinContext){
		"duplicate id": func(c *WinContext) { c.Hand[1] = c.Hand[0] },
		"invalid id":   func(c *WinContext) { c.Hand[1] = 200 },
		"negative id":  func(c *WinContext) { c.Hand[1] = -3 },
		"seat wind":    func(c *WinContext) { c.SeatWind = 3 },
		"round wind":   func(c *WinContext) { c.RoundWind = 31 },
		"five melds":   func(c *WinContext) { c.Melds = make([]Meld, 5) },
		"bad meld": func(c *WinContext) {
			c.Hand = c.Hand[:11]
			c.Melds = []Meld{{Type: Pon, Tiles: mustParse("123z"), From: 1}}
		},
		"meld bad type": func(c *WinContext) {
			c.Hand = c.Hand[:11]
			c.Melds = []Meld{{Type: 9, Tiles: mustParse("111z"), From: 1}}
		},
		"meld reuses id":  func(c *WinContext) { c.Hand = c.Hand[:11]; c.Melds = []Meld{{Type: Pon, Tiles: c.Hand[8:11], From: 1}} },
		"bad dora id":     func(c *WinContext) { c.DoraIndicators = []wall.Tile{136} },
		"win not in hand": func(c *WinContext) { c.WinTile = 135 },
	}
	for name, mutate := range mutations {
		c := good
		c.Hand = slices.Clone(good.Hand)
		mutate(&c)
		if _, err := Score(c); !errors.Is(err, ErrInvalidHand) {
			t.Errorf("%s: err = %v, want ErrInvalidHand", name, err)
		}
	}
}
