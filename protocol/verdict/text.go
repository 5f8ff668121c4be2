package verdict

import (
	"fmt"
	"io"
	"strings"

	"github.com/mentalmj/mentalmj/wall"
)

// WriteText writes the report for people: one line a transcript, the
// players, one line a hand (its result and its audit), every blame with
// its evidence, every fault, and a closing verdict line.
func (r *Report) WriteText(w io.Writer) {
	for _, t := range r.Transcripts {
		owner := ""
		if p := peerID(t.Owner); p != "" {
			owner = ", kept by " + r.names.Short(p, -1)
		}
		fmt.Fprintf(w, "transcript %s: %d records, %d hands%s\n", t.File, t.Records, t.Hands, owner)
		if t.Stopped != "" {
			fmt.Fprintf(w, "  reading stopped: %s\n", t.Stopped)
		}
	}
	if r.Table != "" {
		game := ""
		if len(r.GameID) >= 12 {
			game = ", game " + r.GameID[:12] + "…"
		}
		length := r.Length
		if r.Sanma {
			length = "three-player (sanma) " + length
		}
		if r.PrivateHands {
			length += " with private hands"
		}
		fmt.Fprintf(w, "table %q, %s%s\n", r.Table, length, game)
		if r.Settings != "" {
			fmt.Fprintf(w, "settings: %s\n", r.Settings)
		}
	}
	if len(r.Players) > 0 {
		var ps []string
		for _, p := range r.Players {
			ps = append(ps, r.names.Long(peerID(p.Peer), -1))
		}
		fmt.Fprintf(w, "players: %s\n", strings.Join(ps, "; "))
	}
	for _, h := range r.Hands {
		dealer := "dealer unknown"
		if h.Oya >= 0 && h.Oya < len(r.names.Seats) {
			dealer = "dealer " + r.names.Short(r.names.Seats[h.Oya], h.Oya)
		}
		dice := "dice unknown"
		if h.Dice != nil {
			dice = fmt.Sprintf("dice %d+%d", h.Dice[0]+1, h.Dice[1]+1)
		}
		passes := ""
		if h.Proven {
			passes = " (every shuffle and rekey proof verified)"
		}
		// The Hellos carry no house rules yet: every protocol game plays
		// Tenhou's red fives.
		fmt.Fprintf(w, "hand %d (%s, honba %d): %s, %s, dora indicator %s, %d events: %s; %s%s\n",
			h.Hand, h.Round, h.Honba, dealer, dice, TileName(h.DoraIndicator, wall.TenhouReds), h.Events, h.Result, h.Audit, passes)
	}
	if r.Dropped != "" {
		fmt.Fprintf(w, "%s (audited all the same)\n", r.Dropped)
	}
	for _, b := range r.Blame {
		fmt.Fprintf(w, "BLAME hand %d: %s %s: %s\n", b.Hand, b.Player, b.Peer, b.Reason)
		for _, e := range b.Evidence {
			at := "held by no file audited"
			if e.File != "" {
				at = fmt.Sprintf("%s record %d", e.File, e.Record)
			}
			fmt.Fprintf(w, "  evidence: its signed %s, seq %d, hand %d (%s; entry %s…)\n", e.Kind, e.Seq, e.Hand, at, e.Hash[:12])
		}
	}
	for _, f := range r.Faults {
		who := "transcript " + f.File
		if f.Peer != "" {
			who = f.Player + " " + f.Peer
		}
		by := ""
		if len(f.Reporters) > 0 {
			var names []string
			for _, p := range f.Reporters {
				names = append(names, r.names.Short(peerID(p), -1))
			}
			by = " (reported by " + strings.Join(names, ", ") + ")"
		}
		fmt.Fprintf(w, "FAULT hand %d: %s: %s: %s%s\n", f.Hand, who, f.Kind, f.Reason, by)
	}
	switch r.Verdict {
	case "verified":
		if r.PrivateHands {
			fmt.Fprintln(w, "verified: every proof, every tile shown and the play check out; no one cheated in what the rules reveal (private hands: the rest of each wall stays hidden)")
			break
		}
		fmt.Fprintln(w, "verified: every hand's wall and play check out; no one cheated")
	case "blame":
		fmt.Fprintf(w, "CHEATING PROVEN: %d blame(s) above, each resting on entries its player signed\n", len(r.Blame))
	case "unreadable":
		fmt.Fprintln(w, "cannot be audited in full: a transcript is damaged, cut short or of another protocol version (see the FAULT lines; what could be read proves no cheating)")
	default:
		fmt.Fprintf(w, "no cheating proven; the game did not complete as played: %d fault(s) above (a fault proves nothing about intent)\n", len(r.Faults))
	}
}
