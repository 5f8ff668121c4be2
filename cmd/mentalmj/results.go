package main

import (
	"fmt"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// describeResult says in one line how a kyoku ended, naming seats with
// name.
func describeResult(r *game.Result, name func(game.Seat) string) string {
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
			var yaku []string
			for _, y := range w.Value.Yaku {
				if y.Han > 0 {
					yaku = append(yaku, fmt.Sprintf("%s %d", riichi.YakuName(y.ID), y.Han))
				}
			}
			for _, id := range w.Value.Yakuman {
				yaku = append(yaku, riichi.YakuName(id))
			}
			parts = append(parts, fmt.Sprintf("%s wins by %s: %d han %d fu, %d points (%s)", name(w.Seat), how, w.Value.Han, w.Value.Fu, w.Value.Points, strings.Join(yaku, ", ")))
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

// seatNamer names seats by their nickname, or by the end of their peer ID
// when they announced none.
func seatNamer(seats []peer.ID, nick func(peer.ID) string) func(game.Seat) string {
	return func(s game.Seat) string {
		if int(s) < 0 || int(s) >= len(seats) {
			return fmt.Sprintf("seat %d", s)
		}
		if n := nick(seats[s]); n != "" {
			return n
		}
		id := seats[s].String()
		if len(id) > 12 {
			return "…" + id[len(id)-8:]
		}
		return id
	}
}

// formatStandings writes the final standings, first place first.
func formatStandings(st game.Standings, name func(game.Seat) string) string {
	var b strings.Builder
	for rank, s := range st.Order {
		fmt.Fprintf(&b, "%d. %s %d points (%+.1f)\n", rank+1, name(s), st.Scores[s], float64(st.Points[s])/10)
	}
	return b.String()
}
