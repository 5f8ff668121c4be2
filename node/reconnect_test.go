package node

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
)

// cutWriter is a transcript writer that, after the record numbered at,
// calls cut once, and then notes when the record numbered at+after is
// written: the hand moving on.
type cutWriter struct {
	mu           sync.Mutex
	buf          bytes.Buffer
	n, at, after int
	cut          func()
	cutAt        time.Time
	moving       chan time.Duration
}

func (w *cutWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.buf.Write(p)
	w.n++
	n := w.n
	w.mu.Unlock()
	switch n {
	case w.at:
		w.cutAt = time.Now()
		w.cut()
	case w.at + w.after:
		w.moving <- time.Since(w.cutAt)
	}
	return len(p), nil
}

// playWithCut plays two hands over four libp2p nodes and closes every
// connection between players 0 and 2 (as a network failure would) once
// player 0's transcript holds at records; it returns each player's
// results and error, player 0's transcript, and how long after the cut
// player 0 had recorded 8 more entries.
func playWithCut(tb testing.TB, at int) ([][]protocol.HandResult, []error, []byte, time.Duration) {
	ctx := testContext(tb, 2*time.Minute)
	var logger *slog.Logger
	if os.Getenv("MENTALMJ_TEST_LOG") != "" {
		logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	nodes := startNodes(tb, protocol.Players, tcpLoopback, Config{Logger: logger})
	seat(tb, ctx, nodes)
	ids := make([]peer.ID, len(nodes))
	for i, n := range nodes {
		ids[i] = n.ID()
	}
	w := &cutWriter{at: at, after: 8, moving: make(chan time.Duration, 1), cut: func() {
		if err := nodes[0].host.Network().ClosePeer(nodes[2].ID()); err != nil {
			tb.Error(err)
		}
	}}
	results := make([][]protocol.HandResult, len(nodes))
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		cfg := protocol.Config{Table: "loopback", Identity: n.PrivKey(), Peers: ids, Hands: 2, Transport: n,
			Timeout: 10 * time.Second, ReconnectGrace: 20 * time.Second}
		if logger != nil {
			cfg.Logger = logger.With("player", i)
		}
		if i == 0 {
			cfg.Transcript = protocol.NewTranscript(w)
		}
		g, err := protocol.NewGame(cfg)
		if err != nil {
			tb.Fatal(err)
		}
		wg.Go(func() { results[i], errs[i] = g.Run(ctx) })
	}
	wg.Wait()
	var moving time.Duration
	select {
	case moving = <-w.moving:
	default:
		tb.Errorf("player 0's transcript never grew %d records past the cut", w.after)
	}
	return results, errs, w.buf.Bytes(), moving
}

// Closing the libp2p connections between two players mid-game (during
// the shuffle passes, and in the play) does not end the game: both
// nodes redial by themselves, the others wait, and every player finishes
// both hands with the same walls and a transcript that audits clean.
func TestGameSurvivesClosedConnection(t *testing.T) {
	t.Parallel()
	for _, at := range []int{10, 120} {
		t.Run(fmt.Sprint("record ", at), func(t *testing.T) {
			results, errs, transcript, moving := playWithCut(t, at)
			for i, err := range errs {
				if err != nil {
					t.Fatalf("player %d: %v", i, err)
				}
			}
			for i, rs := range results {
				if len(rs) != 2 {
					t.Fatalf("player %d played %d hands, want 2", i, len(rs))
				}
				for h, r := range rs {
					if len(r.Blame) > 0 || len(r.Faults) > 0 || len(r.Yama) != 136 || fmt.Sprint(r.Yama) != fmt.Sprint(results[0][h].Yama) {
						t.Errorf("player %d hand %d: blame %v faults %v, or a wall other than player 0's", i, h+1, r.Blame, r.Faults)
					}
				}
			}
			recs, err := protocol.ReadRecords(bytes.NewReader(transcript), "player 0")
			if err != nil {
				t.Fatal(err)
			}
			if a := protocol.AuditTranscript(recs); !a.OK() {
				t.Errorf("player 0's transcript: blame %v, faults %v", a.Blame, a.Faults)
			}
			t.Logf("player 0 moved on (8 more records) %s after the cut", moving.Round(time.Millisecond))
		})
	}
}

// BenchmarkReconnect measures, on 127.0.0.1 over TCP, how long after the
// connections between two players are closed mid-play the hand moves on:
// player 0 has recorded 8 more entries (both nodes redialled and sent
// each other what was lost). Each iteration plays a two-hand game.
func BenchmarkReconnect(b *testing.B) {
	var total time.Duration
	for b.Loop() {
		_, errs, _, moving := playWithCut(b, 120)
		for i, err := range errs {
			if err != nil {
				b.Fatalf("player %d: %v", i, err)
			}
		}
		total += moving
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-to-move-on")
}

var _ = context.Background
