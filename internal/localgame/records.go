package localgame

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/ui/i18n"
)

// sameFiles checks that the four nodes wrote the same game record.
func sameFiles(players []*localPlayer) error {
	first, err := os.ReadFile(players[0].record)
	if err != nil {
		return err
	}
	for _, p := range players[1:] {
		b, err := os.ReadFile(p.record)
		if err != nil {
			return err
		}
		if !slices.Equal(b, first) {
			return fmt.Errorf("%s differs from %s", p.record, players[0].record)
		}
	}
	return nil
}

// viewFiles checks, for a private-hands game, that every node wrote its
// own view of the game: a record that mjlog.ParseView reads, with as many
// rounds as the others (the records differ: each shows its own node's
// tiles), in which the rules of SPEC.md §19 hold (viewRules).
func viewFiles(players []*localPlayer) error {
	rounds := -1
	for _, p := range players {
		f, err := os.Open(p.record)
		if err != nil {
			return err
		}
		g, err := mjlog.ParseView(f, p.record)
		f.Close()
		switch {
		case err != nil:
			return err
		case rounds >= 0 && len(g.Rounds) != rounds:
			return fmt.Errorf("%s has %d rounds, %s %d", p.record, len(g.Rounds), players[0].record, rounds)
		}
		if err := viewRules(g, p.Name); err != nil {
			return fmt.Errorf("%s: %w", p.record, err)
		}
		rounds = len(g.Rounds)
	}
	return nil
}

// viewRules checks player name's view g of a private-hands game round by
// round (SPEC.md §19): every tile of the player's own seat is known, and
// every other seat whose hand the rules never showed — it did not win,
// declare riichi, or show its hand at a draw — keeps a tile hidden among
// its haipai and tsumo (its concealed tiles at the end are never
// revealed). A round in which every other seat was shown may hide
// nothing: with bots that riichi on every closed tenpai, a two-hand game
// sometimes hides no tile at all, which is no leak.
func viewRules(g *mjlog.Game, name string) error {
	own := slices.IndexFunc(g.Players, func(p mjlog.Player) bool { return p.Name == name })
	if own < 0 {
		return fmt.Errorf("no seat is named %s", name)
	}
	for r, round := range g.Rounds {
		hidden := [4]bool{}
		for s, hai := range round.Init.Hai {
			hidden[s] = slices.Contains(hai, mjlog.Hidden)
		}
		var shown [4]bool
		for _, e := range round.Events {
			switch e := e.(type) {
			case mjlog.Draw:
				hidden[e.Who] = hidden[e.Who] || e.Tile == mjlog.Hidden
			case mjlog.Reach:
				shown[e.Who] = true
			case mjlog.Agari:
				shown[e.Who] = true
			case mjlog.Ryuukyoku:
				for s, hai := range e.Hai {
					shown[s] = shown[s] || hai != nil
				}
			}
		}
		if hidden[own] {
			return fmt.Errorf("round %d: its own seat %d has a hidden tile", r+1, own)
		}
		for s, hai := range round.Init.Hai {
			if len(hai) == 0 {
				continue // no fourth seat in sanma
			}
			if s != own && !shown[s] && !hidden[s] {
				return fmt.Errorf("round %d: seat %d never showed its hand, yet every tile of it is known (a private hand leaked)", r+1, s)
			}
		}
	}
	return nil
}

// wireTraffic counts, from the four transcripts, every message a node sent
// (once per recipient: three for a broadcast) and its envelope bytes,
// over the hands of the game (the opening Hellos excluded).
func wireTraffic(players []*localPlayer) (msgs, bytes int, err error) {
	for _, p := range players {
		f, err := os.Open(p.Transcript)
		if err != nil {
			return 0, 0, err
		}
		recs, err := protocol.ReadTranscript(f, p.Transcript)
		f.Close()
		if err != nil {
			return 0, 0, err
		}
		for _, o := range recs {
			if o.Sender != p.ID || o.Entry.Hand == 0 {
				continue
			}
			n := len(players) - 1
			if o.Recipient != "" {
				n = 1
			}
			msgs += n
			bytes += n * len(o.Envelope)
		}
	}
	return msgs, bytes, nil
}

// printJSONRecord tells local's user where the tenhou.net/6 JSON is and
// how to review it (mjai-reviewer, for the seat of the player named
// name), and how to watch the game again: mentalmj view on the player's
// transcript, which shows every hand's audit (the JSON carries no wall
// seed, so its replay cannot show one); in language l.
func printJSONRecord(w io.Writer, path, name, transcript string, l *i18n.Lang) {
	b, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(w, "tenhou.net/6 JSON: %v\n", err)
		return
	}
	var doc struct {
		Name []string `json:"name"`
	}
	json.Unmarshal(b, &doc)
	seat := max(slices.Index(doc.Name, name), 0)
	fmt.Fprintln(w, l.T("local.json", path, name, path, seat, transcript))
}
