package game

import (
	"slices"
	"testing"

	"github.com/mentalmj/mentalmj/wall"
)

// The house-rule switches of Rules. Expected values come from the rule
// texts (riichi.wiki, the WRC and EMA rule books) and hand arithmetic, not
// from the engine.

func tenhouWith(edit func(*Rules)) Rules {
	r := TenhouRules(true, true, true)
	edit(&r)
	return r
}

// Tenhou's three-player rule: a ron on another player's kita within the
// ippatsu window scores ippatsu (issue 20; no shared log has such a ron,
// so this constructed game is the test); once the kita passes, the
// ippatsu is gone: the five riichi wins after another player's kita in
// the window in the shared three-player logs have no ippatsu
// (replay.TestKitaEndsIppatsuInLogs replays them).
var kitaHands = [3]string{"123p456p789s111z4z", "11m99m123p456s774z", "9m258p258s123566z"}

func kitaRiichi(t *testing.T) *harness {
	h := sanmaHarness(t, kitaHands, "1s")
	h.draw("9m")
	h.riichi(0, "9m") // seat 0 waits on north (tanki)
	h.pass()
	h.draw("5s")
	h.do(Action{Type: Kita, Seat: 1, Tile: h.held(1, "4z")})
	return h
}

func TestKitaRonScoresIppatsu(t *testing.T) {
	h := kitaRiichi(t)
	h.revealUra()
	h.do(Action{Type: Ron, Seat: 0})
	h.pass()
	res := h.k.Result()
	if res == nil || len(res.Wins) != 1 {
		t.Fatalf("result %+v, want seat 0's ron on the kita", res)
	}
	// The riichi was seat 0's first discard: double riichi (21).
	if ids := yakuIDs(res.Wins[0]); !slices.Contains(ids, 21) || !slices.Contains(ids, 2) {
		t.Errorf("yaku %v, want double riichi (21) and ippatsu (2) on a ron of the kita", ids)
	}
}

func TestKitaPassedEndsIppatsu(t *testing.T) {
	h := kitaRiichi(t)
	h.pass() // seat 0 lets the north go
	h.draw("9p")
	h.discard(1, "9p")
	h.pass()
	h.fillTurn("4z")
	h.draw("4z")
	h.revealUra()
	h.do(Action{Type: TsumoAgari, Seat: 0})
	if ids := yakuIDs(h.k.Result().Wins[0]); slices.Contains(ids, 2) || !slices.Contains(ids, 21) {
		t.Errorf("yaku %v, want riichi without ippatsu after a passed kita", ids)
	}
}

func TestKuikaeLevels(t *testing.T) {
	hands := [4]string{fill0, "3456m258p258s567z", fill2, fill3}
	for _, c := range []struct {
		level            Kuikae
		called, otherEnd bool // may discard 3m, 6m right after chi 3m with 4m5m
	}{
		{KuikaeForbidden, false, false},
		{KuikaeSuji, false, true},
		{KuikaeAllowed, true, true},
	} {
		h := newHarnessRules(t, tenhouWith(func(r *Rules) { r.Kuikae = c.level }), hands, "9s", nil)
		h.draw("3m")
		h.discard(0, "3m")
		h.do(Action{Type: Chi, Seat: 1, Tiles: h.heldN(1, "4m5m")})
		legal := map[string]bool{}
		for _, a := range h.k.LegalActions(1) {
			if a.Type == Discard {
				legal[a.Tile.Kind().String()] = true
			}
		}
		if legal["3m"] != c.called || legal["6m"] != c.otherEnd {
			t.Errorf("kuikae %d: may discard 3m %v 6m %v, want %v %v", c.level, legal["3m"], legal["6m"], c.called, c.otherEnd)
		}
		if c.called {
			h.discard(1, "3m")
		} else {
			h.deny(Action{Type: Discard, Seat: 1, Tile: h.held(1, "3m")}, "kuikae")
		}
	}
}

// The double-ron hands of TestDoubleRon: seats 1 and 3 ron seat 0's 1m
// with 1 honba and 1 riichi stick on the table.
var doubleRonHands = [4]string{fill0, "23m456p456s11z555z", "147m147p147s3467z", "23m678p678s22z666z"}

func TestAtamahane(t *testing.T) {
	h := newHarnessRules(t, tenhouWith(func(r *Rules) { r.Ron = RonAtamahane }), doubleRonHands, "9s", func(d *Deal) { d.Honba, d.Kyotaku = 1, 1 })
	h.draw("1m")
	h.discard(0, "1m")
	h.do(Action{Type: Ron, Seat: 3})
	h.do(Action{Type: Ron, Seat: 1})
	res := h.k.Result()
	// Head bump: only seat 1, the first after the discarder, wins: 1300
	// + 300 honba from seat 0, plus the 1000 stick.
	if res == nil || len(res.Wins) != 1 || res.Wins[0].Seat != 1 || res.Deltas != [4]int{-1600, 2600, 0, 0} {
		t.Fatalf("result %+v, want seat 1 alone paid -1600/+2600", res)
	}
}

var tripleRonHands = [4]string{"369m369p369s4444z", "23m456p456s11z555z", "23m789p789s22z666z", "23m123p123s33z777z"}

func TestTripleRonAndNoSanchahou(t *testing.T) {
	for _, c := range []struct {
		name  string
		edit  func(*Rules)
		seats []Seat
	}{
		{"triple ron", func(r *Rules) { r.Ron = RonTriple }, []Seat{1, 2, 3}},
		{"double ron without sanchahou", func(r *Rules) { r.NoSanchahou = true }, []Seat{1, 2}},
	} {
		h := newHarnessRules(t, tenhouWith(c.edit), tripleRonHands, "9s", nil)
		h.draw("1m")
		h.discard(0, "1m")
		for _, s := range []Seat{1, 2, 3} {
			h.do(Action{Type: Ron, Seat: s})
		}
		res := h.k.Result()
		if res == nil || res.End != EndAgari {
			t.Fatalf("%s: result %+v, want wins", c.name, res)
		}
		var got []Seat
		for _, w := range res.Wins {
			got = append(got, w.Seat)
		}
		if !slices.Equal(got, c.seats) {
			t.Errorf("%s: winners %v, want %v", c.name, got, c.seats)
		}
	}
}

func TestNoKyuushu(t *testing.T) {
	h := newHarnessRules(t, tenhouWith(func(r *Rules) { r.NoKyuushu = true }), [4]string{"19m19p19s1234z234m", fill3b, "147m147p258s5667z", "258m258p369s2344z"}, "9s", nil)
	h.drawWhere(notYaochuu)
	if h.has(0, KyuushuKyuuhai) {
		t.Error("kyuushu kyuuhai offered with the abortive draw off")
	}
	h.deny(Action{Type: KyuushuKyuuhai, Seat: 0}, "no kyuushu")
}

func TestNoSuufon(t *testing.T) {
	h := newHarnessRules(t, tenhouWith(func(r *Rules) { r.NoSuufon = true }), suufonHands, "9s", nil)
	for s := Seat(0); s < 4; s++ {
		h.drawWhere(func(k wall.Kind) bool { return k < 27 })
		h.discard(s, "1z")
		h.pass()
	}
	if res := h.k.Result(); res != nil {
		t.Fatalf("result %+v, want play on without suufon renda", res)
	}
}

func TestNoSuucha(t *testing.T) {
	hands := [4]string{"123m456m789m11z23p", "123s456s789s22z34m", "555z666z777z33z78s", "222m888m444z99p67p"}
	h := newHarnessRules(t, tenhouWith(func(r *Rules) { r.NoSuucha = true }), hands, "9m", nil)
	waits := map[wall.Kind]bool{}
	for _, n := range []string{"1p", "4p", "2m", "5m", "6s", "9s", "5p", "8p"} {
		k, _, _ := wall.ParseTileName(n)
		waits[k] = true
	}
	for s := Seat(0); s < 4; s++ {
		t1 := h.drawWhere(func(k wall.Kind) bool { return !waits[k] })
		h.do(Action{Type: Discard, Seat: s, Tile: t1, Riichi: true})
		h.pass()
	}
	if res := h.k.Result(); res != nil {
		t.Fatalf("result %+v, want play on without suucha riichi", res)
	}
}

func TestNoNagashiAndAgariRenchan(t *testing.T) {
	hands := [4]string{"2346m2346p2346s7m", "2346m2346p2346s7p", "2346m2346p2346s7s", "2346m2346p2346s8m"}
	h := newHarnessRules(t, tenhouWith(func(r *Rules) { r.NoNagashi, r.RenchanAgari = true, true }), hands, "8p", nil)
	for i := 0; i < 70 && h.k.Result() == nil; i++ {
		seat := h.k.Turn()
		var tl wall.Tile
		if seat == 0 {
			tl = h.drawWhere(isYaochuu)
		} else if h.freeWhere(notYaochuu) {
			tl = h.drawWhere(notYaochuu)
		} else {
			tl = h.drawWhere(func(wall.Kind) bool { return true })
		}
		h.do(Action{Type: Discard, Seat: seat, Tile: tl})
		h.pass()
	}
	res := h.k.Result()
	if res == nil || res.End != EndExhaustive || res.Nagashi != [4]bool{} {
		t.Fatalf("result %+v, want an exhaustive draw without nagashi mangan", res)
	}
	// Tenpai payments instead: 3000 from the noten players to the tenpai.
	sum, paid := 0, false
	for s, d := range res.Deltas {
		sum += d
		paid = paid || d != 0
		if res.Tenpai[s] != (d > 0) && paid && d != 0 {
			t.Errorf("seat %d tenpai %v delta %d", s, res.Tenpai[s], d)
		}
	}
	if sum != 0 {
		t.Errorf("deltas %v do not sum to 0", res.Deltas)
	}
	if res.Renchan {
		t.Errorf("renchan with renchan=agari at an exhaustive draw (dealer tenpai %v)", res.Tenpai[0])
	}
}

func TestRiichiNoDraw(t *testing.T) {
	for _, allow := range []bool{false, true} {
		h := newHarnessRules(t, tenhouWith(func(r *Rules) { r.RiichiNoDraw = allow }), ippatsuHands, "9p", nil)
		// Seat 0 (tenpai on 1z/2z) draws at 70, 66, ..., 6, 2 tiles left.
		for h.k.LiveLeft() > 3 || h.k.Turn() != 0 {
			h.fillTurn("")
		}
		t0 := h.drawWhere(func(k wall.Kind) bool { return k != 27 && k != 28 })
		err := h.k.Apply(Action{Type: Discard, Seat: 0, Tile: t0, Riichi: true})
		if (err == nil) != allow {
			t.Errorf("riichi-no-draw %v: riichi with %d left: %v", allow, h.k.LiveLeft(), err)
		}
	}
}

func TestNoPao(t *testing.T) {
	h := paoSetupRules(t, tenhouWith(func(r *Rules) { r.NoPao = true }))
	h.fillTurn("4p")
	h.fillTurn("4p")
	h.fillTurn("4p")
	h.draw("4p")
	h.do(Action{Type: TsumoAgari, Seat: 1})
	res := h.k.Result()
	// A non-dealer yakuman tsumo without liability: 16000 from the dealer,
	// 8000 from each other.
	if res == nil || res.Wins[0].Pao != NoSeat || res.Deltas != [4]int{-16000, 32000, -8000, -8000} {
		t.Fatalf("result %+v, want an ordinary yakuman tsumo", res)
	}
}

func TestHouseMatchFlow(t *testing.T) {
	even := [4]int{25000, 25000, 25000, 25000}
	for _, c := range []struct {
		name  string
		edit  func(*Rules)
		round int
		oya   Seat
		res   *Result
		over  bool
		next  int
	}{
		{"no tobi: play on below 0", func(r *Rules) { r.NoTobi = true }, 2, 2, win(false, [4]int{-100, 40000, 35100, 25000}), false, 3},
		{"tobi at 1000: 900 busts", func(r *Rules) { r.TobiBelow = 1000 }, 2, 2, win(false, [4]int{900, 40000, 34100, 25000}), true, 3},
		{"tobi at 1000: 1000 plays on", func(r *Rules) { r.TobiBelow = 1000 }, 2, 2, win(false, [4]int{1000, 40000, 34000, 25000}), false, 3},
		{"no agari-yame: dealer first plays on", func(r *Rules) { r.NoAgariYame = true }, 7, 3, win(true, [4]int{20000, 20000, 20000, 40000}), false, 7},
		{"no tenpai-yame: tenpai dealer first plays on", func(r *Rules) { r.NoTenpaiYame = true }, 7, 3, &Result{End: EndExhaustive, Renchan: true, Scores: [4]int{20000, 20000, 20000, 40000}}, false, 7},
		{"no tenpai-yame keeps agari-yame", func(r *Rules) { r.NoTenpaiYame = true }, 7, 3, win(true, [4]int{20000, 20000, 20000, 40000}), true, 7},
		{"no west: all-last ends below the return", func(r *Rules) { r.NoWest = true }, 7, 3, win(false, [4]int{29900, 20100, 25000, 25000}), true, 8},
		{"west target 35000: 30000 is not enough", func(r *Rules) { r.WestTarget = 35000 }, 7, 3, win(false, [4]int{30000, 20000, 25000, 25000}), false, 8},
		{"west target 35000 reached", func(r *Rules) { r.WestTarget = 35000 }, 8, 0, win(false, [4]int{35000, 15000, 25000, 25000}), true, 9},
	} {
		m := NewMatch(tenhouWith(c.edit))
		m.Resync(Deal{Round: c.round, Oya: c.oya, Scores: even})
		if err := m.End(c.res); err != nil {
			t.Fatal(err)
		}
		d, _ := m.Next()
		if m.Over() != c.over || d.Round != c.next {
			t.Errorf("%s: over %v next %s, want over %v next %s", c.name, m.Over(), RoundName(d.Round), c.over, RoundName(c.next))
		}
	}
}

// Four kans by two players with the abortive draw off: play goes on, and
// no fifth kan is offered. Without kan dora (and kan ura) the indicators
// stay one; without ura dora there is no ura indicator to reveal.
func TestNoSuukaikanNoKanDora(t *testing.T) {
	hands := [4]string{"1111m2222m5p5s567z", "3333m4444m6p6s123z", "789p789s114455z9m", "123p123s667z99m88p"}
	r := tenhouWith(func(r *Rules) {
		r.NoSuukaikan = true
		r.Hand.NoKanDora, r.Hand.NoUra = true, true
	})
	h := newHarnessRules(t, r, hands, "9s", nil)
	noLowM := func(k wall.Kind) bool { return k > 3 && k < 27 }
	h.drawWhere(noLowM)
	h.do(Action{Type: Ankan, Seat: 0, Tiles: h.heldN(0, "1m1m1m1m")})
	h.drawWhere(noLowM)
	h.do(Action{Type: Ankan, Seat: 0, Tiles: h.heldN(0, "2m2m2m2m")})
	h.drawWhere(noLowM)
	h.discard(0, "5p")
	h.pass()
	h.drawWhere(noLowM)
	h.do(Action{Type: Ankan, Seat: 1, Tiles: h.heldN(1, "3m3m3m3m")})
	h.drawWhere(noLowM)
	h.do(Action{Type: Ankan, Seat: 1, Tiles: h.heldN(1, "4m4m4m4m")})
	h.drawWhere(noLowM)
	if h.has(1, Ankan) || h.has(1, Kakan) {
		t.Error("a fifth kan is offered")
	}
	h.discard(1, "6p")
	h.pass()
	if res := h.k.Result(); res != nil {
		t.Fatalf("result %+v, want play on without suukaikan", res)
	}
	dora, ura := h.k.DoraPositions()
	if len(h.k.DoraIndicators()) != 1 || len(dora) != 1 || len(ura) != 0 || h.k.DoraPending() != 0 {
		t.Errorf("after four kans: indicators %v, positions %v ura %v pending %d; want one dora indicator and no ura", h.k.DoraIndicators(), dora, ura, h.k.DoraPending())
	}
}

// A honba of 1500 (some house rules) on a double ron's first winner:
// 1300 + 1500 and the riichi stick; the second winner gets no honba.
func TestHonbaValue(t *testing.T) {
	h := newHarnessRules(t, tenhouWith(func(r *Rules) { r.Hand.Honba = 1500 }), doubleRonHands, "9s", func(d *Deal) { d.Honba, d.Kyotaku = 1, 1 })
	h.draw("1m")
	h.discard(0, "1m")
	h.do(Action{Type: Ron, Seat: 3})
	h.do(Action{Type: Ron, Seat: 1})
	res := h.k.Result()
	if res == nil || res.Wins[0].Deltas != [4]int{-2800, 3800, 0, 0} || res.Wins[1].Deltas != [4]int{-1300, 0, 0, 1300} {
		t.Fatalf("result %+v, want [-2800 3800 0 0] then [-1300 0 0 1300]", res)
	}
}

// Final points with other returns and uma (riichi.wiki: M.League rank
// points +50/+10/-10/-30 with a 25000 start and 30000 return; WRC: 30000
// start and return, uma +15/+5/-5/-15, session score (points-30000)/1000 +
// uma).
func TestHouseStandings(t *testing.T) {
	for _, c := range []struct {
		name       string
		start, ret int
		uma        [4]int
		scores     [4]int
		points     [4]int // tenths
	}{
		{"M.League", 25000, 30000, [4]int{30, 10, -10, -30}, [4]int{40000, 30000, 20000, 10000}, [4]int{600, 100, -200, -500}},
		{"WRC", 30000, 30000, [4]int{15, 5, -5, -15}, [4]int{15000, 45000, 35000, 25000}, [4]int{-300, 300, 100, -100}},
	} {
		m := NewMatch(tenhouWith(func(r *Rules) { r.Start, r.Return, r.Uma = c.start, c.ret, c.uma }))
		m.Resync(Deal{Round: 7, Oya: 3, Scores: c.scores})
		if st := m.Standings(); st.Points != c.points {
			t.Errorf("%s: points %v, want %v", c.name, st.Points, c.points)
		}
	}
}
