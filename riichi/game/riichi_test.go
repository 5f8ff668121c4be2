package game

import (
	"github.com/mentalmj/mentalmj/wall"
	"strings"
	"testing"
)

const fill3b = "369m369p369s5566z"

func TestRiichiConditions(t *testing.T) {
	hands := [4]string{"123m456p789s1122z", "3456m258p258s567z", fill2, fill3b}
	h := newHarness(t, hands, "9p", nil)
	h.draw("3z")
	h.deny(Action{Type: Discard, Seat: 0, Tile: h.held(0, "1z"), Riichi: true}, "not tenpai")
	var riichiDiscards []string
	for _, a := range h.k.LegalActions(0) {
		if a.Type == Discard && a.Riichi {
			riichiDiscards = append(riichiDiscards, a.Tile.String())
		}
	}
	if strings.Join(riichiDiscards, ",") != "3z" {
		t.Errorf("riichi discards offered: %v, want only 3z", riichiDiscards)
	}
	h.riichi(0, "3z")
	h.pass()
	if !h.k.Riichi(0) || h.k.Scores()[0] != 24000 || h.k.Kyotaku() != 1 {
		t.Fatalf("after the riichi discard passed: riichi %v, score %d, kyotaku %d; want true, 24000, 1", h.k.Riichi(0), h.k.Scores()[0], h.k.Kyotaku())
	}
	for range 3 {
		h.fillTurn("1z2z")
	}
	h.draw("9m")
	h.deny(Action{Type: Discard, Seat: 0, Tile: h.held(0, "1m")}, "only the drawn tile")
	h.deny(Action{Type: Discard, Seat: 0, Tile: h.held(0, "9m"), Riichi: true}, "already in riichi")
	h.discard(0, "9m")
}

func TestRiichiNeeds1000Points(t *testing.T) {
	hands := [4]string{"123m456p789s1122z", "3456m258p258s567z", fill2, fill3b}
	h := newHarness(t, hands, "9p", func(d *Deal) { d.Scores[0] = 900 })
	h.draw("3z")
	h.deny(Action{Type: Discard, Seat: 0, Tile: h.held(0, "3z"), Riichi: true}, "needs 1000 points")
}

func TestRiichiClosedHandOnly(t *testing.T) {
	// Seat 1 chis and is tenpai, but the hand is open.
	hands := [4]string{fill0, "45m456p789s11z22z1s", fill2, fill3b}
	h := newHarness(t, hands, "9p", nil)
	h.draw("3m")
	h.discard(0, "3m")
	h.do(Action{Type: Chi, Seat: 1, Tiles: h.heldN(1, "4m5m")})
	h.deny(Action{Type: Discard, Seat: 1, Tile: h.held(1, "1s"), Riichi: true}, "closed hand")
	h.discard(1, "1s")
	h.pass()
	h.fillTurn("1z2z")
	h.fillTurn("1z2z")
	h.fillTurn("1z2z")
	h.draw("9m")
	h.deny(Action{Type: Discard, Seat: 1, Tile: h.held(1, "9m"), Riichi: true}, "closed hand")
}

func TestRiichiNeedsFourTilesLeft(t *testing.T) {
	hands := [4]string{fill3b, "123m456p789s1122z", "456m123p456s3344z", "789m789p123s5677z"}
	h := newHarness(t, hands, "1p", nil)
	for range 65 {
		h.fillTurn("")
	}
	if s := h.k.Turn(); s != 1 {
		t.Fatalf("turn %d, want 1", s)
	}
	t1 := h.drawWhere(func(k wall.Kind) bool { return k < 27 })
	if h.k.LiveLeft() != 4 {
		t.Fatalf("live wall %d, want 4", h.k.LiveLeft())
	}
	h.do(Action{Type: Discard, Seat: 1, Tile: t1, Riichi: true})
	h.pass()
	t2 := h.drawWhere(func(k wall.Kind) bool { return k < 27 })
	if h.k.LiveLeft() != 3 {
		t.Fatalf("live wall %d, want 3", h.k.LiveLeft())
	}
	h.deny(Action{Type: Discard, Seat: 2, Tile: t2, Riichi: true}, "4 tiles left")
}
