package terminal

import (
	"fmt"
	"io"
	"strings"

	"github.com/mentalmj/mentalmj/ui/screen"
)

// writeTable draws the table: the round line, the four seats from the
// player's own (rivers in rows of six: ' marks tsumogiri, * the riichi
// discard, parentheses a tile another player called), and the player's
// hand with the numbers that discard each tile.
func writeTable(w io.Writer, s screen.Snapshot) {
	var dora []string
	for _, t := range s.Dora {
		dora = append(dora, s.TileName(t))
	}
	fmt.Fprintf(w, "\n== %s, %d honba, %d riichi stick(s) on the table, %d tiles left, dora indicator %s ==\n",
		s.Round, s.Honba, s.Kyotaku, s.TilesLeft, strings.Join(dora, " "))
	n := s.Players
	if n == 0 {
		n = 4
	}
	for rel := range n {
		q := rel
		if s.Self >= 0 && s.Self < n {
			q = (s.Self + rel) % n
		}
		sv := s.Seats[q]
		var marks []string
		if sv.Self {
			marks = append(marks, "you")
		}
		if sv.Dealer {
			marks = append(marks, "dealer")
		}
		if sv.Riichi {
			marks = append(marks, "RIICHI")
		}
		if q == s.Turn {
			marks = append(marks, "to act")
		}
		mark := ""
		if len(marks) > 0 {
			mark = " [" + strings.Join(marks, ", ") + "]"
		}
		fmt.Fprintf(w, "%-5s %s %d%s\n", sv.Wind, sv.Name, sv.Score, mark)
		var river []string
		for i, r := range sv.River {
			if i > 0 && i%6 == 0 {
				river = append(river, "|")
			}
			t := s.TileName(r.Tile)
			if r.Tsumogiri {
				t += "'"
			}
			if r.Riichi {
				t += "*"
			}
			if r.Called {
				t = "(" + t + ")"
			}
			river = append(river, t)
		}
		if len(river) > 0 {
			fmt.Fprintf(w, "      river: %s\n", strings.Join(river, " "))
		}
		if len(sv.Melds) > 0 {
			var ms []string
			for _, m := range sv.Melds {
				ms = append(ms, meldText(m, s, q))
			}
			fmt.Fprintf(w, "      melds: %s\n", strings.Join(ms, "  "))
		}
	}
	fmt.Fprintf(w, "your hand: %s\n", handText(s))
	if len(s.Waits) > 0 {
		var ws []string
		for _, k := range s.Waits {
			ws = append(ws, screen.KindName(k))
		}
		f := ""
		if s.Furiten {
			f = " (FURITEN: a wait is in your river)"
		}
		fmt.Fprintf(w, "tenpai, waiting on %s%s\n", strings.Join(ws, " "), f)
	}
}

// meldText writes a meld as "pon 5z<West" (the called tile and whom it
// came from).
func meldText(m screen.Meld, s screen.Snapshot, owner int) string {
	var ts []string
	for _, t := range m.Tiles {
		ts = append(ts, s.TileName(t))
	}
	if m.Type == "ankan" {
		return "ankan " + strings.Join(ts, "")
	}
	from := s.Seats[(owner+m.From)%4].Wind
	return fmt.Sprintf("%s %s (%s from %s)", m.Type, strings.Join(ts, ""), s.TileName(m.Called), from)
}

// handOrder is the displayed hand: sorted, the drawn tile last.
func handOrder(s screen.Snapshot) []int {
	h := append([]int(nil), s.MyHand...)
	if s.Drawn >= 0 {
		h = append(h, s.Drawn)
	}
	return h
}

func handText(s screen.Snapshot) string {
	var b strings.Builder
	for i, t := range handOrder(s) {
		if t == s.Drawn && i == len(s.MyHand) {
			b.WriteString(" + drew ")
		}
		fmt.Fprintf(&b, "%d:%s ", i+1, s.TileName(t))
	}
	return strings.TrimSpace(b.String())
}

// writeSummary writes an end-of-hand summary, tiles named as the table s
// plays them (s.TileName: red fives by the table's rules).
func writeSummary(w io.Writer, s screen.Snapshot, h screen.HandSummary) {
	fmt.Fprintf(w, "\n== end of hand %d (%s, %d honba): %s ==\n", h.Number, h.Round, h.Honba, h.Text)
	for _, win := range h.Wins {
		var hand []string
		for _, t := range win.Hand {
			hand = append(hand, s.TileName(t))
		}
		var yaku []string
		for _, y := range win.Yaku {
			yaku = append(yaku, fmt.Sprintf("%s %d", y.Name, y.Han))
		}
		var ura []string
		for _, t := range win.Ura {
			ura = append(ura, s.TileName(t))
		}
		fmt.Fprintf(w, "  %s: %s, winning tile %s; %s; %d han %d fu %s %d points", win.Name, strings.Join(hand, " "), s.TileName(win.WinTile), strings.Join(yaku, ", "), win.Han, win.Fu, win.Limit, win.Points)
		if len(ura) > 0 {
			fmt.Fprintf(w, "; ura indicators %s", strings.Join(ura, " "))
		}
		fmt.Fprintln(w)
	}
	for _, t := range h.Tenpai {
		var hand []string
		for _, x := range t.Hand {
			hand = append(hand, s.TileName(x))
		}
		fmt.Fprintf(w, "  %s tenpai: %s\n", t.Name, strings.Join(hand, " "))
	}
	for s, n := range h.Names {
		fmt.Fprintf(w, "  %-24s %6d %+6d = %6d\n", n, h.Before[s], h.Deltas[s], h.After[s])
	}
	fmt.Fprintf(w, "  audit: %s\n", h.Audit)
}
