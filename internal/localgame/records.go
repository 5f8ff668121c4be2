package localgame

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/record/mjlog"
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
// own view of the game: a record that mjlog.ParseView reads, with hidden
// tiles, and as many rounds as the others (the records differ: each
// shows its own node's tiles).
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
		case !g.HasHidden():
			return fmt.Errorf("%s hides no tile in a private-hands game", p.record)
		case rounds >= 0 && len(g.Rounds) != rounds:
			return fmt.Errorf("%s has %d rounds, %s %d", p.record, len(g.Rounds), players[0].record, rounds)
		}
		rounds = len(g.Rounds)
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
// how to open it (mentalmj view, mjai-reviewer); the review is for the seat of the player named name.
func printJSONRecord(w io.Writer, path, name string) {
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
	fmt.Fprintf(w, "tenhou.net/6 JSON: %s\n  review %s's play with Mortal: mjai-reviewer -e mortal -i %s -a %d\n  watch it again: mentalmj view %s\n",
		path, name, path, seat, path)
}
