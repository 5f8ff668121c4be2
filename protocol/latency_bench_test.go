package protocol

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/internal/latency"
	"github.com/mentalmj/mentalmj/player/bot"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// hopHands is how many hands BenchmarkCriticalPath plays per run.
const hopHands = 2

// hopRun is what one node saw of each hand of a run: when its setup,
// kyoku and key reveal began and when the hand ended, and (node 0) how
// many kyoku steps of each kind it went through.
type hopRun struct {
	stage [Players][hopHands + 1]map[string]time.Time // node, hand → stage → first seen
	ended [Players][hopHands + 1]time.Time
	steps [hopHands + 1]map[string]int
}

// playHops plays hopHands hands of the fixed table (the same walls and
// the same bot decisions every run) with every link delayed by oneWay and
// no jitter, without proofs, and records the stages' times.
func playHops(b *testing.B, oneWay time.Duration) *hopRun { return playHopsWith(b, oneWay, false) }

// playHopsWith is playHops, with the pipelined setup if pipeline is set.
func playHopsWith(b *testing.B, oneWay time.Duration, pipeline bool) *hopRun {
	tb := newFixedTable(b, 18)
	tb.net.SetLatency(latency.Link{OneWay: oneWay})
	run := &hopRun{}
	var mu sync.Mutex
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	for i := range tb.ids {
		for h := range run.stage[i] {
			run.stage[i][h] = map[string]time.Time{}
			run.steps[h] = map[string]int{}
		}
		bt := bot.New(uint64(180 + i))
		g, err := NewGame(Config{Table: "hops", Identity: tb.keys[i], Peers: tb.ids, Hands: hopHands,
			Transport: tb.net.Transport(tb.ids[i]), Timeout: time.Minute, NoProofs: true, Rand: fixedRand(180 + i), NoPipeline: !pipeline,
			Player: PlayerFunc(func(_ context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) { return bt.Choose(v, s) }),
			Observer: ObserverFunc(func(o Observation) {
				now := time.Now()
				mu.Lock()
				defer mu.Unlock()
				if o.Hand > hopHands {
					return
				}
				if _, seen := run.stage[i][o.Hand][o.Stage]; !seen {
					run.stage[i][o.Hand][o.Stage] = now
				}
				if i == 0 && o.Stage == "play" {
					run.steps[o.Hand][o.Step]++
				}
			}),
			OnHand: func(r HandResult) {
				mu.Lock()
				run.ended[i][r.Number] = time.Now()
				mu.Unlock()
			},
		})
		if err != nil {
			b.Fatal(err)
		}
		wg.Go(func() {
			if _, err := g.Run(ctx); err != nil {
				b.Errorf("player %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	return run
}

// segments returns, summed over the hands, the wall time of the setup
// (hand start to kyoku start) and of the end of the hand (key reveal and
// audit), each on the node that began it last (the others' include
// waiting for that node), and of the kyoku (to the key reveal) averaged
// over the nodes.
func (r *hopRun) segments() (setup, kyoku, end time.Duration) {
	for h := 1; h <= hopHands; h++ {
		var su, en time.Duration = 1 << 62, 1 << 62
		for i := range Players {
			s := r.stage[i][h]
			begin := s["seats and dice"]
			if t, ok := s["passes"]; ok {
				begin = t // a pipelined hand (pipeline.go)
			}
			su = min(su, s["play"].Sub(begin))
			kyoku += s["key reveal"].Sub(s["play"]) / Players
			en = min(en, r.ended[i][h].Sub(s["key reveal"]))
		}
		setup, end = setup+su, end+en
	}
	return setup, kyoku, end
}

// BenchmarkCriticalPath verifies SPEC.md §9.4's table of one-way hops by
// measurement: it plays the same two hands twice, once with no delay and
// once with every link delayed 100 ms one way, and reports the extra
// time of each part of a hand in hops (extra time / 100 ms) next to the
// hops the table predicts from the kyoku's steps. Predicted: 12 for the
// setup of a hand; for the kyoku one per tsumo (but the dealer's first,
// dealt with the haipai), turn, round of answers, round of calls,
// round of tenpai declarations and public decryption; 1 for the key
// reveal. The delay is large beside the computation of a hand without
// proofs, so that a loaded machine moves the figures by well under a hop.
// Run with -benchtime 1x (about 40 s).
func BenchmarkCriticalPath(b *testing.B) {
	const oneWay = 100 * time.Millisecond
	for b.Loop() {
		base := playHops(b, 0)
		slow := playHops(b, oneWay)
		bs, bk, be := base.segments()
		ss, sk, se := slow.segments()
		hops := func(fast, slow time.Duration) float64 { return float64(slow-fast) / float64(oneWay) / hopHands }
		predicted := 0
		events := 0
		for h := 1; h <= hopHands; h++ {
			st := slow.steps[h]
			predicted += st["tsumo"] - 1 + st["turn"] + st["answer"] + st["call"] + st["declare"] + st["key release"]
			events += st["tsumo"] + st["turn"] + st["answer"] + st["call"] + st["declare"] + st["key release"]
			b.Logf("hand %d steps: %v", h, st)
		}
		b.ReportMetric(hops(bs, ss), "setup-hops")
		b.ReportMetric(12, "setup-hops-predicted")
		b.ReportMetric(hops(bk, sk), "kyoku-hops")
		b.ReportMetric(float64(predicted)/hopHands, "kyoku-hops-predicted")
		b.ReportMetric(hops(be, se), "end-hops")
		b.ReportMetric(1, "end-hops-predicted")
		b.ReportMetric(float64(events)/hopHands, "kyoku-steps")
	}
}
