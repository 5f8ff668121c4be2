package mjaibot

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// TestMain runs the test binary as an instant mjai bot when
// MJAIBOT_HELPER is set: on an event with "can_act": true it discards the
// tile it just drew (tsumogiri) or passes, with no thinking at all. The
// benchmark uses it to measure what the seat adds per decision.
func TestMain(m *testing.M) {
	if os.Getenv("MJAIBOT_HELPER") == "" {
		os.Exit(m.Run())
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	var seat int
	for in.Scan() {
		var e struct {
			Type   string `json:"type"`
			Actor  int    `json:"actor"`
			ID     int    `json:"id"`
			Pai    string `json:"pai"`
			CanAct bool   `json:"can_act"`
		}
		json.Unmarshal(in.Bytes(), &e)
		if e.Type == "start_game" {
			seat = e.ID
		}
		if !e.CanAct {
			continue
		}
		if e.Type == "tsumo" && e.Actor == seat {
			fmt.Fprintf(out, `{"type":"dahai","actor":%d,"pai":%q,"tsumogiri":true}`+"\n", seat, e.Pai)
		} else {
			out.WriteString(`{"type":"none"}` + "\n")
		}
		out.Flush()
	}
	os.Exit(0)
}

// BenchmarkDecision measures what an mjai seat costs per decision of seat
// 0 with the instant helper bot: Observe at every step (the events of
// the other seats' draws and discards, written to the bot), and on seat
// 0's turns Observe + Act (the write, the helper's reply through the pipe,
// the mapping to a legal action). Everything but the helper's JSON
// decoding is the seat's own cost, so the figure bounds what an mjai seat
// adds per decision beyond the bot's thinking. Other seats discard their
// drawn tile; every tile on offer is passed.
func BenchmarkDecision(b *testing.B) {
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	var logs syncBuffer
	p, err := Start(Config{Command: "MJAIBOT_HELPER=1 exec " + self, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	var spent time.Duration
	decisions := 0
	ctx := context.Background()
	for decisions < b.N {
		yama := wall.FourPlayer.Set()
		rng.Shuffle(len(yama), func(i, j int) { yama[i], yama[j] = yama[j], yama[i] })
		var d game.Deal
		for s := range 4 {
			for _, pos := range wall.FourPlayer.Haipai(s) {
				d.Haipai[s] = append(d.Haipai[s], yama[pos])
			}
			d.Scores[s] = 25000
		}
		d.DoraIndicator = yama[wall.FourPlayer.DoraIndicatorIndex(0)]
		k, err := game.NewKyoku(game.TenhouRules(true, true, true), d)
		if err != nil {
			b.Fatal(err)
		}
		for k.Phase() != game.PhaseEnd && decisions < b.N {
			if k.Phase() != game.PhaseTurn || k.Turn() != 0 {
				// The protocol shows the seat every step.
				start := time.Now()
				p.observe(k.Clone(), 0, false)
				spent += time.Since(start)
			}
			switch k.Phase() {
			case game.PhaseDraw:
				_, pos, _, _ := k.NextDraw()
				if _, err := k.Draw(yama[pos]); err != nil {
					b.Fatal(err)
				}
			case game.PhaseTurn:
				s := k.Turn()
				var a game.Action
				if s == 0 {
					start := time.Now()
					p.observe(k.Clone(), 0, true)
					a, err = p.Act(ctx, k.Clone(), 0)
					spent += time.Since(start)
					decisions++
				} else {
					tiles, _ := k.Hand(s)
					a = game.Action{Type: game.Discard, Seat: s, Tile: tiles[len(tiles)-1]}
				}
				if err != nil {
					b.Fatal(err)
				}
				if err := k.Apply(a); err != nil {
					a = game.Action{Type: game.Discard, Seat: s}
					for _, l := range k.LegalActions(s) {
						if l.Type == game.Discard && !l.Riichi {
							a = l
						}
					}
					if err := k.Apply(a); err != nil {
						b.Fatal(err)
					}
				}
			case game.PhaseResponse:
				if err := k.Apply(game.Action{Type: game.Pass, Seat: k.Awaiting()[0]}); err != nil {
					b.Fatal(err)
				}
			default:
				b.Fatalf("phase %v", k.Phase())
			}
		}
		p.observe(k.Clone(), 0, false)
	}
	if logs.String() != "" {
		b.Fatalf("the helper bot was not followed:\n%s", logs.String())
	}
	b.ReportMetric(float64(spent.Microseconds())/float64(decisions), "µs/decision")
	b.ReportMetric(0, "ns/op")
}
