package verdict

import (
	"fmt"
	"strings"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// DescribeResult says in one line how a kyoku ended ("bob (South, seat
// 1) wins by ron from …: 3 han 40 fu, 5200 points (…)", "exhaustive
// draw, tenpai: …", "abortive draw (yao9)"), naming seats with name; "no
// result" for nil.
func DescribeResult(r *game.Result, name func(game.Seat) string) string {
	if r == nil {
		return "no result"
	}
	switch r.End {
	case game.EndAgari:
		var parts []string
		for _, w := range r.Wins {
			how := "ron from " + name(w.From)
			if w.Tsumo {
				how = "tsumo"
			}
			parts = append(parts, fmt.Sprintf("%s wins by %s: %d han %d fu, %d points (%s)", name(w.Seat), how, w.Value.Han, w.Value.Fu, w.Value.Points, strings.Join(YakuList(w.Value), ", ")))
		}
		return strings.Join(parts, "; ")
	case game.EndExhaustive:
		var tenpai []string
		for s, t := range r.Tenpai {
			if t {
				tenpai = append(tenpai, name(game.Seat(s)))
			}
		}
		for s, n := range r.Nagashi {
			if n {
				return "exhaustive draw, nagashi mangan by " + name(game.Seat(s))
			}
		}
		if len(tenpai) == 0 {
			return "exhaustive draw, all noten"
		}
		return "exhaustive draw, tenpai: " + strings.Join(tenpai, ", ")
	case game.EndAbortive:
		return "abortive draw (" + r.Abort.TenhouCode() + ")"
	}
	return "?"
}

// YakuList returns a win's yaku as "name han" strings (yaku worth 0 han,
// such as ura dora that missed, left out) and its yakuman by name.
func YakuList(v riichi.WinResult) []string {
	var out []string
	for _, y := range v.Yaku {
		if y.Han > 0 {
			out = append(out, fmt.Sprintf("%s %d", riichi.YakuName(y.ID), y.Han))
		}
	}
	for _, id := range v.Yakuman {
		out = append(out, riichi.YakuName(id))
	}
	return out
}

// FormatStandings writes the final standings, first place first, one line
// each: "1. alice (seat 0) 41200 points (+51.2)" (points in Tenhou's
// uma-adjusted score, tenths printed as decimals).
func FormatStandings(st game.Standings, name func(game.Seat) string) string {
	return FormatStandingsOf(st, 4, name)
}

// FormatStandingsOf is FormatStandings for a game of players players (3
// in sanma, whose empty seat 3 is left out; 4 otherwise).
func FormatStandingsOf(st game.Standings, players int, name func(game.Seat) string) string {
	if players < 1 || players > len(st.Order) {
		players = len(st.Order)
	}
	var b strings.Builder
	for rank, s := range st.Order[:players] {
		fmt.Fprintf(&b, "%d. %s %d points (%+.1f)\n", rank+1, name(s), st.Scores[s], float64(st.Points[s])/10)
	}
	return b.String()
}
