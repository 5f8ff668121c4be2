package terminal

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/ui/screen"
	"github.com/mentalmj/mentalmj/wall"
)

// turnFor starts a kyoku in which the dealer (seat 0) holds hand and has
// drawn drawn, and returns the snapshot and decision a player sees.
func turnFor(t *testing.T, hand, drawn string) (screen.Snapshot, screen.Decision) {
	t.Helper()
	own, err := riichi.ParseHand(hand)
	if err != nil {
		t.Fatal(err)
	}
	used := map[wall.Tile]bool{}
	for _, x := range own {
		used[x] = true
	}
	dt, err := riichi.ParseHand(drawn)
	if err != nil {
		t.Fatal(err)
	}
	used[dt[0]] = true
	var deal game.Deal
	deal.Scores = [4]int{25000, 25000, 25000, 25000}
	deal.Haipai[0] = own
	next := wall.Tile(0)
	take := func() wall.Tile {
		for used[next] {
			next++
		}
		used[next] = true
		return next
	}
	for s := 1; s < 4; s++ {
		for range 13 {
			deal.Haipai[s] = append(deal.Haipai[s], take())
		}
	}
	deal.DoraIndicator = take()
	k, err := game.NewKyoku(game.TenhouRules(true, true, true), deal)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.Draw(dt[0]); err != nil {
		t.Fatal(err)
	}
	m := screen.NewModel(nil)
	m.Observe(protocol.Observation{Hand: 1, Stage: "play", Seat: 0, View: k})
	def, _ := protocol.Tsumogiri{}.Act(context.Background(), k.Clone(), 0)
	d := m.Decide(k, 0, time.Time{}, def)
	return m.Snapshot(), d
}

// TestParseRefusesWithReasons checks each kind of input against the legal
// actions of a known position, and that a refused input names why.
func TestParseRefusesWithReasons(t *testing.T) {
	// 123m 456p 789s 56m 11z, drew 2z: discarding 2z is tenpai (waits
	// 4m 7m), discarding 1m is not.
	s, d := turnFor(t, "123m456p789s56m11z", "2z")
	label := func(i int) string { return d.Options[i].Label }
	cases := []struct {
		in, want, reason string
	}{
		{"", label(d.Default), ""},
		{"9s", "discard 9s", ""},
		{"14", "discard South", ""}, // a fresh deal: the drawn tile is 14
		{"0", "discard South", ""},  // and 0 is the drawn tile always
		{"1", "discard 1m", ""},
		{"riichi 2z", "discard South riichi", ""},
		{"i 2z", "discard South riichi", ""},
		{"riichi south", "discard South riichi", ""},
		{"南", "discard South", ""},
		{"r 2z", "", "r is ron (as on the browser table)"},
		{"r", "", "ron is not possible now"},
		{"x", "", "pass is not possible now"},
		{"6z", "", "6z is not in your hand"},
		{"15", "", "there is no tile 15 in your hand (1..14, or 0 for the drawn tile)"},
		{"riichi 1m", "", "riichi needs a tenpai hand after the discard"},
		{"pon", "", "pon is not possible now"},
		{"xyzzy", "", `unknown command "xyzzy"`},
		{"riichi", "", "say which tile"},
	}
	for _, c := range cases {
		i, why := Parse(c.in, s, d)
		switch {
		case c.reason != "" && !strings.Contains(why, c.reason):
			t.Errorf("Parse(%q) reason %q, want one containing %q", c.in, why, c.reason)
		case c.reason == "" && why != "":
			t.Errorf("Parse(%q) refused: %s", c.in, why)
		case c.reason == "" && i < 0 && c.in != "":
			t.Errorf("Parse(%q) = default, want %s", c.in, c.want)
		case c.reason == "" && i >= 0 && d.Options[i].Label != c.want:
			t.Errorf("Parse(%q) = %s, want %s", c.in, d.Options[i].Label, c.want)
		}
	}
}

// TestRiichiRefusalNamesTheFailedCondition: a refused riichi names the
// one condition that fails, each case made by changing one thing of a
// turn where riichi is otherwise possible.
func TestRiichiRefusalNamesTheFailedCondition(t *testing.T) {
	base, d := turnFor(t, "123m456p789s56m11z", "2z")
	cases := []struct {
		name   string
		change func(s *screen.Snapshot, d *screen.Decision)
		want   string
	}{
		{"not its turn", func(s *screen.Snapshot, d *screen.Decision) {
			d.Options = []screen.Option{{Kind: "pass"}, {Kind: "pon"}}
		}, "on your turn"},
		{"in riichi", func(s *screen.Snapshot, d *screen.Decision) { s.Seats[s.Self].Riichi = true }, "already in riichi"},
		{"open hand", func(s *screen.Snapshot, d *screen.Decision) {
			s.Seats[s.Self].Melds = []screen.Meld{{Type: "pon"}}
		}, "closed hand"},
		{"ankan keeps it closed", func(s *screen.Snapshot, d *screen.Decision) {
			s.Seats[s.Self].Melds = []screen.Meld{{Type: "ankan"}}
		}, "tenpai after the discard"},
		{"900 points", func(s *screen.Snapshot, d *screen.Decision) { s.Seats[s.Self].Score = 900 }, "you have 900"},
		{"3 tiles left", func(s *screen.Snapshot, d *screen.Decision) { s.TilesLeft = 3 }, "3 left"},
		{"noten", func(s *screen.Snapshot, d *screen.Decision) {}, "tenpai after the discard"},
	}
	for _, c := range cases {
		s, dd := base, d
		s.Seats = base.Seats // an array: a copy
		s.Seats[s.Self].Score = 25000
		s.TilesLeft = 60
		dd.Options = []screen.Option{{Kind: "discard"}}
		c.change(&s, &dd)
		if got := riichiRefusal(s, dd, nil); !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want one saying %q", c.name, got, c.want)
		}
	}
}
