package game

import (
	"testing"

	"github.com/mentalmj/mentalmj/wall"
)

func TestKyuushuKyuuhai(t *testing.T) {
	h := newHarness(t, [4]string{"19m19p19s1234z234m", fill3b, "147m147p258s5667z", "258m258p369s2344z"}, "9s", nil)
	h.drawWhere(notYaochuu)
	if !h.has(0, KyuushuKyuuhai) {
		t.Fatalf("ten kinds of terminals and honours: kyuushu kyuuhai not offered: %v", h.k.LegalActions(0))
	}
	h.do(Action{Type: KyuushuKyuuhai, Seat: 0})
	res := h.k.Result()
	if res == nil || res.End != EndAbortive || res.Abort != AbortKyuushu || !res.Renchan {
		t.Fatalf("result %+v, want kyuushu kyuuhai (yao9) with renchan", res)
	}
	if res.Abort.TenhouCode() != "yao9" {
		t.Errorf("code %q, want yao9", res.Abort.TenhouCode())
	}
}

func TestKyuushuKyuuhaiRefused(t *testing.T) {
	// Seat 0 has ten kinds but declares only later; seat 1 has eight.
	h := newHarness(t, [4]string{"19m19p19s1234z234m", "19m19p19s12z23466m", "147m147p258s5667z", "258m258p369s2344z"}, "9s", nil)
	h.drawWhere(notYaochuu)
	h.discard(0, "2m")
	h.pass()
	h.drawWhere(notYaochuu)
	h.deny(Action{Type: KyuushuKyuuhai, Seat: 1}, "only 8 kinds")
	h.discard(1, "6m")
	h.pass()
	h.fillTurn("")
	h.fillTurn("")
	h.drawWhere(notYaochuu)
	h.deny(Action{Type: KyuushuKyuuhai, Seat: 0}, "first draw")
}

var suufonHands = [4]string{"1z258m258p258s567z", "1z369m369p369s567z", "1z147m147p147s234z", "1z258m258p258s234z"}

func TestSuufonRenda(t *testing.T) {
	h := newHarness(t, suufonHands, "9s", nil)
	for s := Seat(0); s < 4; s++ {
		h.drawWhere(func(k wall.Kind) bool { return k < 27 })
		h.discard(s, "1z")
		h.pass()
	}
	res := h.k.Result()
	if res == nil || res.Abort != AbortSuufon || !res.Renchan {
		t.Fatalf("result %+v, want suufon renda (kaze4)", res)
	}
}

func TestSuufonRendaNeedsFourOfOneWind(t *testing.T) {
	h := newHarness(t, suufonHands, "9s", nil)
	for s := Seat(0); s < 4; s++ {
		h.drawWhere(func(k wall.Kind) bool { return k < 27 })
		if s == 3 {
			h.discard(s, "2z")
		} else {
			h.discard(s, "1z")
		}
		h.pass()
	}
	if res := h.k.Result(); res != nil {
		t.Fatalf("result %+v after three East and one South, want play on", res)
	}
}

func TestSuuchaRiichi(t *testing.T) {
	hands := [4]string{"123m456m789m11z23p", "123s456s789s22z34m", "555z666z777z33z78s", "222m888m444z99p67p"}
	h := newHarness(t, hands, "9m", nil)
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
	res := h.k.Result()
	if res == nil || res.Abort != AbortSuucha {
		t.Fatalf("result %+v, want suucha riichi (reach4)", res)
	}
	if res.Kyotaku != 4 || res.Scores != [4]int{24000, 24000, 24000, 24000} {
		t.Errorf("kyotaku %d scores %v, want the 4 deposits taken", res.Kyotaku, res.Scores)
	}
}

func TestExhaustiveDrawTenpaiPayments(t *testing.T) {
	// Seat 1 is tenpai (1z/2z); seat 2 waits only on the fifth 1m
	// (1111m234p567s999p), which Tenhou does not count as tenpai.
	hands := [4]string{"258m258p258s1357z", "234m456p789s1122z", "1111m234p567s999p", "369m369p369s4466z"}
	h := newHarness(t, hands, "9m", nil)
	for i := 0; i < 70 && h.k.Result() == nil; i++ {
		h.fillTurn("")
	}
	res := h.k.Result()
	if res == nil || res.End != EndExhaustive {
		t.Fatalf("result %+v, want the exhaustive draw", res)
	}
	if live, _ := h.k.Draws(); live != 70 || h.k.LiveLeft() != 0 {
		t.Errorf("live draws %d, left %d; want 70, 0", live, h.k.LiveLeft())
	}
	if res.Tenpai != [4]bool{false, true, false, false} {
		t.Errorf("tenpai %v, want only seat 1", res.Tenpai)
	}
	if res.Deltas != [4]int{-1000, 3000, -1000, -1000} || res.Renchan {
		t.Errorf("deltas %v renchan %v, want [-1000 3000 -1000 -1000] false", res.Deltas, res.Renchan)
	}
}

func TestNagashiMangan(t *testing.T) {
	hands := [4]string{"2346m2346p2346s7m", "2346m2346p2346s7p", "2346m2346p2346s7s", "2346m2346p2346s8m"}
	h := newHarness(t, hands, "8p", nil)
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
	if res == nil || res.End != EndExhaustive || res.Nagashi != [4]bool{true, false, false, false} {
		t.Fatalf("result %+v, want nagashi mangan for seat 0", res)
	}
	// The dealer's nagashi is paid as a dealer mangan tsumo (4000 all),
	// instead of any tenpai payment.
	if res.Deltas != [4]int{12000, -4000, -4000, -4000} {
		t.Errorf("deltas %v, want [12000 -4000 -4000 -4000]", res.Deltas)
	}
}

func (h *harness) freeWhere(ok func(wall.Kind) bool) bool {
	for id := wall.Tile(0); id < wall.NumTiles; id++ {
		if !h.used[id] && !id.IsRed() && ok(id.Kind()) {
			return true
		}
	}
	return false
}
