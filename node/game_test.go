package node

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
)

// playOverLibp2p seats four in-process nodes on listen and plays hands of
// the mental protocol over them; it returns each player's results.
func playOverLibp2p(tb testing.TB, listen string, hands int) [][]protocol.HandResult {
	tb.Helper()
	ctx := testContext(tb, 2*time.Minute)
	nodes := startNodes(tb, protocol.Players, listen, Config{})
	seat(tb, ctx, nodes)
	return playHands(tb, ctx, nodes, hands)
}

// playHands plays hands of the mental protocol between the four seated
// nodes and returns each player's results; a player's error fails tb.
func playHands(tb testing.TB, ctx context.Context, nodes []*Node, hands int) [][]protocol.HandResult {
	tb.Helper()
	return playHandsGrace(tb, ctx, nodes, hands, 0)
}

// playHandsGrace is playHands with the protocol's ReconnectGrace set to
// grace (0: a dropped connection ends the hand).
func playHandsGrace(tb testing.TB, ctx context.Context, nodes []*Node, hands int, grace time.Duration) [][]protocol.HandResult {
	tb.Helper()
	ids := make([]peer.ID, len(nodes))
	for i, n := range nodes {
		ids[i] = n.ID()
	}
	results := make([][]protocol.HandResult, len(nodes))
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		g, err := protocol.NewGame(protocol.Config{Table: "loopback", Identity: n.PrivKey(), Peers: ids, Hands: hands, Transport: n, Timeout: 20 * time.Second, ReconnectGrace: grace})
		if err != nil {
			tb.Fatal(err)
		}
		wg.Go(func() { results[i], errs[i] = g.Run(ctx) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			tb.Fatalf("player %d: %v", i, err)
		}
	}
	return results
}

// TestFourNodesPlayAHand plays a hand of the mental protocol between four
// libp2p hosts on 127.0.0.1 (TCP, then QUIC) and checks that every audit
// passes and all four agree on the wall.
func TestFourNodesPlayAHand(t *testing.T) {
	t.Parallel()
	for _, listen := range []string{tcpLoopback, quicLoopback} {
		t.Run(listen, func(t *testing.T) {
			results := playOverLibp2p(t, listen, 1)
			for i, rs := range results {
				if len(rs) != 1 || len(rs[0].Blame) != 0 || len(rs[0].Yama) != 136 {
					t.Fatalf("player %d: %+v", i, rs)
				}
				if !slices.Equal(rs[0].Yama, results[0][0].Yama) {
					t.Errorf("player %d's audited wall differs from player 0's", i)
				}
			}
		})
	}
}

// BenchmarkHandLoopback plays whole hands between four libp2p hosts in one
// process over loopback TCP and reports the hand setup time (seats and
// dice, 4 shuffle and 4 rekey passes, the deal of 53 tiles; slowest player)
// and the tsumo latency percentiles.
func BenchmarkHandLoopback(b *testing.B) {
	results := playOverLibp2p(b, tcpLoopback, b.N)
	reportHands(b, results)
}

// reportHands reports the hand setup time (slowest player per hand) and
// the tsumo latency percentiles of the hands all four players played (a
// match that ends early, a player busting, plays fewer than b.N).
func reportHands(b *testing.B, results [][]protocol.HandResult) {
	played := len(results[0])
	for _, rs := range results {
		played = min(played, len(rs))
	}
	var setups, draws []time.Duration
	for h := range played {
		var slowest time.Duration
		for _, rs := range results {
			slowest = max(slowest, rs[h].Setup)
			draws = append(draws, rs[h].DrawLatency...)
		}
		setups = append(setups, slowest)
	}
	b.ReportMetric(msAt(setups, 50), "setup-ms-median")
	b.ReportMetric(msAt(draws, 50), "tsumo-ms-median")
	b.ReportMetric(msAt(draws, 99), "tsumo-ms-p99")
}

func msAt(ds []time.Duration, p float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := min(max(int(p/100*float64(len(s))+0.5)-1, 0), len(s)-1)
	return float64(s[i].Microseconds()) / 1000
}
