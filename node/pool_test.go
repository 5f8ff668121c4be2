package node

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	"github.com/multiformats/go-multiaddr"

	"github.com/mentalmj/mentalmj/protocol"
)

// TestPoolKeyIsTheNamespaceHash checks PoolKey against a second code path:
// the CIDv1 string of a raw block whose SHA2-256 digest is that of
// PoolNamespace, computed by hand from the multibase/multicodec/multihash
// prefixes (base32 "b", version 1, raw 0x55, sha2-256 0x12, length 0x20).
func TestPoolKeyIsTheNamespaceHash(t *testing.T) {
	k := PoolKey()
	b := k.Bytes()
	if len(b) != 4+32 || b[0] != 1 || b[1] != 0x55 || b[2] != 0x12 || b[3] != 0x20 {
		t.Fatalf("pool key bytes %x: want 01 55 12 20 + 32-byte digest", b)
	}
	if !strings.HasPrefix(k.String(), "bafkrei") { // base32 of 01 55 12 20
		t.Errorf("pool key %s: want a CIDv1 raw sha2-256 (bafkrei…)", k)
	}
}

func TestParsePoolAgent(t *testing.T) {
	d, n, err := ParsePoolAgent(PoolAgent(12*time.Hour, 256<<20))
	if err != nil || d != 12*time.Hour || n != 256<<20 {
		t.Fatalf("round trip: %s %d %v", d, n, err)
	}
	d, n, err = ParsePoolAgent("mentalmj-relay/pool duration=120s data=131072")
	if err != nil || d != 2*time.Minute || n != 128<<10 {
		t.Fatalf("written by hand: %s %d %v", d, n, err)
	}
	for _, bad := range []string{"", "mentalmj-relay", "kubo/0.30", "mentalmj-relay/pool",
		"mentalmj-relay/pool duration=120s", "mentalmj-relay/pool duration=120 data=1",
		"mentalmj-relay/pool duration=120s data=-1", "mentalmj-relay/pool duration=120s data=1 data=2",
		"mentalmj-relay/pool duration=120s data=1 x=1", "mentalmj-relay/pool duration=99999999999999999999s data=1"} {
		if _, _, err := ParsePoolAgent(bad); err == nil {
			t.Errorf("ParsePoolAgent(%q) accepted it", bad)
		}
	}
}

// startPoolRelay starts a pool relay on 127.0.0.1 (TCP) joining the DHT
// from boot, with circuit limits limit (nil: RelayCircuitDuration and
// RelayCircuitData) and, when announce is not nil, announcing those
// instead; it waits (at most 20 s) until it announced itself.
func startPoolRelay(tb testing.TB, ctx context.Context, boot *Relay, limit, announce *relay.RelayLimit) *Relay {
	tb.Helper()
	cfg := RelayConfig{Pool: true, Bootstrap: []peer.AddrInfo{relayInfo(tb, boot)}, AgentLimits: announce}
	if limit != nil {
		cfg.CircuitDuration, cfg.CircuitData = limit.Duration, limit.Data
	}
	r := startRelayWith(tb, tcpLoopback, cfg)
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := r.WaitAnnounced(wctx); err != nil {
		tb.Fatalf("pool relay %s: %v", r.ID(), err)
	}
	return r
}

// TestPoolRelayFoundAndCarriesAHand: a local DHT (a plain relay as the
// bootstrap peer, on 127.0.0.1) holds four pool relays: one lying about
// its limits (announces 12 h and 256 MiB, applies public relays' 2 min and
// 128 KiB), one honest with public limits, one whose relay service is
// gone (it refuses every reservation: it no longer speaks circuit relay
// v2) and a good one. FindPoolRelays returns the good one alone and names
// the three others with their faults; four nodes reserving on the relay
// found then play a hand through it, every stream on a circuit of the
// pool relay.
func TestPoolRelayFoundAndCarriesAHand(t *testing.T) {
	ctx := testContext(t, 2*time.Minute)
	boot := startRelay(t, tcpLoopback)
	public := &relay.RelayLimit{Duration: 2 * time.Minute, Data: 128 << 10}
	liar := startPoolRelay(t, ctx, boot, public, &relay.RelayLimit{Duration: RelayCircuitDuration, Data: RelayCircuitData})
	small := startPoolRelay(t, ctx, boot, public, nil)
	refusing := startPoolRelay(t, ctx, boot, nil, nil)
	_ = refusing.service.Close()
	good := startPoolRelay(t, ctx, boot, nil, nil)

	found, faults, err := FindPoolRelays(ctx, PoolConfig{Bootstrap: []peer.AddrInfo{relayInfo(t, boot)}, Want: 4, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].Info.ID != good.ID() {
		t.Fatalf("found %v, want the good relay %s alone; faults: %v", found, good.ID(), faults)
	}
	if found[0].Duration != RelayCircuitDuration || found[0].Data != RelayCircuitData {
		t.Errorf("good relay's limits %s %d, want %s %d", found[0].Duration, found[0].Data, RelayCircuitDuration, RelayCircuitData)
	}
	want := map[peer.ID]string{liar.ID(): "announces limits it does not apply", small.ID(): "too small to carry a game",
		refusing.ID(): "is not a circuit relay v2 relay"}
	for _, f := range faults {
		w, ok := want[f.Relay]
		if !ok {
			t.Errorf("fault of an unexpected relay: %v", f)
			continue
		}
		mustContain(t, "fault", f.Error(), f.Relay.String(), w)
		delete(want, f.Relay)
	}
	for id, w := range want {
		t.Errorf("relay %s not named (want %q); faults: %v", id, w, faults)
	}
	var lies PoolFault
	for _, f := range faults {
		if f.Relay == liar.ID() {
			lies = f
		}
	}
	if !errors.Is(lies, errLies) {
		t.Errorf("the liar's fault %v does not wrap errLies", lies)
	}

	nodes := startRelayedNodes(t, ctx, protocol.Players, good)
	seatViaRelay(t, ctx, nodes)
	checkRelayed(t, nodes, good)
	results := playHands(t, ctx, nodes, 1)
	for i, rs := range results {
		if len(rs) != 1 || len(rs[0].Blame) != 0 || len(rs[0].Yama) != 136 || !slices.Equal(rs[0].Yama, results[0][0].Yama) {
			t.Fatalf("player %d: %+v", i, rs)
		}
	}
	checkRelayed(t, nodes, good)
	for i, n := range nodes {
		for _, p := range n.Paths() {
			if p.Limited {
				t.Errorf("node %d: path %s marked limited through a pool relay whose circuits carry a game", i, p)
			}
		}
	}
}

// TestFindPoolRelaysEmptyPool: with no pool relay in the DHT the look-up
// ends by its timeout with nothing found and no error; with no bootstrap
// peer answering it returns an error naming the peer.
func TestFindPoolRelaysEmptyPool(t *testing.T) {
	ctx := testContext(t, time.Minute)
	boot := startRelay(t, tcpLoopback)
	found, faults, err := FindPoolRelays(ctx, PoolConfig{Bootstrap: []peer.AddrInfo{relayInfo(t, boot)}, Timeout: 3 * time.Second})
	if err != nil || len(found) != 0 || len(faults) != 0 {
		t.Fatalf("empty pool: found %v faults %v err %v", found, faults, err)
	}
	gone := relayInfo(t, boot)
	_ = boot.Close()
	_, _, err = FindPoolRelays(ctx, PoolConfig{Bootstrap: []peer.AddrInfo{gone}, Timeout: 3 * time.Second})
	if err == nil || !strings.Contains(err.Error(), gone.ID.String()) {
		t.Fatalf("no bootstrap peer: err %v, want one naming %s", err, gone.ID)
	}
}

// BenchmarkFindPoolRelays measures one look-up and check of the pool on a
// local DHT (a plain relay as bootstrap peer and one pool relay, on
// 127.0.0.1): joining the DHT, finding the provider, connecting, reading
// its agent and reserving.
func BenchmarkFindPoolRelays(b *testing.B) {
	ctx := testContext(b, 5*time.Minute)
	boot := startRelay(b, tcpLoopback)
	good := startPoolRelay(b, ctx, boot, nil, nil)
	cfg := PoolConfig{Bootstrap: []peer.AddrInfo{relayInfo(b, boot)}, Want: 1, Timeout: 20 * time.Second}
	for b.Loop() {
		found, _, err := FindPoolRelays(ctx, cfg)
		if err != nil || len(found) != 1 || found[0].Info.ID != good.ID() {
			b.Fatalf("found %v, err %v", found, err)
		}
	}
}

// TestDialsPreferPoolRelays: a node on the public network (a local DHT)
// whose relay (Config.Relays, as a pool
// relay found is given) is P ranks a peer's circuit through P before its
// circuit through a public relay Q, which waits publicCircuitDelay behind
// it, and leaves the direct address first; with no circuit through P the
// public one keeps libp2p's rank.
func TestDialsPreferPoolRelays(t *testing.T) {
	boot := startRelay(t, tcpLoopback)
	pool := startRelay(t, tcpLoopback)
	n := startNodes(t, 1, tcpLoopback, Config{Relays: []peer.AddrInfo{relayInfo(t, pool)}, Public: true, Bootstrap: []peer.AddrInfo{relayInfo(t, boot)}})[0]
	circuit := func(r *Relay) multiaddr.Multiaddr {
		return relayInfo(t, r).Addrs[0].Encapsulate(multiaddr.StringCast("/p2p/" + r.ID().String() + "/p2p-circuit"))
	}
	direct := multiaddr.StringCast("/ip4/127.0.0.1/tcp/9")
	viaPublic, viaPool := circuit(boot), circuit(pool)

	ranked := n.rankDials([]multiaddr.Multiaddr{viaPublic, direct, viaPool})
	pos := map[string]int{}
	delay := map[string]time.Duration{}
	for i, d := range ranked {
		pos[d.Addr.String()], delay[d.Addr.String()] = i, d.Delay
	}
	if pos[direct.String()] != 0 {
		t.Errorf("direct address ranked %d, want first: %v", pos[direct.String()], ranked)
	}
	if pos[viaPool.String()] > pos[viaPublic.String()] {
		t.Errorf("the public relay's circuit is dialled before the pool relay's: %v", ranked)
	}
	if delay[viaPublic.String()] < delay[viaPool.String()]+publicCircuitDelay {
		t.Errorf("public circuit delay %s, want at least %s after the pool circuit's %s", delay[viaPublic.String()], publicCircuitDelay, delay[viaPool.String()])
	}
	alone := n.rankDials([]multiaddr.Multiaddr{viaPublic, direct})
	plain := swarm.DefaultDialRanker([]multiaddr.Multiaddr{viaPublic, direct})
	if len(alone) != len(plain) {
		t.Fatalf("ranked %v, libp2p %v", alone, plain)
	}
	for i := range alone {
		if !alone[i].Addr.Equal(plain[i].Addr) || alone[i].Delay != plain[i].Delay {
			t.Errorf("with no pool circuit the rank changed: %v, libp2p %v", alone, plain)
		}
	}
}
