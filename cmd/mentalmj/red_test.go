package main

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/internal/localgame"
	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/wall"
)

// TestProgressRedFives checks the dora indicator of the progress lines
// under a table's red fives: join's text line names the indicator as the
// aka table of docs/rules.md has it (id 53 is 0p only with four red fives, id 52
// 5p without red fives), and local, reading join's JSON line, prints the
// same name (the second path). Dropping the red list from the JSON (a
// tamper) must change local's name of a red indicator.
func TestProgressRedFives(t *testing.T) {
	t.Parallel()
	seats := []peer.ID{"peer-a", "peer-b", "peer-c", "peer-d"}
	name := regexp.MustCompile(`dora indicator (\S+):`)
	for _, c := range []struct {
		reds wall.Reds
		dora int
		want string
	}{
		{0, 52, "5p"},
		{0, 16, "5m"},
		{wall.TenhouReds, 52, "0p"},
		{wall.TenhouReds, 53, "5p"},
		{wall.RedsOf(16, 52, 53, 88), 53, "0p"},
		{wall.RedsOf(52), 16, "5m"},
	} {
		h := protocol.HandResult{Number: 1, Seats: seats, DoraIndicator: c.dora, Yama: make([]int, 136)}
		var text, js bytes.Buffer
		(&progress.Reporter{W: &text}).Hand(h, seats[0], nil, 4, c.reds)
		(&progress.Reporter{W: &js, JSON: true}).Hand(h, seats[0], nil, 4, c.reds)
		m := name.FindStringSubmatch(text.String())
		if m == nil || m[1] != c.want {
			t.Errorf("red %v, indicator %d: join prints %q, want %s", c.reds.Tiles(), c.dora, text.String(), c.want)
		}
		ev, err := progress.Decode(bytes.SplitN(js.Bytes(), []byte("\n"), 2)[0])
		if err != nil {
			t.Fatal(err)
		}
		child, ok := ev.(progress.Hand)
		if !ok {
			t.Fatalf("join wrote %T, want a hand", ev)
		}
		var local bytes.Buffer
		localgame.WriteHand(&local, []progress.Hand{child}, nil)
		if m := name.FindStringSubmatch(local.String()); m == nil || m[1] != c.want {
			t.Errorf("red %v, indicator %d: local prints %q, want %s", c.reds.Tiles(), c.dora, local.String(), c.want)
		}
		child.Red = nil
		local.Reset()
		localgame.WriteHand(&local, []progress.Hand{child}, nil)
		if m := name.FindStringSubmatch(local.String()); m == nil || (m[1] == c.want) != (c.want[0] != '0') {
			t.Errorf("red %v, indicator %d: without the red list local prints %q", c.reds.Tiles(), c.dora, local.String())
		}
	}
}
