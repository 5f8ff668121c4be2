package node

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
)

const (
	tcpLoopback  = "/ip4/127.0.0.1/tcp/0"
	quicLoopback = "/ip4/127.0.0.1/udp/0/quic-v1"
)

// startNodes starts count nodes with fresh identities listening on listen
// (a 127.0.0.1 address with port 0), without a table. They are closed when
// the test ends.
func startNodes(tb testing.TB, count int, listen string, cfg Config) []*Node {
	tb.Helper()
	addr, err := ParseListen(listen)
	if err != nil {
		tb.Fatal(err)
	}
	nodes := make([]*Node, count)
	for i := range nodes {
		key, err := NewIdentity()
		if err != nil {
			tb.Fatal(err)
		}
		c := cfg
		c.Identity = key
		c.Listen = []multiaddr.Multiaddr{addr}
		n, err := New(context.Background(), c)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { _ = n.Close() })
		nodes[i] = n
	}
	return nodes
}

// tableOf returns the peers of table as another player would configure
// them: from the printed full addresses, through ParsePeer.
func tableOf(tb testing.TB, table []*Node, except *Node) []peer.AddrInfo {
	tb.Helper()
	var out []peer.AddrInfo
	for _, n := range table {
		if n == except {
			continue
		}
		addrs := n.Addrs()
		if len(addrs) == 0 {
			tb.Fatalf("node %s has no address", n.ID())
		}
		info, err := ParsePeer(addrs[0].String())
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, info)
	}
	return out
}

// seat gives every node of table the others as its peers and connects
// them all concurrently, as four players starting together would.
func seat(tb testing.TB, ctx context.Context, table []*Node) {
	tb.Helper()
	seatWith(tb, ctx, table, tableOf)
}

// seatWith is seat with the peers' addresses chosen by addrsOf.
func seatWith(tb testing.TB, ctx context.Context, table []*Node, addrsOf func(testing.TB, []*Node, *Node) []peer.AddrInfo) {
	tb.Helper()
	for _, n := range table {
		if err := n.SetPeers(addrsOf(tb, table, n)); err != nil {
			tb.Fatal(err)
		}
	}
	errs := make([]error, len(table))
	var wg sync.WaitGroup
	for i, n := range table {
		wg.Go(func() { errs[i] = n.Connect(ctx) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			tb.Fatalf("node %d Connect: %v", i, err)
		}
	}
}

func testContext(tb testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	tb.Cleanup(cancel)
	return ctx
}
