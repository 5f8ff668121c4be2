package spectate

import (
	"context"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/internal/watchfixture"
	"github.com/mentalmj/mentalmj/protocol"
)

func benchHost(b *testing.B) host.Host {
	b.Helper()
	h, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableRelay(), libp2p.DisableMetrics())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = h.Close() })
	return h
}

// BenchmarkCatchUp measures a late spectator's catch-up (CatchUpProtocol)
// over libp2p on 127.0.0.1: a host whose Publisher published four whole
// hands of a bot game (four players, proofs on) answers a spectator that
// asks for what it missed; the answer is everything published (the
// Hellos and the four hands), every message checked as the topic's
// validator checks one. It reports the messages and bytes of one answer, and the time of
// the round trip (request, answer, checks).
func BenchmarkCatchUp(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	g, err := watchfixture.Play(ctx, 4, 4)
	if err != nil {
		b.Fatal(err)
	}
	hh := benchHost(b)
	var players []peer.ID
	seen := map[peer.ID]bool{}
	for _, o := range g.Entries {
		if !seen[o.Sender] {
			seen[o.Sender] = true
			players = append(players, o.Sender)
		}
	}
	// hh publishes the fixture's entries (played over memnet by the
	// fixture's own identities) and answers the catch-up.
	link := Link{Table: "watched", Host: hh.ID(), Addrs: hh.Addrs()}
	pub, err := NewPublisher(ctx, hh, link.Table, players, Options{CatchUpEvery: time.Nanosecond})
	if err != nil {
		b.Fatal(err)
	}
	defer pub.Close(0)
	for i, o := range g.Entries {
		pub.Publish(protocol.PublicEntry{Envelope: o.Envelope, Sender: o.Sender, Index: uint64(i)})
	}
	for {
		pub.cu.mu.Lock()
		n := len(pub.cu.history)
		pub.cu.mu.Unlock()
		if n == len(g.Entries) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	sh := benchHost(b)
	if err := sh.Connect(ctx, link.AddrInfo()); err != nil {
		b.Fatal(err)
	}
	// The spectator checks the entries against the fixture's host (whose
	// Hello names the players) and asks hh.
	w, err := NewWatch(ctx, sh, Link{Table: link.Table, Host: g.Entries[0].Sender, Addrs: hh.Addrs()}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	w.link.Host = hh.ID()
	var entries, size int
	b.ResetTimer()
	for range b.N {
		es, err := w.CatchUp(ctx, 0)
		if err != nil {
			b.Fatal(err)
		}
		entries, size = len(es), 0
		for _, p := range es {
			size += len(p.entry.Envelope)
		}
	}
	b.ReportMetric(float64(entries), "messages/catch-up")
	b.ReportMetric(float64(size), "envelope-B/catch-up")
	b.ReportMetric(float64(len(g.Entries)), "published")
}
