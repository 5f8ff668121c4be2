package lobby

import (
	"context"
	"slices"
	"testing"
	"time"
)

// BenchmarkOpenToListed measures, with the default Options, the time from
// a new node's start (libp2p host, gossipsub, connected to a node already
// in the lobby, table opened) to its table showing in a third node's
// lobby; it reports the median over the runs.
// go test -run XXX -bench OpenToListed -benchtime 10x ./node/lobby
func BenchmarkOpenToListed(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	mid, lh := newHostB(b), newHostB(b)
	relay, err := Join(ctx, mid, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer relay.Close()
	list, err := Join(ctx, lh, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer list.Close()
	connectB(b, lh, mid)
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		hh := newHostB(b)
		host, err := Join(ctx, hh, Options{})
		if err != nil {
			b.Fatal(err)
		}
		connectB(b, hh, mid)
		o, err := host.Open(ctx, announcement(4, 3))
		if err != nil {
			b.Fatal(err)
		}
		for !slices.ContainsFunc(list.Tables(), func(t Table) bool { return t.Host == hh.ID() }) {
			select {
			case <-list.Changed():
			case <-time.After(20 * time.Millisecond):
			case <-ctx.Done():
				b.Fatal("never listed")
			}
		}
		took = append(took, time.Since(start))
		o.Withdraw()
		host.Close()
		hh.Close()
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Milliseconds()), "median-ms")
	b.ReportMetric(float64(took[len(took)-1].Milliseconds()), "max-ms")
}
