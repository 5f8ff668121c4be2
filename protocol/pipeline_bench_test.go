package protocol

import (
	"context"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/internal/cputime"
	"github.com/mentalmj/mentalmj/internal/latency"
	"github.com/mentalmj/mentalmj/player/bot"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// playPaused plays a whole hanchan of four bots with proofs on a
// memnet.Network whose every link is delayed by oneWay, with or without the
// pipelined setup, and returns player 0's results and the wall time.
func playPaused(b *testing.B, oneWay time.Duration, pipeline bool, seed int) ([]HandResult, time.Duration) {
	tb := newTable(b)
	tb.net.SetLatency(latency.Link{OneWay: oneWay})
	res, wall, _ := runBots(b, tb, Config{Table: "pause", NoPipeline: !pipeline}, uint64(seed), nil)
	return res, wall
}

// runBots plays the four players of tb as bots, each with cfg plus its
// identity, transport, a one-minute timeout, a bot seeded seed + its
// index and, when rnd is not nil, rnd(index) as its secret stream. It
// returns player 0's results, the wall time and the process CPU time
// (user + system, cputime.Now) of the whole run.
func runBots(b *testing.B, tb *table, cfg Config, seed uint64, rnd func(int) io.Reader) ([]HandResult, time.Duration, time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var res []HandResult
	var wg sync.WaitGroup
	cpu0 := cputime.Now()
	begin := time.Now()
	for i := range tb.ids {
		bt := bot.New(seed + uint64(i))
		c := cfg
		c.Identity, c.Peers, c.Transport, c.Timeout = tb.keys[i], tb.ids, tb.net.Transport(tb.ids[i]), time.Minute
		c.Player = PlayerFunc(func(_ context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) { return bt.Choose(v, s) })
		if rnd != nil {
			c.Rand = rnd(i)
		}
		g, err := NewGame(c)
		if err != nil {
			b.Fatal(err)
		}
		wg.Go(func() {
			r, err := g.Run(ctx)
			if err != nil {
				b.Errorf("player %d: %v", i, err)
			}
			if i == 0 {
				res = r
			}
		})
	}
	wg.Wait()
	return res, time.Since(begin), cputime.Now() - cpu0
}

// BenchmarkPipelinePause plays a hanchan of four bots with proofs at 100
// ms round-trip time (every link 50 ms one way, memnet.Network), without and
// then with the pipelined setup, and reports for each the median pause
// between hands (HandResult.Pause: from the previous hand's audit on
// player 0 to its first turn being playable; hands 2 on, hand 1 having
// no previous hand), the median setup, the mean time per hand and the
// hands played. The target (issue 18) is a median pause ≤ 1 RTT + 100
// ms = 200 ms with the pipeline. Run with -benchtime 1x (a few minutes).
func BenchmarkPipelinePause(b *testing.B) {
	const oneWay = 50 * time.Millisecond
	for b.Loop() {
		for _, pipe := range []bool{false, true} {
			res, wall := playPaused(b, oneWay, pipe, 300)
			var pauses []time.Duration
			var setups []time.Duration
			for _, r := range res[1:] {
				pauses = append(pauses, r.Pause)
				setups = append(setups, r.Setup)
			}
			name := "plain"
			if pipe {
				name = "pipelined"
			}
			b.ReportMetric(msAt(pauses, 50), name+"-pause-ms-median")
			b.ReportMetric(msAt(setups, 50), name+"-setup-ms-median")
			b.ReportMetric(float64(wall.Milliseconds())/float64(len(res)), name+"-ms-per-hand")
			b.ReportMetric(float64(len(res)), name+"-hands")
			b.Logf("%s: pauses %v", name, pauses)
		}
	}
}

// BenchmarkCriticalPathPipelined is BenchmarkCriticalPath with the
// pipelined setup: the same two hands (hand 2 prepared during hand 1),
// with no delay and with every link delayed 100 ms one way, reported in
// hops (extra time / 100 ms). kyoku-hops, per hand, must be no more than
// BenchmarkCriticalPath's: a prepared pass never delays a turn.
// hand2-setup-hops is hand 2's setup, two hops by SPEC.md §22 when its
// passes were done during hand 1 (twelve without the pipeline). Run with
// -benchtime 1x.
func BenchmarkCriticalPathPipelined(b *testing.B) {
	const oneWay = 100 * time.Millisecond
	for b.Loop() {
		base := playHopsWith(b, 0, true)
		slow := playHopsWith(b, oneWay, true)
		_, bk, _ := base.segments()
		_, sk, _ := slow.segments()
		setup2 := func(r *hopRun) time.Duration {
			var su time.Duration = 1 << 62
			for i := range Players {
				s := r.stage[i][2]
				su = min(su, s["play"].Sub(s["passes"]))
			}
			return su
		}
		predicted := 0
		for h := 1; h <= hopHands; h++ {
			st := slow.steps[h]
			predicted += st["tsumo"] - 1 + st["turn"] + st["answer"] + st["call"] + st["declare"] + st["key release"]
		}
		b.ReportMetric(float64(sk-bk)/float64(oneWay)/hopHands, "kyoku-hops")
		b.ReportMetric(float64(predicted)/hopHands, "kyoku-hops-predicted")
		b.ReportMetric(float64(setup2(slow)-setup2(base))/float64(oneWay), "hand2-setup-hops")
	}
}

// playBotHands plays hands hands of four bots on a memnet.Network without
// latency (RTT 0), every node in this process, with the walls and the
// bots' decisions fixed by seed (the proofs' nonces come from crypto/rand
// and change nothing else, so the same seed plays the same hands with
// and without proofs). It returns player 0's results, the wall time and
// the process CPU time (user + system) of the whole run.
func playBotHands(b *testing.B, hands int, noProofs, noPipeline bool, seed byte) ([]HandResult, time.Duration, time.Duration) {
	return runBots(b, newFixedTable(b, seed), Config{Table: "cpu", Hands: hands, NoProofs: noProofs, NoPipeline: noPipeline}, uint64(seed),
		func(i int) io.Reader { return fixedRand(int(seed) + i) })
}

// BenchmarkBotHands plays six hands of four bots at RTT 0 in this process
// (the pipelined setup, the default), with proofs ("proofs") and then the
// same six hands without ("no-proofs"), then both with Config.NoPipeline
// ("no-pipeline/…"; six hands end the game, so no prepared pass is
// dropped), and reports per hand the wall and
// CPU time of each and the median pause between hands (HandResult.Pause,
// hands 2 on): the cost of the proofs over play (issue 18: ≤ 1.05× in
// wall time). Run "BotHands/^proofs$" alone with -cpuprofile to see where
// the proofs' CPU goes. The machine's other load moves every figure: to
// compare, run the two sub-benchmarks by turns (-count runs each N times
// in a row, not by turns; docs/BENCHMARKS.md has the loop).
func BenchmarkBotHands(b *testing.B) {
	const hands = 6
	for _, c := range []struct {
		name                 string
		noProofs, noPipeline bool
	}{{"proofs", false, false}, {"no-proofs", true, false}, {"no-pipeline/proofs", false, true}, {"no-pipeline/no-proofs", true, true}} {
		b.Run(c.name, func(b *testing.B) {
			var wall, cpu time.Duration
			var pauses []time.Duration
			for b.Loop() {
				res, w, cpu1 := playBotHands(b, hands, c.noProofs, c.noPipeline, 40)
				if len(res) != hands {
					b.Fatalf("%d hands, want %d", len(res), hands)
				}
				wall, cpu = wall+w, cpu+cpu1
				for _, r := range res[1:] {
					pauses = append(pauses, r.Pause)
				}
			}
			b.ReportMetric(float64(wall.Milliseconds())/float64(b.N*hands), "wall-ms/hand")
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N*hands), "cpu-ms/hand")
			b.ReportMetric(msAt(pauses, 50), "pause-ms-median")
		})
	}
}
