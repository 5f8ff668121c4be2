package main

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// dealtKyoku deals seat 0 (the dealer) the hand in notation and gives it
// its first tsumo; the other seats' tiles stay hidden.
func dealtKyoku(t *testing.T, hand string, tsumo string) *game.Kyoku {
	t.Helper()
	tiles, err := riichi.ParseHand(hand + tsumo)
	if err != nil {
		t.Fatal(err)
	}
	var haipai [4][]wall.Tile
	for s := range haipai {
		for range 13 {
			haipai[s] = append(haipai[s], game.Unknown)
		}
	}
	haipai[0] = tiles[:13]
	k, err := game.NewKyoku(game.TenhouRules(true, true, true), game.Deal{Scores: [4]int{25000, 25000, 25000, 25000}, Haipai: haipai, DoraIndicator: 132})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.Draw(tiles[13]); err != nil {
		t.Fatal(err)
	}
	return k
}

func TestTerminalPlayer(t *testing.T) {
	cases := []struct {
		input string
		check func(game.Action) bool
		want  string
	}{
		{"\n", func(a game.Action) bool { return a.Type == game.Discard && a.Tile.Kind().String() == "9s" }, "Enter discards the drawn tile"},
		{"1z\n", func(a game.Action) bool { return a.Type == game.Discard && a.Tile.Kind().String() == "1z" }, "a tile name discards it"},
		{"x\n7z\n2z\n", func(a game.Action) bool { return a.Type == game.Discard && a.Tile.Kind().String() == "2z" }, "bad input is asked again"},
	}
	for _, c := range cases {
		var out bytes.Buffer
		p := &terminalPlayer{in: strings.NewReader(c.input), out: &out}
		k := dealtKyoku(t, "123m456p789s1z2z33s", "9s")
		a, err := p.Act(context.Background(), k, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.want, err)
		}
		if !c.check(a) {
			t.Errorf("%s: got %s", c.want, a)
		}
		if !strings.Contains(out.String(), "your hand: ") {
			t.Errorf("%s: the hand was not shown:\n%s", c.want, out.String())
		}
	}
	// A number picks that line of the listed actions.
	var out bytes.Buffer
	k := dealtKyoku(t, "123m456p789s1z2z33s", "9s")
	p := &terminalPlayer{in: strings.NewReader("2\n"), out: &out}
	a, err := p.Act(context.Background(), k, 0)
	if err != nil {
		t.Fatal(err)
	}
	if legal := k.LegalActions(0); len(legal) < 2 || !isSame(a, legal[1]) {
		t.Errorf("number 2 chose %s, want the second legal action", a)
	}
	// Every number shows a different action: the two 3s discards of
	// 123m456p789s1z2z33s+9s are one line.
	seen := map[string]bool{}
	for n := 1; n <= 12; n++ {
		p := &terminalPlayer{in: strings.NewReader(strconv.Itoa(n) + "\n"), out: &out}
		a, err := p.Act(context.Background(), dealtKyoku(t, "123m456p789s1z2z33s", "9s"), 0)
		if err != nil {
			t.Fatal(err)
		}
		if seen[a.String()] {
			t.Errorf("number %d repeats %s", n, a)
		}
		seen[a.String()] = true
	}
	if !strings.Contains(out.String(), "(drew 9s)") {
		t.Error("the drawn tile is not shown")
	}
	// End of input is an error, not a hang.
	p = &terminalPlayer{in: strings.NewReader(""), out: &out}
	if _, err := p.Act(context.Background(), dealtKyoku(t, "123m456p789s1z2z33s", "9s"), 0); err == nil {
		t.Error("end of input was accepted")
	}
}

func isSame(a, b game.Action) bool {
	return a.Type == b.Type && a.Tile == b.Tile && a.Riichi == b.Riichi
}
