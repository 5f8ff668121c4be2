package node

import (
	"context"
	"testing"
	"time"
)

// benchPair starts two connected nodes on listen for a benchmark.
func benchPair(b *testing.B, listen string) (*Node, *Node, context.Context) {
	ctx := testContext(b, 5*time.Minute)
	nodes := startNodes(b, 2, listen, Config{})
	seat(b, ctx, nodes)
	return nodes[0], nodes[1], ctx
}

// BenchmarkRoundTrip measures one small (32-byte) message from a to b and
// b's echo back, over loopback: the latency of one lockstep exchange.
func BenchmarkRoundTrip(b *testing.B) {
	for _, tc := range []struct{ name, listen string }{{"tcp", tcpLoopback}, {"quic", quicLoopback}} {
		b.Run(tc.name, func(b *testing.B) {
			a, peer, ctx := benchPair(b, tc.listen)
			echoErr := make(chan error, 1)
			go func() {
				for {
					msg, err := peer.Recv(ctx, a.ID())
					if err != nil {
						echoErr <- err
						return
					}
					if err := peer.Send(ctx, a.ID(), msg); err != nil {
						echoErr <- err
						return
					}
				}
			}()
			msg := make([]byte, 32)
			b.ReportAllocs()
			for b.Loop() {
				if err := a.Send(ctx, peer.ID(), msg); err != nil {
					b.Fatal(err)
				}
				if _, err := a.Recv(ctx, peer.ID()); err != nil {
					b.Fatal(err)
				}
			}
			select {
			case err := <-echoErr:
				b.Fatal(err)
			default:
			}
		})
	}
}

// BenchmarkOneWayDeck measures one 4352-byte message (a 136-element deck
// of 32-byte ristretto255 elements) from Send on a until Recv on b returns
// it, over loopback.
func BenchmarkOneWayDeck(b *testing.B) {
	const deck = 136 * 32
	for _, tc := range []struct{ name, listen string }{{"tcp", tcpLoopback}, {"quic", quicLoopback}} {
		b.Run(tc.name, func(b *testing.B) {
			a, peer, ctx := benchPair(b, tc.listen)
			msg := make([]byte, deck)
			b.SetBytes(deck)
			b.ReportAllocs()
			for b.Loop() {
				if err := a.Send(ctx, peer.ID(), msg); err != nil {
					b.Fatal(err)
				}
				got, err := peer.Recv(ctx, a.ID())
				if err != nil || len(got) != deck {
					b.Fatalf("Recv: %d bytes, %v", len(got), err)
				}
			}
		})
	}
}
