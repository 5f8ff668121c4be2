package protocol

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/internal/latency"
)

// TestHandOverJitteryNetwork plays a hand over links with jitter as large
// as their delay: every player completes it, and all four audits agree on
// the wall (the second code path is the audit of each transcript).
func TestHandOverJitteryNetwork(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	tb.net.SetLatency(latency.Link{OneWay: time.Millisecond, Jitter: time.Millisecond})
	out := tb.play(t, 1, func(_ int, c *Config) { c.NoProofs = true })
	for i, o := range out {
		if o.err != nil {
			t.Fatalf("player %d: %v", i, o.err)
		}
		if o.results[0].Yama == nil || !slices.Equal(o.results[0].Yama, out[0].results[0].Yama) {
			t.Fatalf("player %d's audited wall differs from player 0's", i)
		}
	}
}

// TestPauseCoversTheCriticalPath plays two hands over links of a fixed
// one-way delay L: a hand cannot become playable sooner than the one-way
// hops of its setup after this node's previous hand ended, each waiting
// for the one before. Without the pipeline that is twelve (SPEC.md §9.4:
// seat commitment and reveal, four shuffle and four rekey passes, the
// haipai keys and the dora indicator); with it (the default) hand 1 still
// has the twelve and a later hand at least two (§22: the commitments,
// then the reveals, haipai and dora indicator together). Every
// HandResult.Pause is at least that many times L, and at least the hand's
// own Setup, which it contains.
func TestPauseCoversTheCriticalPath(t *testing.T) {
	t.Parallel()
	const oneWay = 4 * time.Millisecond
	for _, noPipeline := range []bool{true, false} {
		t.Run(fmt.Sprintf("no-pipeline=%v", noPipeline), func(t *testing.T) {
			tb := newTable(t)
			tb.net.SetLatency(latency.Link{OneWay: oneWay})
			out := tb.play(t, 2, func(_ int, c *Config) { c.NoProofs, c.NoPipeline = true, noPipeline })
			for i, o := range out {
				if o.err != nil {
					t.Fatalf("player %d: %v", i, o.err)
				}
				for _, r := range o.results {
					hops := 12
					if !noPipeline && r.Number > 1 {
						hops = 2
					}
					if r.Pause < time.Duration(hops)*oneWay {
						t.Errorf("player %d hand %d: pause %s, less than %d one-way hops (%s)", i, r.Number, r.Pause, hops, time.Duration(hops)*oneWay)
					}
					if r.Pause < r.Setup {
						t.Errorf("player %d hand %d: pause %s shorter than the setup %s it contains", i, r.Number, r.Pause, r.Setup)
					}
				}
			}
		})
	}
}
