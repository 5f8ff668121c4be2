package terminal

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/screen"
	"github.com/mentalmj/mentalmj/wall"
)

// writeTable draws the table: the round line, the four seats from the
// player's own (rivers in rows of six: ' marks tsumogiri, * the riichi
// discard, parentheses a tile another player called), and the player's
// hand with the numbers that discard each tile (k; nil numbers afresh).
func writeTable(w io.Writer, s screen.Snapshot, k Keys, l *i18n.Lang) {
	var dora []string
	for _, t := range s.Dora {
		dora = append(dora, tileName(s, t, l))
	}
	fmt.Fprintf(w, "\n%s\n", l.T("term.round", l.Round(s.Round), s.Honba, s.Kyotaku, s.TilesLeft, strings.Join(dora, " ")))
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
			marks = append(marks, l.T("term.you"))
		}
		if sv.Dealer {
			marks = append(marks, l.T("term.dealer"))
		}
		if sv.Riichi {
			marks = append(marks, l.T("term.riichi"))
		}
		if q == s.Turn {
			marks = append(marks, l.T("term.to_act"))
		}
		mark := ""
		if len(marks) > 0 {
			mark = " [" + strings.Join(marks, ", ") + "]"
		}
		fmt.Fprintf(w, "%-5s %s %d%s\n", l.Wind(sv.Wind), sv.Name, sv.Score, mark)
		if s.Spectator {
			fmt.Fprintf(w, "      %s: %s\n", l.T("term.concealed"), concealedText(s, sv.Hand, l))
		}
		var river []string
		for i, r := range sv.River {
			if i > 0 && i%6 == 0 {
				river = append(river, "|")
			}
			t := tileName(s, r.Tile, l)
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
			fmt.Fprintf(w, "      %s: %s\n", l.T("term.river"), strings.Join(river, " "))
		}
		if len(sv.Melds) > 0 {
			var ms []string
			for _, m := range sv.Melds {
				ms = append(ms, meldText(m, s, q, l))
			}
			fmt.Fprintf(w, "      %s: %s\n", l.T("term.melds"), strings.Join(ms, "  "))
		}
	}
	if s.Spectator {
		return // no hand of one's own, no waits
	}
	fmt.Fprintf(w, "%s: %s\n", l.T("term.hand"), handText(s, k, l))
	if len(s.Waits) > 0 {
		var ws []string
		for _, k := range s.Waits {
			ws = append(ws, screen.KindWord(wall.Kind(k), false))
		}
		f := ""
		if s.Furiten {
			f = l.T("term.furiten")
		}
		fmt.Fprintf(w, "%s%s\n", l.T("term.tenpai", strings.Join(ws, " ")), f)
	}
}

// concealedText writes a seat's concealed hand on a spectator's table
// (screen.SeatView.Hand): a tile's name, or # for a back (a tile the
// spectator cannot know before the hand's keys are revealed).
func concealedText(s screen.Snapshot, hand []int, l *i18n.Lang) string {
	out := make([]string, len(hand))
	for i, t := range hand {
		out[i] = "#"
		if t >= 0 {
			out[i] = tileName(s, t, l)
		}
	}
	return strings.Join(out, " ")
}

// meldText writes a meld as "pon 5z<West" (the called tile and whom it
// came from).
func meldText(m screen.Meld, s screen.Snapshot, owner int, l *i18n.Lang) string {
	var ts []string
	sep := "" // numbered tiles run together ("5p5p0p"), named honours not
	for _, t := range m.Tiles {
		ts = append(ts, tileName(s, t, l))
		if t >= 0 && wall.Tile(t).Kind() >= 27 {
			sep = " "
		}
	}
	if m.Type == "ankan" {
		return l.T("meld.ankan") + " " + strings.Join(ts, sep)
	}
	from := l.Wind(s.Seats[(owner+m.From)%4].Wind)
	return l.T("term.meld", l.T("meld."+m.Type), strings.Join(ts, sep), tileName(s, m.Called, l), from)
}

// tileName names tile id t as the table s plays it (Snapshot.TileName),
// an honour in l's language (West, 西).
func tileName(s screen.Snapshot, t int, l *i18n.Lang) string {
	if t >= 0 && t < wall.NumTiles && wall.Tile(t).Kind() >= 27 {
		return l.T(fmt.Sprintf("tile.%dz", wall.Tile(t).Kind()-26))
	}
	return s.TileName(t)
}

// handOrder is the displayed hand: sorted, the drawn tile last.
func handOrder(s screen.Snapshot) []int {
	h := append([]int(nil), s.MyHand...)
	if s.Drawn >= 0 {
		h = append(h, s.Drawn)
	}
	return h
}

func handText(s screen.Snapshot, k Keys, l *i18n.Lang) string {
	var b strings.Builder
	for i, t := range keyedHand(s, k) {
		if t.tile == s.Drawn && i == len(s.MyHand) {
			b.WriteString(" + " + l.T("term.drew") + " ")
		}
		fmt.Fprintf(&b, "%d:%s ", t.n, tileName(s, t.tile, l))
	}
	return strings.TrimSpace(b.String())
}

// writeSummary writes an end-of-hand summary, tiles named as the table s
// plays them (s.TileName: red fives by the table's rules).
func writeSummary(w io.Writer, s screen.Snapshot, h screen.HandSummary, l *i18n.Lang) {
	text, audit := h.Text, h.Audit
	if h.TextMsg != nil && l != nil && l.Code != i18n.Reference {
		text = l.Say(*h.TextMsg)
	}
	if h.AuditMsg != nil && l != nil && l.Code != i18n.Reference {
		audit = l.Say(*h.AuditMsg)
	}
	fmt.Fprintf(w, "\n%s\n", l.T("term.end", h.Number, l.Round(h.Round), h.Honba, text))
	for _, win := range h.Wins {
		var hand []string
		for _, t := range win.Hand {
			hand = append(hand, s.TileName(t))
		}
		var yaku []string
		for _, y := range win.Yaku {
			name := y.Name
			if l.Has(fmt.Sprintf("yaku.%d", y.ID)) {
				name = l.T(fmt.Sprintf("yaku.%d", y.ID))
			}
			yaku = append(yaku, fmt.Sprintf("%s %d", name, y.Han))
		}
		var ura []string
		for _, t := range win.Ura {
			ura = append(ura, s.TileName(t))
		}
		limit := win.Limit
		if limit != "" {
			limit = l.T("limit." + limit)
		}
		fmt.Fprint(w, l.T("term.win", who(win.Name, l), strings.Join(hand, " "), s.TileName(win.WinTile), strings.Join(yaku, ", "), l.T("term.value", win.Fu, win.Han, win.Points, limit)))
		if len(ura) > 0 {
			fmt.Fprint(w, l.T("term.ura", strings.Join(ura, " ")))
		}
		fmt.Fprintln(w)
	}
	for _, t := range h.Tenpai {
		var hand []string
		for _, x := range t.Hand {
			hand = append(hand, s.TileName(x))
		}
		fmt.Fprintf(w, "%s\n", l.T("term.tenpai_hand", who(t.Name, l), strings.Join(hand, " ")))
	}
	for s, n := range h.Names {
		fmt.Fprintf(w, "  %-24s %6d %+6d = %6d\n", who(n, l), h.Before[s], h.Deltas[s], h.After[s])
	}
	fmt.Fprintf(w, "%s\n", l.T("term.audit", audit))
}

// seatWind matches the seat wind of a name as screen.Names.Name writes it.
var seatWind = regexp.MustCompile(`\((East|South|West|North)\)$`)

// who puts the seat wind of a name ("alice (West)") in l's language
// ("alice (西)").
func who(name string, l *i18n.Lang) string {
	return seatWind.ReplaceAllStringFunc(name, func(w string) string { return "(" + l.Wind(w[1:len(w)-1]) + ")" })
}
