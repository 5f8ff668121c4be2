package bot

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// Filler hands for the seats a test does not watch: no pair, no sequence,
// so they win nothing and rarely call (and pass when they may).
const (
	fillA = "147m258p369s1234z"
	fillB = "258m369p147s5566z"
	fillC = "369m147p258s2344z"
)

// kindOf returns the kind named s ("5p", "7z").
func kindOf(t *testing.T, s string) wall.Kind {
	t.Helper()
	k, _, err := wall.ParseTileName(s)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func hasType(acts []game.Action, typ game.ActionType) bool {
	return slices.ContainsFunc(acts, func(a game.Action) bool { return a.Type == typ })
}

func TestTsumoWhenComplete(t *testing.T) {
	// Seat 0 waits on 5s tanki (menzen tsumo is the yaku).
	h := newTable(t, [4]string{"123m456p789s234s5s", fillA, fillB, fillC}, "1p")
	h.drawDiscard("7z", game.NoSeat) // not the first draw: no tenhou
	h.drawDiscard("9m", game.NoSeat)
	h.drawDiscard("9p", game.NoSeat)
	h.drawDiscard("8m", game.NoSeat)
	h.draw("5s")
	a := h.choose(0)
	if a.Type != game.TsumoAgari {
		t.Fatalf("chose %v, want tsumo", a)
	}
	h.do(a)
	res := h.k.Result()
	if res == nil || res.End != game.EndAgari || !res.Wins[0].Tsumo || res.Wins[0].Seat != 0 {
		t.Fatalf("result %+v, want seat 0's tsumo", res)
	}
}

func TestRonOnWait(t *testing.T) {
	// Seat 1 waits on 5p tanki with all simples (tanyao); seat 0 deals in.
	h := newTable(t, [4]string{fillA, "234m456p678s345s5p", fillB, fillC}, "1p")
	h.draw("0p")
	h.do(game.Action{Type: game.Discard, Seat: 0, Tile: h.held(0, "0p")})
	a := h.choose(1)
	if a.Type != game.Ron {
		t.Fatalf("chose %v, want ron (legal: %v)", a, h.k.LegalActions(1))
	}
	h.do(a)
	h.passAll(1)
	res := h.k.Result()
	if res == nil || res.End != game.EndAgari || res.Wins[0].Tsumo || res.Wins[0].Seat != 1 || res.Wins[0].From != 0 {
		t.Fatalf("result %+v, want seat 1's ron off seat 0", res)
	}
}

func TestRiichiKeepsMostWaits(t *testing.T) {
	// 123m456p789s2345s + 1z: discarding 1z waits on 2s-5s (6 unseen);
	// discarding 2s or 5s waits on 1z tanki (3 unseen).
	h := newTable(t, [4]string{"123m456p789s2345s", fillA, fillB, fillC}, "1p")
	h.draw("1z")
	a := h.choose(0)
	if a.Type != game.Discard || !a.Riichi || a.Tile.Kind() != kindOf(t, "1z") {
		t.Fatalf("chose %v, want riichi discarding 1z", a)
	}
	h.do(a)
	h.passAll(game.NoSeat)
	if !h.k.Riichi(0) {
		t.Error("riichi not accepted by the engine")
	}
	// In riichi the bot may only discard its draw; it must not error.
	for range 3 {
		h.drawDiscard("8p", game.NoSeat)
	}
	h.draw("9p")
	if a := h.choose(0); a.Type != game.Discard || a.Tile.Kind() != kindOf(t, "9p") {
		t.Fatalf("in riichi chose %v, want to discard the drawn 9p", a)
	}
}

func TestRiichiKeepsRedFive(t *testing.T) {
	// 123m789p789s222s + 5m + 0s: either five waits tanki on the other's
	// kind with 3 unseen; the red one is kept.
	h := newTable(t, [4]string{"123m789p789s22s5m0s", fillA, fillB, fillC}, "1p")
	h.draw("2s")
	a := h.choose(0)
	if a.Type != game.Discard || !a.Riichi || a.Tile.Kind() != kindOf(t, "5m") || a.Tile.IsRed() {
		t.Fatalf("chose %v, want riichi discarding the plain 5m", a)
	}
}

func TestDiscardIsolatedHonour(t *testing.T) {
	// 123m456p789s22s + 5m 9m 1z: the lone East has the fewest useful
	// draws (only its pair); 5m and 9m can form sequences.
	h := newTable(t, [4]string{"123m456p789s1z22s5m", fillA, fillB, fillC}, "1p")
	h.draw("9m")
	a := h.choose(0)
	if a.Type != game.Discard || a.Riichi || a.Tile.Kind() != kindOf(t, "1z") {
		t.Fatalf("chose %v, want discard 1z", a)
	}
}

func TestDiscardTieBreakByValue(t *testing.T) {
	cases := []struct {
		name, hand, dora, want string
	}{
		// North (guest wind for the East seat in East round) before chun.
		{"guest wind before dragon", "123m456p789s22s4z7z", "1p", "4z"},
		// West and North are both guest winds; the 2z indicator makes West dora.
		{"keep dora", "123m456p789s22s3z4z", "2z", "4z"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newTable(t, [4]string{c.hand, "147m258p369s1256z", fillB, "369m147p258s1233z"}, c.dora)
			h.draw("9m")
			a := h.choose(0)
			if a.Type != game.Discard || a.Tile.Kind() != kindOf(t, c.want) {
				t.Fatalf("chose %v, want discard %s", a, c.want)
			}
		})
	}
}

func TestPonDragonThenKakan(t *testing.T) {
	// Seat 1: 123m456p78s99m3p + 77z. Pon of chun makes it tenpai after
	// discarding the lone 3p; drawing the fourth chun later, the kakan
	// keeps tenpai.
	h := newTable(t, [4]string{fillA, "123m456p78s77z99m3p", fillB, fillC}, "1p")
	h.draw("7z")
	h.do(game.Action{Type: game.Discard, Seat: 0, Tile: h.held(0, "7z")})
	a := h.choose(1)
	if a.Type != game.Pon || a.Tile.Kind() != kindOf(t, "7z") {
		t.Fatalf("chose %v, want pon 7z (legal: %v)", a, h.k.LegalActions(1))
	}
	h.do(a)
	h.passAll(1)
	if h.k.Phase() != game.PhaseTurn || h.k.Turn() != 1 {
		t.Fatalf("phase %s turn %d after the pon", h.k.Phase(), h.k.Turn())
	}
	a = h.choose(1)
	if a.Type != game.Discard || a.Tile.Kind() != kindOf(t, "3p") {
		t.Fatalf("after the pon chose %v, want discard 3p", a)
	}
	h.do(a)
	h.passAll(game.NoSeat)
	h.drawDiscard("1s", game.NoSeat) // seat 2
	h.drawDiscard("9p", game.NoSeat) // seat 3
	h.drawDiscard("1p", game.NoSeat) // seat 0
	h.draw("7z")
	a = h.choose(1)
	if a.Type != game.Kakan {
		t.Fatalf("with the fourth chun chose %v, want kakan", a)
	}
	h.do(a)
	h.passAll(game.NoSeat)
	if _, _, rinshan, ok := h.k.NextDraw(); !ok || !rinshan {
		t.Fatal("no rinshan draw after the kakan")
	}
}

func TestDaiminkanDragon(t *testing.T) {
	h := newTable(t, [4]string{fillA, "777z123m456p78s99m", fillB, fillC}, "1p")
	h.draw("7z")
	h.do(game.Action{Type: game.Discard, Seat: 0, Tile: h.held(0, "7z")})
	acts := h.k.LegalActions(1)
	if !hasType(acts, game.Pon) || !hasType(acts, game.Daiminkan) {
		t.Fatalf("legal %v lack pon and daiminkan", acts)
	}
	if a := h.choose(1); a.Type != game.Daiminkan {
		t.Fatalf("chose %v, want daiminkan", a)
	}
}

func TestAnkanKeepsShanten(t *testing.T) {
	// 1111m 456p 789s 23s 5z + 9p: three sets and a partial either way.
	h := newTable(t, [4]string{"1111m456p789s23s5z", "478m258p369s1234z", fillB, fillC}, "1p")
	h.draw("9p")
	a := h.choose(0)
	if a.Type != game.Ankan || a.Tiles[0].Kind() != kindOf(t, "1m") {
		t.Fatalf("chose %v, want ankan 1m", a)
	}
	h.do(a)
	h.passAll(game.NoSeat)
	if n := len(h.k.DoraIndicators()); n != 2 {
		t.Errorf("%d dora indicators after the ankan, want 2", n)
	}
}

func TestCallsKeepAYaku(t *testing.T) {
	cases := []struct {
		name, hand, tile string
		want             game.ActionType
	}{
		// Chi 2m with 13m would make 123m (a terminal): no tanyao, no
		// honitsu (pinzu and souzu in hand), North is no yakuhai for
		// South: the open hand would have no yaku, though tenpai.
		{"no chi into a yakuless hand", "13m789p123s44z99s5p", "2m", game.Pass},
		// Chi 4m with 35m keeps every tile simple: tanyao tenpai.
		{"chi toward tanyao", "35m678p234s66s88p4p", "4m", game.Chi},
		// Pon of 9s: 999s is a terminal triplet, no yaku left.
		{"no pon into a yakuless hand", "13m789p123s44z99s5p", "9s", game.Pass},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newTable(t, [4]string{"147m258p369s1235z", c.hand, fillB, fillC}, "1p")
			h.draw(c.tile)
			h.do(game.Action{Type: game.Discard, Seat: 0, Tile: h.held(0, c.tile)})
			acts := h.k.LegalActions(1)
			if !hasType(acts, game.Chi) && !hasType(acts, game.Pon) {
				t.Fatalf("no call offered (legal %v): the case tests nothing", acts)
			}
			a := h.choose(1)
			if a.Type != c.want {
				t.Fatalf("chose %v, want %v", a, c.want)
			}
			h.do(a)
			h.passAll(1)
		})
	}
}

func TestKyuushu(t *testing.T) {
	cases := []struct {
		hand string
		kyu  bool
	}{
		{"19m19p19s1234z258m", true},  // 10 kinds: abort
		{"19m19p19s123z2588m", false}, // 9 kinds: play on
	}
	for _, c := range cases {
		h := newTable(t, [4]string{c.hand, "147m258p369s5567z", fillB, fillC}, "1p")
		h.draw("5p")
		if !hasType(h.k.LegalActions(0), game.KyuushuKyuuhai) {
			t.Fatalf("%s: kyuushu not legal", c.hand)
		}
		a := h.choose(0)
		if got := a.Type == game.KyuushuKyuuhai; got != c.kyu {
			t.Fatalf("%s: chose %v, want kyuushu %v", c.hand, a, c.kyu)
		}
		h.do(a)
		if c.kyu && (h.k.Result() == nil || h.k.Result().Abort != game.AbortKyuushu) {
			t.Fatalf("%s: result %+v, want kyuushu abort", c.hand, h.k.Result())
		}
	}
}

func TestChooseErrors(t *testing.T) {
	h := newTable(t, [4]string{fillA, "123m456p789s2345s", fillB, fillC}, "1p")
	// Waiting for the dealer's draw: nobody acts.
	if _, err := New(1).Choose(h.k, 0); !errors.Is(err, ErrNoAction) {
		t.Errorf("in the draw phase: err %v, want ErrNoAction", err)
	}
	h.draw("1z")
	if _, err := New(1).Choose(h.k, 2); !errors.Is(err, ErrNoAction) {
		t.Errorf("not the seat's turn: err %v, want ErrNoAction", err)
	}
	// A kyoku in which the engine does not see seat 0's tiles.
	d := game.Deal{Scores: [4]int{25000, 25000, 25000, 25000}, DoraIndicator: 0}
	for s := range d.Haipai {
		d.Haipai[s] = make([]wall.Tile, 13)
		for i := range d.Haipai[s] {
			d.Haipai[s][i] = game.Unknown
		}
	}
	k, err := game.NewKyoku(game.TenhouRules(true, true, true), d)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.Draw(game.Unknown); err != nil {
		t.Fatal(err)
	}
	if _, err := New(1).Choose(k, 0); err == nil || errors.Is(err, ErrNoAction) {
		t.Errorf("hidden own hand: err %v, want an error naming the unrevealed tile", err)
	}
}

func TestDeterministicAndPure(t *testing.T) {
	// Two isolated guest winds with equal ukeire and value: the tie-break
	// is the seeded draw. The same seed and state give the same choice,
	// and Choose does not change the kyoku.
	h := newTable(t, [4]string{"123m456p789s22s3z4z", "147m258p369s1256z", fillB, "369m147p258s1233z"}, "1p")
	h.draw("9m")
	seen := map[wall.Kind]bool{}
	for seed := uint64(0); seed < 32; seed++ {
		b := New(seed)
		a1, err1 := b.Choose(h.k, 0)
		a2, err2 := b.Choose(h.k.Clone(), 0)
		if err1 != nil || err2 != nil || a1.Type != a2.Type || a1.Tile != a2.Tile {
			t.Fatalf("seed %d: %v (%v) then %v (%v)", seed, a1, err1, a2, err2)
		}
		seen[a1.Tile.Kind()] = true
	}
	if !seen[kindOf(t, "3z")] || !seen[kindOf(t, "4z")] || len(seen) != 2 {
		t.Errorf("over 32 seeds the tie between 3z and 4z gave %v, want both and nothing else", seen)
	}
	if h.k.Phase() != game.PhaseTurn || len(h.k.River(0)) != 0 {
		t.Error("Choose changed the kyoku")
	}
}

// TestUkeireClosedMatchesAll checks the closed-hand ukeire shortcut against
// trying every kind (a second code path), on random closed hands.
func TestUkeireClosedMatchesAll(t *testing.T) {
	h := newTable(t, [4]string{fillA, fillB, fillC, "123456789m123p4z"}, "1p")
	v := newView(h.k, 0)
	r := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 3000; i++ {
		var c riichi.Counts
		for n := 0; n < 13; {
			k := r.IntN(wall.NumKinds)
			if c[k] < 4 {
				c[k]++
				n++
			}
		}
		s := riichi.Shanten(&c, 0)
		if fast, all := v.ukeireClosed(&c, 0, s), v.ukeireAll(&c, nil, s); fast != all {
			t.Fatalf("hand %v: shortcut ukeire %d, every kind %d", c, fast, all)
		}
	}
}

// TestKnobs checks that Kans and Calls switch off kans and calls: the same
// positions as TestAnkanKeepsShanten and TestPonDragonThenKakan.
func TestKnobs(t *testing.T) {
	h := newTable(t, [4]string{"1111m456p789s23s5z", "478m258p369s1234z", fillB, fillC}, "1p")
	h.draw("9p")
	b := New(1)
	b.Kans = false
	if a, err := b.Choose(h.k, 0); err != nil || a.Type != game.Discard {
		t.Errorf("Kans off: chose %v (%v), want a discard", a, err)
	}
	h = newTable(t, [4]string{fillA, "123m456p78s77z99m3p", fillB, fillC}, "1p")
	h.draw("7z")
	h.do(game.Action{Type: game.Discard, Seat: 0, Tile: h.held(0, "7z")})
	b = New(1)
	b.Calls = false
	if a, err := b.Choose(h.k, 1); err != nil || a.Type != game.Pass {
		t.Errorf("Calls off: chose %v (%v), want pass", a, err)
	}
}
