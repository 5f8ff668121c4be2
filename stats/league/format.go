package league

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText writes st as text: for each player count with games, a
// heading with the number of games and the period, then a table of the
// players by R (name, short peer ID, games, placements, points, R, and
// dan and dan points for four players). It returns w's error.
func WriteText(w io.Writer, st Standings, room Room) error {
	var b strings.Builder
	for _, s := range []struct {
		title string
		l     *League
	}{{"four players", st.FourPlayer}, {"three players", st.ThreePlayer}} {
		if s.l == nil {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s: %d games, %s to %s\n", s.title, s.l.Games, s.l.First.UTC().Format("2006-01-02 15:04"), s.l.Last.UTC().Format("2006-01-02 15:04"))
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
		head := "\tplayer\tpeer\tgames\tplacements\tpoints\tR\t"
		if s.l == st.FourPlayer {
			head += "dan (" + room.String() + ")\t"
		}
		fmt.Fprintln(tw, head)
		for i, p := range s.l.Players {
			places := make([]string, len(p.Placements))
			for j, c := range p.Placements {
				places[j] = fmt.Sprint(c)
			}
			line := fmt.Sprintf("%d\t%s\t%s\t%d\t%s\t%+.1f\t%.2f\t", i+1, p.Name, shortID(p.PeerID), p.Games, strings.Join(places, "/"), p.Points, p.Rate)
			if p.DanPoints != nil {
				line += fmt.Sprintf("%s %d\t", p.Dan, *p.DanPoints)
			}
			fmt.Fprintln(tw, line)
		}
		tw.Flush()
	}
	if b.Len() == 0 {
		b.WriteString("no games\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// shortID is a peer ID's last 8 characters, as libp2p's ShortString
// shows it.
func shortID(id string) string {
	if len(id) <= 8 {
		return id
	}
	return "…" + id[len(id)-8:]
}
