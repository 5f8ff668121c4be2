package protocol

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/player/bot"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/replay"
	"github.com/mentalmj/mentalmj/wall"
)

// kitaFirst wraps a Player: whenever kita is legal on its own turn it sets
// the north aside (counting it in kitas), otherwise next decides.
func kitaFirst(kitas *atomic.Int32, next func(v *game.Kyoku, s game.Seat) (game.Action, error)) Player {
	return PlayerFunc(func(_ context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) {
		for _, a := range v.LegalActions(s) {
			if a.Type == game.Kita {
				kitas.Add(1)
				return a, nil
			}
		}
		return next(v, s)
	})
}

// Three players deal and play two sanma hands under the protocol: each
// wall is a permutation of the 108-tile set (wall.ThreePlayer, no 2m-8m),
// the dora indicator is yama[9] (Tenhou's three-player dead wall), the
// kita the players make are shown and replaced by rinshan draws, every
// audit is clean and all three agree.
func TestSanmaHandsAuditClean(t *testing.T) {
	t.Parallel()
	tb := newTableN(t, 3)
	var kitas atomic.Int32
	out := tb.play(t, 2, func(i int, c *Config) {
		c.Player = kitaFirst(&kitas, func(v *game.Kyoku, s game.Seat) (game.Action, error) {
			return Tsumogiri{}.Act(context.Background(), v, s)
		})
	})
	for i, o := range out {
		if o.err != nil {
			t.Fatalf("player %d: %v", i, o.err)
		}
		if len(o.results) != 2 {
			t.Fatalf("player %d played %d hands, want 2", i, len(o.results))
		}
	}
	if kitas.Load() == 0 {
		t.Fatal("no kita in two sanma hands")
	}
	for h := 0; h < 2; h++ {
		ref := out[0].results[h]
		if len(ref.Blame) != 0 || len(ref.Faults) != 0 {
			t.Fatalf("hand %d: honest run blamed %v, faults %v", h+1, ref.Blame, ref.Faults)
		}
		if len(ref.Seats) != 3 {
			t.Fatalf("hand %d: %d seats", h+1, len(ref.Seats))
		}
		if err := wall.ThreePlayer.CheckPermutation(toTiles(ref.Yama)); err != nil {
			t.Fatalf("hand %d: yama is not a three-player permutation: %v", h+1, err)
		}
		if ref.DoraIndicator != ref.Yama[9] {
			t.Errorf("hand %d: dora indicator %d is not yama[9] = %d", h+1, ref.DoraIndicator, ref.Yama[9])
		}
		if ref.Result == nil || ref.Record == nil {
			t.Fatalf("hand %d: result %+v, record %v", h+1, ref.Result, ref.Record)
		}
		if ref.Result.Scores[3] != 0 {
			t.Errorf("hand %d: empty seat 3 has %d points", h+1, ref.Result.Scores[3])
		}
		if sum := ref.Result.Scores[0] + ref.Result.Scores[1] + ref.Result.Scores[2] + 1000*ref.Result.Kyotaku; sum != 3*35000 {
			t.Errorf("hand %d: scores %v and %d riichi sticks sum to %d, want 105000", h+1, ref.Result.Scores, ref.Result.Kyotaku, sum)
		}
		for i := 1; i < 3; i++ {
			r := out[i].results[h]
			if !slices.Equal(r.Yama, ref.Yama) || r.Dice != ref.Dice || !slices.Equal(r.Seats, ref.Seats) || r.Events != ref.Events || r.Result.Scores != ref.Result.Scores {
				t.Errorf("hand %d: player %d's audit disagrees with player 0's", h+1, i)
			}
		}
	}
	// Each transcript audits clean offline as a three-player game.
	for i, tr := range tb.transcripts {
		recs, err := ReadRecords(bytes.NewReader(tr.Bytes()), "transcript")
		if err != nil {
			t.Fatalf("transcript %d: %v", i, err)
		}
		a := AuditTranscript(recs)
		if !a.OK() || a.Players != 3 || len(a.Hands) != 2 || len(a.Peers) != 3 {
			t.Fatalf("transcript %d: ok %v, %d players, %d hands, blame %v, faults %v", i, a.OK(), a.Players, len(a.Hands), a.Blame, a.Faults)
		}
		if !slices.Equal(a.Hands[1].Yama, out[0].results[1].Yama) {
			t.Errorf("transcript %d: offline yama of hand 2 differs from the live one", i)
		}
	}
}

// Three bots play a whole east-only sanma match (East 1-3 and its
// repeats) under the protocol; every node's record, written as mjlog XML
// and read back, is identical on all three, is marked three-player, and
// replays through riichi/replay (the checker of real Tenhou logs) with no
// mismatch, final standings included.
func TestSanmaMatchRecordReplays(t *testing.T) {
	t.Parallel()
	tb := newTableN(t, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	var kitas atomic.Int32
	records := make([][]byte, 3)
	errs := make([]error, 3)
	for i := 0; i < 3; i++ {
		b := bot.New(uint64(300 + i))
		g, err := NewGame(Config{Table: "sanma", Identity: tb.keys[i], Peers: tb.ids, Tonpuu: true,
			Nick: []string{"ton", "nan", "sha"}[i], Transport: tb.net.Transport(tb.ids[i]), Timeout: 20 * time.Second,
			Player: kitaFirst(&kitas, b.Choose)})
		if err != nil {
			t.Fatal(err)
		}
		if g.Players() != 3 {
			t.Fatalf("Players() = %d", g.Players())
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
	if g.Go.Players() != 3 || g.Owari == nil || len(g.Rounds) == 0 {
		t.Fatalf("record: %d players, owari %v, %d rounds", g.Go.Players(), g.Owari, len(g.Rounds))
	}
	res := replay.Game(g)
	if len(res.Mismatches) > 0 || res.Rounds != len(g.Rounds) {
		// Seen once in ~250 runs (a ron the replay found no tile on offer
		// for, in a parallel -short run of the package), never alone: the
		// record goes to the log, to find out from it.
		t.Logf("the record:\n%s", records[0])
		t.Fatalf("replay of the record: %d of %d rounds, mismatches %v", res.Rounds, len(g.Rounds), res.Mismatches)
	}
	t.Logf("%d rounds, %d kita", len(g.Rounds), kitas.Load())
}

// A wrong private key release in a three-player hand is blamed on its
// sender by its recipient at once, from the commitment check.
func TestSanmaWrongKeyReleaseBlamed(t *testing.T) {
	t.Parallel()
	tb := newTableN(t, 3)
	const cheater = 2
	var victim peer.ID
	out := tb.play(t, 1, func(i int, c *Config) {
		if i != cheater {
			return
		}
		c.Misbehavior = tamper(func(hand uint32, to peer.ID, e *pb.Entry) {
			if kr := e.GetKeyRelease(); kr != nil && to != "" && victim == "" {
				victim = to
				copy(kr.Keys[:32], randomKey(t))
			}
		})
	})
	v := slices.Index(tb.ids, victim)
	if v < 0 {
		t.Fatal("the cheater never sent a private key release")
	}
	checkBlame(t, tb, out, cheater, []int{v})
	var be *BlameError
	if errors.As(out[v].err, &be) && !errors.Is(be, commcrypto.ErrCommitment) {
		t.Errorf("victim's blame does not come from the commitment check: %v", be)
	}
}

// A player that announces a three-player game at a four-player table is
// a configuration fault naming it, on every node.
func TestPlayerCountMismatchIsAConfigFault(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := playThree(t, tb, func(ctx context.Context, tr Transport) {
		e := properHello(tb, "test")
		h := e.GetHello()
		h.Peers, h.Settings.Players = h.Peers[:3], 3
		sendAll(ctx, t, tb, tr, tb.keys[3], e)
	})
	expectFault(t, out, tb.ids[3], FaultConfig, "3 players")
}

// A Hello whose player count does not match its peer list is a signed
// malformed message: blamed on its signer.
func TestHelloPlayersNotPeersBlamed(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := playThree(t, tb, func(ctx context.Context, tr Transport) {
		e := properHello(tb, "test")
		e.GetHello().Settings.Players = 3
		sendAll(ctx, t, tb, tr, tb.keys[3], e)
	})
	expectBlame(t, out, tb.ids[3], "invalid hello")
}

// Without proofs, a three-player hand is audited by replaying its passes
// over the 108-tile deck: an honest hand audits clean live and offline
// (not Proven), and a shuffle pass that replaces one encrypted tile is
// blamed on its maker by the replay once the keys are revealed.
func TestSanmaWithoutProofs(t *testing.T) {
	t.Parallel()
	tb := newTableN(t, 3)
	out := tb.play(t, 1, func(i int, c *Config) { c.NoProofs = true })
	for i, o := range out {
		if o.err != nil || len(o.results) != 1 || len(o.results[0].Yama) != 108 {
			t.Fatalf("player %d: %v", i, o.err)
		}
	}
	recs, err := ReadRecords(bytes.NewReader(tb.transcripts[1].Bytes()), "transcript")
	if err != nil {
		t.Fatal(err)
	}
	if a := AuditTranscript(recs); !a.OK() || !a.NoProofs || a.Hands[0].Proven || a.Players != 3 {
		t.Fatalf("offline audit: ok %v, no proofs %v, proven %v, players %d, blame %v, faults %v", a.OK(), a.NoProofs, a.Hands[0].Proven, a.Players, a.Blame, a.Faults)
	}

	tb = newTableN(t, 3)
	const cheater = 1
	out = tb.play(t, 1, func(i int, c *Config) {
		c.NoProofs = true
		if i != cheater {
			return
		}
		c.Misbehavior = tamper(func(hand uint32, to peer.ID, e *pb.Entry) {
			if s := e.GetShuffle(); s != nil {
				k, _ := commcrypto.NewKey(rand.Reader)
				copy(s.Deck[64:96], commcrypto.Commit(k).Bytes())
			}
		})
	})
	checkBlame(t, tb, out, cheater, []int{0, 2})
	for _, i := range []int{0, 2} {
		var be *BlameError
		if errors.As(out[i].err, &be) && !strings.Contains(be.Reason, "shuffle pass") {
			t.Errorf("player %d blames for %q, want the shuffle pass", i, be.Reason)
		}
	}
}

// With proofs, a three-player shuffle pass that duplicates a tile fails
// its proof (over 108 elements) and is blamed on arrival by both others.
func TestSanmaBadShuffleBlamedAtOnce(t *testing.T) {
	t.Parallel()
	tb := newTableN(t, 3)
	const cheater = 0
	out := tb.play(t, 1, func(i int, c *Config) {
		if i != cheater {
			return
		}
		c.Misbehavior = tamper(func(hand uint32, to peer.ID, e *pb.Entry) {
			if s := e.GetShuffle(); s != nil {
				k, _ := commcrypto.NewKey(rand.Reader)
				copy(s.Deck[32:64], commcrypto.Commit(k).Bytes())
			}
		})
	})
	checkBlame(t, tb, out, cheater, []int{1, 2})
}
