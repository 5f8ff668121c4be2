package game

import (
	"slices"
	"testing"

	"github.com/mentalmj/mentalmj/wall"
)

// sanmaHarness deals three-player hands (no 2m-8m) under Tenhou's sanma
// rules, seat 0 the dealer of East 1.
func sanmaHarness(t *testing.T, hands [3]string, dora string) *harness {
	t.Helper()
	return sanmaHarnessRules(t, TenhouSanmaRules(true, true, true), hands, dora)
}

// sanmaHarnessRules is sanmaHarness under rules r.
func sanmaHarnessRules(t *testing.T, r Rules, hands [3]string, dora string) *harness {
	t.Helper()
	h := &harness{t: t}
	for id := wall.Tile(4); id < 32; id++ {
		h.used[id] = true // 2m-8m are not in the three-player set
	}
	d := Deal{Scores: [4]int{35000, 35000, 35000, 0}}
	for s := range hands {
		d.Haipai[s] = h.ids(hands[s])
	}
	d.DoraIndicator = h.tile(dora)
	k, err := NewKyoku(r, d)
	if err != nil {
		t.Fatal(err)
	}
	h.k = k
	return h
}

var sanmaHands = [3]string{"19m19p19s1234z5p6p7p", "11m99m123p456s777z", "9m258p258s123566z"}

func TestSanmaNoChiAndSeats(t *testing.T) {
	h := sanmaHarness(t, sanmaHands, "1s")
	if h.k.Players() != 3 || h.k.Layout() != wall.ThreePlayer {
		t.Fatalf("players %d layout %+v", h.k.Players(), h.k.Layout())
	}
	if _, pos, _, _ := h.k.NextDraw(); pos != 68 {
		t.Errorf("first live draw at yama[%d], want 68 (3p layout)", pos)
	}
	h.draw("8p")
	h.discard(0, "8p")
	// Seat 1 holds 123p... but no chi exists in sanma; seat 3 does not exist.
	h.deny(Action{Type: Chi, Seat: 1, Tiles: h.heldN(1, "2p3p")}, "")
	h.deny(Action{Type: Pass, Seat: 3}, "seat outside 0..2")
	h.pass()
	if s, _, _, ok := h.k.NextDraw(); !ok || s != 1 {
		t.Fatalf("next draw by seat %d, want 1", s)
	}
	h.draw("9s")
	h.discard(1, "9s")
	h.pass()
	if s, _, _, _ := h.k.NextDraw(); s != 2 {
		t.Fatalf("seat 2 should draw after seat 1, got %d", s)
	}
	h.draw("1s")
	h.discard(2, "1s")
	h.pass()
	if s, _, _, _ := h.k.NextDraw(); s != 0 {
		t.Fatalf("seat 0 should draw after seat 2 (no seat 3), got %d", s)
	}
	// A tile of 2m-8m cannot be revealed in a three-player kyoku.
	if err := h.k.Reveal(40, 10); err == nil {
		t.Error("revealed a 3m in sanma")
	}
}

func TestSanmaKita(t *testing.T) {
	h := sanmaHarness(t, sanmaHands, "1s")
	h.draw("4z")
	north := h.held(0, "4z")
	var found bool
	for _, a := range h.k.LegalActions(0) {
		found = found || a.Type == Kita
	}
	if !found {
		t.Fatalf("kita not among the legal actions: %v", h.k.LegalActions(0))
	}
	h.do(Action{Type: Kita, Seat: 0, Tile: north})
	h.pass()
	s, pos, rinshan, ok := h.k.NextDraw()
	if !ok || s != 0 || !rinshan || pos != 1 {
		t.Fatalf("after kita: draw seat %d yama[%d] rinshan %v, want seat 0 yama[1] rinshan", s, pos, rinshan)
	}
	if got := h.k.Nukidora(0); len(got) != 1 || got[0] != north {
		t.Errorf("nukidora %v, want [%d]", got, north)
	}
	if len(h.k.DoraIndicators()) != 1 {
		t.Error("a kita turned a kan-dora indicator")
	}
	// Kita is not a four-player action, and takes a north only.
	h.draw("9s")
	h.deny(Action{Type: Kita, Seat: 0, Tile: h.held(0, "1z")}, "north")
}

// TestSanmaTsumoLoss: a non-dealer tsumo is paid by the two others only
// (no share of the empty seat), as Tenhou's 3p AGARI sc= show.
func TestSanmaTsumoLoss(t *testing.T) {
	// Seat 1: 11m 99m 123p 456s 777z, waiting on 1m/9m (shanpon); chun.
	h := sanmaHarness(t, sanmaHands, "1s")
	for range 4 { // seats 0, 1, 2, 0: seat 1's next draw is no chiihou
		h.fillTurn("1m9m4z")
	}
	h.draw("1m")
	h.do(Action{Type: TsumoAgari, Seat: 1})
	res := h.k.Result()
	if res == nil || len(res.Wins) != 1 {
		t.Fatalf("result %+v", res)
	}
	v := res.Wins[0].Value
	// Chun 1 + menzen tsumo 1 = 2 han; 20 + 2 tsumo + 8 (1m ankou) + 8
	// (chun ankou), 99m the pair = 38 → 40 fu: 40·2^4 = 640 base.
	// Non-dealer tsumo: 1300 from the dealer, 700 from the other, nothing
	// for the empty seat (a four-player game would add another 700).
	if v.Points != 2000 {
		t.Errorf("points %d, want 2000 (two payers)", v.Points)
	}
	if res.Deltas != [4]int{-1300, 2000, -700, 0} {
		t.Errorf("deltas %v, want [-1300 2000 -700 0]", res.Deltas)
	}
}

// TestSanmaMatchRounds: East 3 is followed by South 1 (round 4); the
// regular end is South 3; the final points use 40000 and uma 20/0/-20.
func TestSanmaMatchRounds(t *testing.T) {
	m := NewMatch(TenhouSanmaRules(true, true, true))
	d, _ := m.Next()
	if d.Scores != [4]int{35000, 35000, 35000, 0} {
		t.Fatalf("start scores %v", d.Scores)
	}
	var rounds []int
	for i := 0; i < 6 && !m.Over(); i++ {
		d, _ := m.Next()
		rounds = append(rounds, d.Round)
		r := &Result{End: EndExhaustive, Scores: d.Scores}
		if i == 5 {
			r.Scores = [4]int{45000, 35000, 25000, 0}
		}
		if err := m.End(r); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(rounds, []int{0, 1, 2, 4, 5, 6}) || !m.Over() {
		t.Fatalf("rounds %v, over %v; want [0 1 2 4 5 6] and over after South 3", rounds, m.Over())
	}
	st := m.Standings()
	// 2nd: 35000 → -5 + 0; 3rd: 25000 → -15 - 20; top: the rest.
	if st.Points != [4]int{400, -50, -350, 0} {
		t.Errorf("points %v, want [400 -50 -350 0]", st.Points)
	}
}

func TestSanmaSeatWinds(t *testing.T) {
	h := sanmaHarness(t, sanmaHands, "1s")
	want := map[Seat]wall.Kind{0: 27, 1: 28, 2: 29, 3: -1}
	for s, w := range want {
		if got := h.k.SeatWind(s); got != w {
			t.Errorf("seat %d wind %d, want %d", s, got, w)
		}
	}
}
