package spectate

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/metrics"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/memnet"
	ppb "github.com/mentalmj/mentalmj/protocol/pb"
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

// childEnv names, in a spectator process of BenchmarkSpectators, the
// watch link and the peers to dial (TestSpectatorProcess).
const childEnv = "MENTALMJ_SPECTATE_BENCH_CHILD"

// windowProfileEnv, if set, is a directory where BenchmarkSpectators
// writes a CPU profile of each measured hand's window (the cpu-ms window),
// one file per hand, named spectators-N-*.prof: merge them with `go tool
// pprof -proto DIR/spectators-20-*.prof > 20.pb.gz`.
const windowProfileEnv = "MENTALMJ_SPECTATE_BENCH_PROFILE_DIR"

// spectatorCPUsEnv, if set, is the CPU list (taskset -c) the spectator
// processes of BenchmarkSpectators run on: with the benchmark itself run
// under taskset on the others, the spectators' own work no longer shares
// the players' cores.
const spectatorCPUsEnv = "MENTALMJ_SPECTATE_BENCH_SPECTATOR_CPUS"

// BenchmarkSpectators plays one hand at a four-player table (the game
// over memnet, the topic over libp2p on 127.0.0.1, player 0 the host and
// publisher) watched by 0, 1 and 20 spectators, each a process of its
// own (this test binary running TestSpectatorProcess) dialling the host
// and up to two other spectators, and reports:
//   - game-B: the bytes one player's game sent in the hand, averaged over
//     the four (every message counted once per recipient);
//   - public-B: the bytes of the hand's public entries, one copy each
//     (every player's broadcasts): the least that must leave the
//     players for spectators to have them all;
//   - host-topic-B: the bytes the host's node sent on libp2p during the
//     hand (its bandwidth counter: gossipsub with its control messages;
//     the guests' nodes send nothing there);
//   - topic-%: all the players' topic bytes over all their game bytes;
//     host-%: the host's topic bytes over its own game bytes;
//   - cpu-ms: the CPU time (user + system, getrusage RUSAGE_SELF: every
//     thread of this process, none of the spectator processes) of this
//     process, which runs the four players and the host's libp2p node
//     and gossipsub, from the hand's start until the game is over and
//     the Publisher has handed every entry to gossipsub;
//   - after-cpu-ms-per-s: the same process's CPU time per second in the
//     2 s after that (the host's gossipsub staying in the topic, its
//     heartbeats and the spectators' control messages; the same idle
//     window is measured with no spectators);
//   - delay-ms-p50, delay-ms-p90: from an entry's publication by the
//     host to a spectator taking it, all spectators pooled.
//
// With MENTALMJ_SPECTATE_BENCH_SPECTATOR_CPUS=1 and the benchmark run
// under `taskset -c 0`, the spectators run on CPU 1 and the players on
// CPU 0 (other processes of the machine still share both).
//
// MENTALMJ_SPECTATE_BENCH_PROFILE_DIR=DIR writes a CPU profile of each
// measured window to DIR.
//
// Before the first measured hand one hand is played unmeasured, so that
// no run carries the process's one-time costs (riichi's shanten tables,
// about 270 ms of CPU).
func BenchmarkSpectators(b *testing.B) {
	warm.Do(func() { benchTable(b, 0, false) })
	for _, n := range []int{0, 1, 20} {
		b.Run(map[int]string{0: "none", 1: "1", 20: "20"}[n], func(b *testing.B) {
			for range b.N {
				benchTable(b, n, true)
			}
		})
	}
}

// spectatorProc is one spectator process: its address, and the entries
// it took (hash hex -> when).
type spectatorProc struct {
	cmd  *exec.Cmd
	addr peer.AddrInfo
	mu   sync.Mutex
	took map[string]time.Time
	done chan struct{}
}

// startSpectator runs a spectator process dialling link's host and
// peers, and waits for its address.
func startSpectator(b *testing.B, ctx context.Context, link Link, peers []peer.AddrInfo) *spectatorProc {
	var dial []string
	for _, p := range append([]peer.AddrInfo{link.AddrInfo()}, peers...) {
		dial = append(dial, p.Addrs[0].String()+"/p2p/"+p.ID.String())
	}
	args := []string{os.Args[0], "-test.run=^TestSpectatorProcess$", "-test.v"}
	if cpus := os.Getenv(spectatorCPUsEnv); cpus != "" {
		args = append([]string{"taskset", "-c", cpus}, args...)
	}
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Env = append(os.Environ(), childEnv+"="+link.String()+" "+strings.Join(dial, " "))
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = stdin.Close(); _ = cmd.Wait() })
	sp := &spectatorProc{cmd: cmd, took: map[string]time.Time{}, done: make(chan struct{})}
	addr := make(chan peer.AddrInfo, 1)
	go func() {
		defer close(sp.done)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			switch {
			case len(f) == 2 && f[0] == "addr":
				info, err := peer.AddrInfoFromP2pAddr(multiaddr.StringCast(f[1]))
				if err == nil {
					addr <- *info
				}
			case len(f) == 3 && f[0] == "took":
				ns, _ := strconv.ParseInt(f[2], 10, 64)
				sp.mu.Lock()
				sp.took[f[1]] = time.Unix(0, ns)
				sp.mu.Unlock()
			}
		}
	}()
	select {
	case sp.addr = <-addr:
	case <-ctx.Done():
		b.Fatal("a spectator process never said its address")
	}
	return sp
}

// TestSpectatorProcess is a spectator process of BenchmarkSpectators (it
// skips unless childEnv is set): it watches the link, dials the peers,
// prints "addr MULTIADDR" then "took HASH UNIXNANO" for every entry taken,
// and stops when its stdin closes.
func TestSpectatorProcess(t *testing.T) {
	env := os.Getenv(childEnv)
	if env == "" {
		t.Skip("a spectator process of BenchmarkSpectators")
	}
	f := strings.Fields(env)
	link, err := ParseLink(f[0])
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	go func() {
		_, _ = bufio.NewReader(os.Stdin).ReadString(0)
		cancel()
	}()
	h := newHost(t, nil)
	w, err := NewWatch(ctx, h, link, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, a := range f[1:] {
		info, err := peer.AddrInfoFromP2pAddr(multiaddr.StringCast(a))
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Connect(ctx, *info); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	fmt.Fprintf(out, "addr %s/p2p/%s\n", h.Addrs()[0], h.ID())
	_ = out.Flush()
	_, _ = w.Run(ctx, func(o *protocol.Opened) {
		mu.Lock()
		fmt.Fprintf(out, "took %s %d\n", hex.EncodeToString(o.Hash[:]), time.Now().UnixNano())
		_ = out.Flush()
		mu.Unlock()
	}, nil)
	<-ctx.Done()
}

// cpuTime is this process's user + system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// warm plays BenchmarkSpectators' unmeasured first hand once per process.
var warm sync.Once

// afterWindow is the idle window after a hand in which BenchmarkSpectators
// measures the players' process's CPU.
const afterWindow = 2 * time.Second

// benchTable plays one hand watched by spectators and, if report, reports
// its metrics (BenchmarkSpectators).
func benchTable(b *testing.B, spectators int, report bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	newBenchHost := func(k crypto.PrivKey, bw *metrics.BandwidthCounter) host.Host {
		opts := []libp2p.Option{libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableRelay(), libp2p.DisableMetrics(), libp2p.Identity(k)}
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
	var procs []*spectatorProc
	for range spectators {
		var peers []peer.AddrInfo
		for _, i := range rand.Perm(len(procs))[:min(2, len(procs))] {
			peers = append(peers, procs[i].addr)
		}
		procs = append(procs, startSpectator(b, ctx, link, peers))
	}
	var pub *Publisher
	if spectators > 0 {
		var err error
		if pub, err = NewPublisher(ctx, hosts[0], link.Table, ids, Options{}); err != nil {
			b.Fatal(err)
		}
		// The spectators see the host subscribed, graft, and the host's
		// heartbeat takes D of them into its mesh.
		time.Sleep(2500 * time.Millisecond)
	}
	var (
		mu        sync.Mutex
		published = map[string]time.Time{}
		public    int64
	)
	before := make([]int64, 4)
	for i, bw := range bws {
		before[i] = bw.GetBandwidthTotals().TotalOut
	}
	var prof *os.File
	if dir := os.Getenv(windowProfileEnv); dir != "" && report {
		var err error
		if prof, err = os.CreateTemp(dir, fmt.Sprintf("spectators-%d-*.prof", spectators)); err != nil {
			b.Fatal(err)
		}
		if err := pprof.StartCPUProfile(prof); err != nil {
			b.Fatal(err)
		}
	}
	cpu0 := cpuTime()
	net := memnet.New()
	counters := make([]*countingTransport, 4)
	var gwg sync.WaitGroup
	for i := range 4 {
		counters[i] = &countingTransport{Transport: net.Transport(ids[i])}
		cfg := protocol.Config{Table: link.Table, Identity: keys[i], Peers: ids, Hands: 1, Transport: counters[i], Timeout: 30 * time.Second}
		if i == 0 {
			cfg.Publish = func(e protocol.PublicEntry) {
				// The entry's hash (protocol.Opened.Hash) without
				// verifying its signature again: this runs in the
				// process whose CPU is measured.
				var env ppb.Envelope
				if err := proto.Unmarshal(e.Envelope, &env); err == nil {
					h := sha256.Sum256(env.Entry)
					mu.Lock()
					published[hex.EncodeToString(h[:])] = time.Now()
					public += int64(len(e.Envelope))
					mu.Unlock()
				}
				if pub != nil {
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
	for pub != nil && pub.sent.Load() < int64(len(published)) && ctx.Err() == nil {
		time.Sleep(time.Millisecond)
	}
	cpu := cpuTime() - cpu0
	if prof != nil {
		pprof.StopCPUProfile()
		_ = prof.Close()
	}
	time.Sleep(afterWindow)
	after := cpuTime() - cpu0 - cpu
	if pub != nil {
		pub.Close(2 * time.Second)
	}
	if !report {
		return
	}
	var game, topic int64
	for i := range 4 {
		game += counters[i].bytes
		topic += bws[i].GetBandwidthTotals().TotalOut - before[i]
	}
	host := bws[0].GetBandwidthTotals().TotalOut - before[0]
	var delays []time.Duration
	for _, sp := range procs {
		sp.mu.Lock()
		for h, t := range sp.took {
			if p, ok := published[h]; ok {
				delays = append(delays, t.Sub(p))
			}
		}
		sp.mu.Unlock()
	}
	b.ReportMetric(float64(game)/4, "game-B")
	b.ReportMetric(float64(public), "public-B")
	b.ReportMetric(float64(len(published)), "entries")
	b.ReportMetric(float64(host), "host-topic-B")
	b.ReportMetric(100*float64(topic)/float64(game), "topic-%")
	b.ReportMetric(100*float64(host)/float64(counters[0].bytes), "host-%")
	b.ReportMetric(float64(cpu.Microseconds())/1000, "cpu-ms")
	b.ReportMetric(float64(after.Microseconds())/1000/afterWindow.Seconds(), "after-cpu-ms-per-s")
	if len(delays) > 0 {
		slices.Sort(delays)
		b.ReportMetric(float64(delays[len(delays)/2].Microseconds())/1000, "delay-ms-p50")
		b.ReportMetric(float64(delays[len(delays)*9/10].Microseconds())/1000, "delay-ms-p90")
		b.ReportMetric(float64(len(delays))/float64(len(published)*spectators), "taken-fraction")
	}
}

// BenchmarkSpectatorsIdle measures what twenty connected spectators cost
// the host's process when nothing is published: the host's node joins
// the topic as its publisher, twenty spectator processes (as in
// BenchmarkSpectators) dial it and each other, and after 5 s for the
// meshes to settle the process's CPU time (getrusage) over 10 s is
// reported per second.
func BenchmarkSpectatorsIdle(b *testing.B) {
	for range b.N {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		h, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableRelay(), libp2p.DisableMetrics())
		if err != nil {
			b.Fatal(err)
		}
		link := Link{Table: "bench", Host: h.ID(), Addrs: h.Addrs()}
		var procs []*spectatorProc
		for range 20 {
			var peers []peer.AddrInfo
			for _, i := range rand.Perm(len(procs))[:min(2, len(procs))] {
				peers = append(peers, procs[i].addr)
			}
			procs = append(procs, startSpectator(b, ctx, link, peers))
		}
		pub, err := NewPublisher(ctx, h, link.Table, []peer.ID{h.ID()}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		time.Sleep(5 * time.Second)
		const window = 10 * time.Second
		c0 := cpuTime()
		time.Sleep(window)
		b.ReportMetric(float64((cpuTime()-c0).Microseconds())/1000/window.Seconds(), "idle-cpu-ms-per-s")
		b.ReportMetric(float64(len(pub.s.topic.ListPeers())), "topic-peers")
		pub.Close(0)
		_ = h.Close()
		cancel()
	}
}
