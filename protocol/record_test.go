package protocol

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/player/bot"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/replay"
)

// Four bots play a whole east-only match under the protocol; every node's
// game record, written as mjlog XML and read back, is identical on all
// four and replays through the rules engine (riichi/replay, the checker
// of real Tenhou logs) with no mismatch, final standings included.
func TestMatchRecordReplays(t *testing.T) {
	tb := newTable(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	records := make([][]byte, Players)
	errs := make([]error, Players)
	for i := 0; i < Players; i++ {
		b := bot.New(uint64(100 + i))
		g, err := NewGame(Config{Table: "record", Identity: tb.keys[i], Peers: tb.ids, Hands: 0, Tonpuu: true,
			Nick: []string{"ton", "nan", "sha", "pei"}[i], Transport: tb.net.Transport(tb.ids[i]), Timeout: 20 * time.Second,
			Player: PlayerFunc(func(_ context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) { return b.Choose(v, s) })})
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			results, err := g.Run(ctx)
			if err == nil && !g.MatchOver() {
				t.Errorf("player %d: match not over after %d hands", i, len(results))
			}
			var buf bytes.Buffer
			if err == nil {
				err = mjlog.Write(&buf, g.Record(results))
			}
			records[i], errs[i] = buf.Bytes(), err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("player %d: %v", i, err)
		}
		if !bytes.Equal(records[i], records[0]) {
			t.Errorf("player %d's record differs from player 0's", i)
		}
	}
	g, err := mjlog.Parse(bytes.NewReader(records[0]), "record.xml")
	if err != nil {
		t.Fatal(err)
	}
	if g.Shuffle != nil || g.Owari == nil || len(g.Rounds) == 0 {
		t.Fatalf("record: shuffle %v, owari %v, %d rounds", g.Shuffle, g.Owari, len(g.Rounds))
	}
	res := replay.Game(g)
	if len(res.Mismatches) > 0 || res.Rounds != len(g.Rounds) {
		t.Fatalf("replay of the record: %d of %d rounds, mismatches %v", res.Rounds, len(g.Rounds), res.Mismatches)
	}
}
