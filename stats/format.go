package stats

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"golang.org/x/text/width"
)

// AllName is the name of the whole set's row in the text table, the JSON
// and the page.
const AllName = "(all players)"

// Report is the --json document: per kind of game, the players' Figures
// and the whole set's.
type Report struct {
	FourPlayer  *TableReport `json:"four_player"`
	ThreePlayer *TableReport `json:"three_player"`
}

// TableReport is one kind of game in a Report.
type TableReport struct {
	// Games counts the games read (Unfinished of them without a final
	// result); Kyoku the hands dealt.
	Games      int `json:"games"`
	Unfinished int `json:"unfinished"`
	Kyoku      int `json:"kyoku"`
	// Players are the players' Figures, most games first.
	Players []Figures `json:"players"`
	// All are the whole set's Figures (named AllName).
	All Figures `json:"all"`
}

// Report returns the set's figures, only for the player named player when
// it is not "" (All then stays the whole set's). A kind of game with no
// game read, or none of that player when player is not "", is nil.
func (s *Set) Report(player string) Report {
	return Report{FourPlayer: s.Four.report(player), ThreePlayer: s.Three.report(player)}
}

func (t *Table) report(player string) *TableReport {
	if t.Games == 0 || player != "" && t.byName[player] == nil {
		return nil
	}
	r := &TableReport{Games: t.Games, Unfinished: t.Unfinished, Kyoku: t.Kyoku, Players: []Figures{}, All: t.All(AllName).Figures()}
	for _, p := range t.PlayerList() {
		if player == "" || p.Name == player {
			r.Players = append(r.Players, p.Figures())
		}
	}
	return r
}

// WriteJSON writes r as indented JSON. It returns the write error.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes r as text tables, one per kind of game, each player a
// row and the whole set last; rates are percentages, "-" where a figure
// has no denominator. It returns the first write error.
func (r Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, k := range []struct {
		title string
		t     *TableReport
	}{{"Four-player", r.FourPlayer}, {"Three-player (sanma)", r.ThreePlayer}} {
		if k.t == nil {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s: %s, %d kyoku", k.title, Games(k.t.Games), k.t.Kyoku)
		if k.t.Unfinished > 0 {
			fmt.Fprintf(&b, " (%d without a final result: kyoku figures only)", k.t.Unfinished)
		}
		b.WriteString("\n")
		writeRows(&b, k.t)
	}
	if b.Len() == 0 {
		b.WriteString("no games\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Games returns "1 game" or "N games".
func Games(n int) string {
	if n == 1 {
		return "1 game"
	}
	return fmt.Sprintf("%d games", n)
}

// nameWidth is the width of the name column, in terminal cells.
const nameWidth = 18

func writeRows(b *strings.Builder, t *TableReport) {
	b.WriteString(pad("player", nameWidth))
	b.WriteString(" games kyoku  1st  2nd  3rd  4th   avg   bust    win  tsumo deal-in riichi   call win-pts dealin-pts tenpai@draw\n")
	row := func(f Figures) {
		b.WriteString(pad(f.Name, nameWidth))
		fmt.Fprintf(b, " %5d %5d %4d %4d %4d %4d %5s %6s %6s %6s %7s %6s %6s %7s %10s %11s\n",
			f.Games, f.Kyoku, f.Placements[0], f.Placements[1], f.Placements[2], f.Placements[3],
			FormatNumber(f.AvgPlacement, 2), FormatRate(f.BustRate), FormatRate(f.WinRate), FormatRate(f.TsumoShare), FormatRate(f.DealInRate),
			FormatRate(f.RiichiRate), FormatRate(f.CallRate), FormatNumber(f.AvgWinPoints, 0), FormatNumber(f.AvgDealInPoints, 0), FormatRate(f.DrawTenpaiRate))
	}
	for _, f := range t.Players {
		row(f)
	}
	row(t.All)
}

// FormatRate writes a rate as a percentage with one decimal ("23.4%"),
// "-" for nil.
func FormatRate(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100**v)
}

// FormatNumber writes v with prec decimals, "-" for nil.
func FormatNumber(v *float64, prec int) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.*f", prec, *v)
}

// cells returns the terminal width of s: 2 for East Asian wide and
// full-width characters (Japanese names), 1 for the others.
func cells(r rune) int {
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// pad returns s cut or padded with spaces to n terminal cells; a cut name
// ends in "…".
func pad(s string, n int) string {
	w := 0
	for _, r := range s {
		w += cells(r)
	}
	if w <= n {
		return s + strings.Repeat(" ", n-w)
	}
	var b strings.Builder
	w = 0
	for _, r := range s {
		if w+cells(r) > n-1 {
			break
		}
		b.WriteRune(r)
		w += cells(r)
	}
	b.WriteString("…")
	return b.String() + strings.Repeat(" ", n-1-w)
}
