package protocol

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/internal/latency"
)

// TestMemNetworkLatencyKeepsOrder sends numbered messages over a link
// whose jitter is larger than the gap between them: they arrive complete
// and in the order sent, none before its one-way delay less the jitter.
func TestMemNetworkLatencyKeepsOrder(t *testing.T) {
	tb := newTableN(t, 3)
	a, b := tb.ids[0], tb.ids[1]
	link := latency.Link{OneWay: 5 * time.Millisecond, Jitter: 5 * time.Millisecond}
	tb.net.SetLink(a, b, link)
	ta, tr := tb.net.Transport(a), tb.net.Transport(b)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	const n = 200
	sent := make([]time.Time, n)
	for i := range n {
		sent[i] = time.Now()
		if err := ta.Send(ctx, b, []byte(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
		if i%20 == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	for i := range n {
		m, err := tr.Recv(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if string(m) != fmt.Sprint(i) {
			t.Fatalf("message %d arrived as %q", i, m)
		}
		if d := time.Since(sent[i]); d < link.OneWay-link.Jitter {
			t.Fatalf("message %d arrived after %s, before the link's least delay", i, d)
		}
	}
	// The other direction was given no delay of its own.
	if err := tr.Send(ctx, a, []byte("back")); err != nil {
		t.Fatal(err)
	}
	if m, err := ta.Recv(ctx, b); err != nil || string(m) != "back" {
		t.Fatalf("undelayed direction: %q, %v", m, err)
	}
}

// TestMemNetworkLatencyDisconnect: messages sent before a peer's node
// crashed are still delivered after their delay, then ErrPeerGone.
func TestMemNetworkLatencyDisconnect(t *testing.T) {
	tb := newTableN(t, 3)
	a, b := tb.ids[0], tb.ids[1]
	tb.net.SetLatency(latency.Link{OneWay: 20 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := tb.net.Transport(a).Send(ctx, b, []byte("last words")); err != nil {
		t.Fatal(err)
	}
	tb.net.Disconnect(a)
	tr := tb.net.Transport(b)
	if m, err := tr.Recv(ctx, a); err != nil || string(m) != "last words" {
		t.Fatalf("in-flight message: %q, %v", m, err)
	}
	if _, err := tr.Recv(ctx, a); err == nil {
		t.Fatal("Recv after the last message of a crashed peer succeeded")
	}
}

// TestHandOverJitteryNetwork plays a hand over links with jitter as large
// as their delay: every player completes it, and all four audits agree on
// the wall (the second code path is the audit of each transcript).
func TestHandOverJitteryNetwork(t *testing.T) {
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
