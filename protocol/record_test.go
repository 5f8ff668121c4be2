package protocol

import (
	"bytes"
	"context"
	"math"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/player/bot"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/replay"
)

// Four bots play a whole east-only match under the protocol; every node's
// game record, written as mjlog XML and read back, is identical on all
// four and replays through the rules engine (riichi/replay, the checker
// of real Tenhou logs) with no mismatch, final standings included.
func TestMatchRecordReplays(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	records := make([][]byte, Players)
	certs := make([]*pb.Certificate, Players)
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
			if err == nil {
				certs[i], err = g.Certificate()
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
	checkCertificates(t, certs, g, []string{"ton", "nan", "sha", "pei"})
}

// checkCertificates checks the result certificates of one finished game,
// one per player: all sign the same result, every one verifies, and the
// result's scores, placements and nicknames are those of the game record's
// owari and names (read back from mjlog XML, a second path).
func checkCertificates(t *testing.T, certs []*pb.Certificate, rec *mjlog.Game, nicks []string) {
	t.Helper()
	for i, c := range certs {
		if !bytes.Equal(c.Result, certs[0].Result) {
			t.Errorf("player %d's certified result differs from player 0's", i)
		}
		b, err := proto.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		got, err := CheckCertificate(b)
		if err != nil {
			t.Fatalf("player %d's certificate: %v", i, err)
		}
		if len(got.Result.Players) != len(nicks) {
			t.Fatalf("%d players in the result", len(got.Result.Players))
		}
		for s, pl := range got.Result.Players {
			if pl.Nick != rec.Players[s].Name {
				t.Errorf("seat %d: nick %q, record %q", s, pl.Nick, rec.Players[s].Name)
			}
			if want := rec.Owari.Scores[s] * 100; int(pl.Score) != want {
				t.Errorf("seat %d: score %d, owari %d", s, pl.Score, want)
			}
			if want := int(math.Round(rec.Owari.Points[s] * 10)); int(pl.Points) != want {
				t.Errorf("seat %d: points %d tenths, owari %v", s, pl.Points, rec.Owari.Points[s])
			}
		}
	}
}
