package spectate

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/metrics"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/memnet"
	"github.com/mentalmj/mentalmj/protocol/transport"
)

// countingTransport counts the bytes a player's game sends.
type countingTransport struct {
	transport.Transport
	mu    sync.Mutex
	bytes int64
}

func (c *countingTransport) Send(ctx context.Context, to peer.ID, msg []byte) error {
	c.mu.Lock()
	c.bytes += int64(len(msg))
	c.mu.Unlock()
	return c.Transport.Send(ctx, to, msg)
}

// BenchmarkSpectators plays one hand at a four-player table (the game
// over memnet, the topic over libp2p on 127.0.0.1) watched by
// b.N-independent sets of 0, 1 and 20 spectators, each dialling the
// host and two other spectators, and reports per player and hand the
// bytes the game sent (game-B), the bytes its node sent on the topic
// (topic-B, libp2p's bandwidth counter: gossipsub with its control
// messages; only the host's node is on the topic, so this is its bytes
// over four), the host's topic bytes over the whole table's game bytes
// (topic/game), and the median and 90th-percentile delay from an entry's
// recording by its author to a spectator taking it (delay-ms-p50,
// delay-ms-p90; all spectators pooled). The game over memnet sends
// without delay, so the delay is the topic's alone (a real table's
// one-way hop between players is not in it).
func BenchmarkSpectators(b *testing.B) {
	for _, n := range []int{0, 1, 20} {
		b.Run(map[int]string{0: "none", 1: "1", 20: "20"}[n], func(b *testing.B) {
			for range b.N {
				benchTable(b, n)
			}
		})
	}
}

func benchTable(b *testing.B, spectators int) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	newBenchHost := func(k crypto.PrivKey, bw *metrics.BandwidthCounter) host.Host {
		opts := []libp2p.Option{libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableRelay(), libp2p.DisableMetrics()}
		if k != nil {
			opts = append(opts, libp2p.Identity(k))
		}
		if bw != nil {
			opts = append(opts, libp2p.BandwidthReporter(bw))
		}
		h, err := libp2p.New(opts...)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = h.Close() })
		return h
	}
	var keys []crypto.PrivKey
	var ids []peer.ID
	var hosts []host.Host
	var bws []*metrics.BandwidthCounter
	for range 4 {
		k, _, _ := crypto.GenerateEd25519Key(nil)
		bw := metrics.NewBandwidthCounter()
		h := newBenchHost(k, bw)
		keys, ids, hosts, bws = append(keys, k), append(ids, h.ID()), append(hosts, h), append(bws, bw)
	}
	for i := 1; i < 4; i++ {
		for j := range i {
			if err := hosts[i].Connect(ctx, peer.AddrInfo{ID: hosts[j].ID(), Addrs: hosts[j].Addrs()}); err != nil {
				b.Fatal(err)
			}
		}
	}
	link := Link{Table: "bench", Host: ids[0], Addrs: hosts[0].Addrs()}
	var pub *Publisher
	if spectators > 0 {
		var err error
		if pub, err = NewPublisher(ctx, hosts[0], link.Table, ids, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	var (
		mu        sync.Mutex
		published = map[[32]byte]time.Time{}
		delays    []time.Duration
	)
	var watches []*Watch
	var shosts []host.Host
	for range spectators {
		h := newBenchHost(nil, nil)
		w, err := NewWatch(ctx, h, link, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(w.Close)
		peers := []peer.AddrInfo{link.AddrInfo()}
		for _, i := range rand.Perm(len(shosts))[:min(2, len(shosts))] {
			peers = append(peers, peer.AddrInfo{ID: shosts[i].ID(), Addrs: shosts[i].Addrs()})
		}
		for _, p := range peers {
			if err := h.Connect(ctx, p); err != nil {
				b.Fatal(err)
			}
		}
		watches, shosts = append(watches, w), append(shosts, h)
	}
	for _, w := range watches {
		for !slices.Contains(w.s.topic.ListPeers(), link.Host) && ctx.Err() == nil {
			time.Sleep(20 * time.Millisecond)
		}
	}
	time.Sleep(1500 * time.Millisecond) // the meshes form; the publishers hold nothing back
	wctx, wcancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, w := range watches {
		wg.Go(func() {
			_, _ = w.Run(wctx, func(o *protocol.Opened) {
				now := time.Now()
				mu.Lock()
				if t, ok := published[o.Hash]; ok {
					delays = append(delays, now.Sub(t))
				}
				mu.Unlock()
			}, nil)
		})
	}
	before := make([]int64, 4)
	for i, bw := range bws {
		before[i] = bw.GetBandwidthTotals().TotalOut
	}
	net := memnet.New()
	counters := make([]*countingTransport, 4)
	var gwg sync.WaitGroup
	for i := range 4 {
		counters[i] = &countingTransport{Transport: net.Transport(ids[i])}
		cfg := protocol.Config{Table: link.Table, Identity: keys[i], Peers: ids, Hands: 1, Transport: counters[i], Timeout: 30 * time.Second}
		if spectators > 0 {
			self := ids[i]
			cfg.Publish = func(e protocol.PublicEntry) {
				if e.Sender == self { // recorded by its author: the delay's start
					if o, err := protocol.Open(e.Envelope); err == nil {
						mu.Lock()
						published[o.Hash] = time.Now()
						mu.Unlock()
					}
				}
				if self == ids[0] {
					pub.Publish(e)
				}
			}
		}
		g, err := protocol.NewGame(cfg)
		if err != nil {
			b.Fatal(err)
		}
		gwg.Go(func() {
			if _, err := g.Run(ctx); err != nil {
				b.Error(err)
			}
		})
	}
	gwg.Wait()
	if pub != nil {
		pub.Close(2 * time.Second)
	}
	wcancel()
	wg.Wait()
	var game, topic int64
	for i := range 4 {
		game += counters[i].bytes
		topic += bws[i].GetBandwidthTotals().TotalOut - before[i]
	}
	b.ReportMetric(float64(game)/4, "game-B")
	b.ReportMetric(float64(topic)/4, "topic-B")
	b.ReportMetric(float64(topic)/float64(game), "topic/game")
	if len(delays) > 0 {
		slices.Sort(delays)
		b.ReportMetric(float64(delays[len(delays)/2].Microseconds())/1000, "delay-ms-p50")
		b.ReportMetric(float64(delays[len(delays)*9/10].Microseconds())/1000, "delay-ms-p90")
	}
}
