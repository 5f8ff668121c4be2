package node

import (
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ipfs/go-cid"
	"github.com/libp2p/go-libp2p"
	dht "github.com/libp2p/go-libp2p-kad-dht"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	quic "github.com/libp2p/go-libp2p/p2p/transport/quic"
	"github.com/libp2p/go-libp2p/p2p/transport/tcp"
	"github.com/multiformats/go-multihash"
)

// The community relay pool: relays that anyone runs ("mentalmj relay
// --pool") for players who cannot reach each other, modelled on
// Syncthing's relay pool but with no pool server: the public Kademlia DHT
// is the pool. A pool relay announces itself as a provider of PoolKey (a
// provider record, go-libp2p-kad-dht's Provide, renewed every
// poolReprovide) and states the circuit limits it offers in its identify
// agent version (PoolAgent), which every peer that connects reads. A node
// looks the pool up (FindPoolRelays) before it starts, checks each relay
// found by reserving a slot on it (circuit relay v2 RESERVE; the
// reservation states the limits the relay really applies) and keeps those
// whose limits carry a game and match what they announce; the others are
// named, never a player.

// PoolNamespace is the versioned name the pool's DHT key is derived
// from: PoolKey is the CID (v1, raw codec) of its SHA2-256 multihash.
// A pool with other rules takes a new version.
const PoolNamespace = "/mentalmj/relay-pool/1"

// PoolKey returns the DHT key pool relays provide (Provide) and nodes look
// up (FindProvidersAsync): CIDv1, raw codec (0x55), SHA2-256 of
// PoolNamespace.
func PoolKey() cid.Cid {
	sum := sha256.Sum256([]byte(PoolNamespace))
	mh, err := multihash.Encode(sum[:], multihash.SHA2_256)
	if err != nil {
		panic(fmt.Sprintf("pool key: %v", err)) // a 32-byte SHA2-256 digest always encodes
	}
	return cid.NewCidV1(cid.Raw, mh)
}

// poolAgentPrefix starts a pool relay's identify agent version.
const poolAgentPrefix = "mentalmj-relay/pool"

// PoolAgent is the identify agent version of a pool relay offering
// circuits of duration and data bytes per direction:
// "mentalmj-relay/pool duration=43200s data=268435456" (duration in
// whole seconds, data in bytes; 0 for no limit).
func PoolAgent(duration time.Duration, data int64) string {
	return fmt.Sprintf("%s duration=%ds data=%d", poolAgentPrefix, int64(duration/time.Second), data)
}

// ParsePoolAgent reads the limits PoolAgent wrote: the circuit duration
// and bytes per direction (0: no limit). It returns an error for an agent
// that is not a pool relay's or is malformed (unknown or repeated field,
// a negative or non-numeric value).
func ParsePoolAgent(agent string) (time.Duration, int64, error) {
	fields := strings.Fields(agent)
	if len(fields) == 0 || fields[0] != poolAgentPrefix {
		return 0, 0, fmt.Errorf("agent %q is not a pool relay's (%q …)", agent, poolAgentPrefix)
	}
	var dur time.Duration
	var data int64
	seen := map[string]bool{}
	for _, f := range fields[1:] {
		k, v, ok := strings.Cut(f, "=")
		if !ok || seen[k] {
			return 0, 0, fmt.Errorf("agent %q: bad or repeated field %q", agent, f)
		}
		seen[k] = true
		switch k {
		case "duration":
			s, err := strconv.ParseInt(strings.TrimSuffix(v, "s"), 10, 64)
			if err != nil || s < 0 || s > int64(1<<62/time.Second) || !strings.HasSuffix(v, "s") {
				return 0, 0, fmt.Errorf("agent %q: duration %q is not whole seconds like 43200s", agent, v)
			}
			dur = time.Duration(s) * time.Second
		case "data":
			d, err := strconv.ParseInt(v, 10, 64)
			if err != nil || d < 0 {
				return 0, 0, fmt.Errorf("agent %q: data %q is not a byte count", agent, v)
			}
			data = d
		default:
			return 0, 0, fmt.Errorf("agent %q: unknown field %q", agent, k)
		}
	}
	if !seen["duration"] || !seen["data"] {
		return 0, 0, fmt.Errorf("agent %q: duration and data are both required", agent)
	}
	return dur, data, nil
}

// poolReprovide is how often a pool relay renews its provider record
// (records on the public DHT expire after 48 h; kubo reprovides every
// 22 h); announcing fails are retried after poolRetry.
const (
	poolReprovide = 12 * time.Hour
	poolRetry     = 30 * time.Second
)

// announcePool joins the DHT from bootstrap and provides PoolKey, again
// every poolReprovide (poolRetry after a failure), until ctx is done. It
// closes announced after the first success.
func (r *Relay) announcePool(ctx context.Context, bootstrap []peer.AddrInfo, announced chan struct{}) {
	once := sync.Once{}
	for {
		err := r.announceOnce(ctx, bootstrap)
		wait := poolReprovide
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			r.log.Warn("announcing in the relay pool failed, retrying", "retry_in", poolRetry.String(), "err", err)
			wait = poolRetry
		} else {
			r.log.Info("announced in the relay pool", "key", PoolKey().String())
			once.Do(func() { close(announced) })
		}
		if !sleepCtx(ctx, wait) {
			return
		}
	}
}

// announceOnce connects to the bootstrap peers, refreshes the routing
// table and provides PoolKey.
func (r *Relay) announceOnce(ctx context.Context, bootstrap []peer.AddrInfo) error {
	reached := 0
	var errs []error
	for _, b := range bootstrap {
		bctx, cancel := context.WithTimeout(ctx, bootstrapTimeout)
		err := r.host.Connect(bctx, b)
		cancel()
		if err != nil {
			errs = append(errs, fmt.Errorf("bootstrap peer %s: %w", b.ID, err))
			continue
		}
		reached++
	}
	if reached == 0 && r.dht.RoutingTable().Size() == 0 {
		return fmt.Errorf("no bootstrap peer answered: %w", errors.Join(errs...))
	}
	if err := fillRoutingTable(ctx, r.dht); err != nil {
		return err
	}
	pctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := r.dht.Provide(pctx, PoolKey(), true); err != nil {
		return fmt.Errorf("providing the pool key %s: %w", PoolKey(), err)
	}
	return nil
}

// routingWait bounds how long fillRoutingTable waits for the first DHT
// server in the routing table (identify tells the DHT which of the peers
// connected are servers, a moment after the connection).
const routingWait = 10 * time.Second

// fillRoutingTable starts a refresh of d's routing table and waits until
// it holds a peer, at most routingWait.
func fillRoutingTable(ctx context.Context, d *dht.IpfsDHT) error {
	if err := d.Bootstrap(ctx); err != nil {
		return fmt.Errorf("filling the DHT's routing table: %w", err)
	}
	deadline := time.Now().Add(routingWait)
	for d.RoutingTable().Size() == 0 {
		if time.Now().After(deadline) {
			return fmt.Errorf("no DHT server in the routing table after %s (the bootstrap peers answered but none serves the DHT)", routingWait)
		}
		if !sleepCtx(ctx, 50*time.Millisecond) {
			return fmt.Errorf("filling the DHT's routing table: %w", ctx.Err())
		}
	}
	<-d.RefreshRoutingTable()
	return nil
}

// WaitAnnounced waits until the relay (RelayConfig.Pool) has announced
// itself in the pool once, or ctx is done (its error), or returns an
// error at once for a relay not in the pool.
func (r *Relay) WaitAnnounced(ctx context.Context) error {
	if r.announced == nil {
		return errors.New("relay is not in the pool (RelayConfig.Pool is off)")
	}
	select {
	case <-r.announced:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("announcing in the relay pool: %w", ctx.Err())
	}
}

// PoolRelay is a pool relay FindPoolRelays checked: its address and the
// circuit limits its reservation stated (0: none).
type PoolRelay struct {
	Info peer.AddrInfo
	// Duration and Data are the circuit limits (duration, bytes per
	// direction) the relay's reservation stated.
	Duration time.Duration
	Data     uint64
}

// PoolConfig configures FindPoolRelays.
type PoolConfig struct {
	// Bootstrap lists the DHT peers to join from (DefaultBootstrapPeers
	// when empty).
	Bootstrap []peer.AddrInfo
	// Want is how many good relays to return at most (2 when 0).
	Want int
	// Timeout bounds the whole look-up and check (15 s when 0).
	Timeout time.Duration
	// Logger receives the look-up's logs; nil discards them.
	Logger *slog.Logger
}

// PoolFault is a pool relay FindPoolRelays skipped, and why: it could not
// be reached, refused the reservation, announced limits it does not
// apply, or offers circuits too small to carry a game. It is the relay's
// fault, never a player's.
type PoolFault struct {
	Relay peer.ID
	Err   error
}

func (f PoolFault) Error() string {
	return fmt.Sprintf("pool relay %s skipped: %v", f.Relay, f.Err)
}
func (f PoolFault) Unwrap() error { return f.Err }

// errLies is wrapped by a PoolFault for a relay whose reservation states
// smaller limits than its announcement.
var errLies = errors.New("announces limits it does not apply")

// FindPoolRelays looks the relay pool up on the DHT (providers of
// PoolKey) from a short-lived host of its own (a fresh key, TCP and QUIC,
// listening nowhere), and checks each relay found in turn: it connects,
// reads the limits announced in its agent version (ParsePoolAgent),
// reserves a slot (circuit relay v2) and compares the limits the
// reservation states with those announced. It returns the relays that
// passed (at most cfg.Want, in the order found) and a PoolFault for
// every relay skipped. The error is non-nil when the DHT could not be
// joined or ctx ended first; relays checked by then are still returned.
// The host closes before it returns, which ends its reservations (the
// node reserves again on the relays it is given).
func FindPoolRelays(ctx context.Context, cfg PoolConfig) ([]PoolRelay, []PoolFault, error) {
	want, timeout, log := cfg.Want, cfg.Timeout, cfg.Logger
	if want <= 0 {
		want = 2
	}
	if timeout <= 0 {
		timeout = 15 * time.Second
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	bootstrap := cfg.Bootstrap
	if len(bootstrap) == 0 {
		bootstrap = DefaultBootstrapPeers()
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	h, err := libp2p.New(libp2p.NoListenAddrs, libp2p.Transport(tcp.NewTCPTransport), libp2p.Transport(quic.NewTransport),
		libp2p.DisableRelay(), libp2p.DisableMetrics(), libp2p.UserAgent("mentalmj-pool-lookup"))
	if err != nil {
		return nil, nil, fmt.Errorf("relay pool look-up: starting a host: %w", err)
	}
	defer h.Close()
	d, err := dht.New(h, dht.Mode(dht.ModeClient), dht.BootstrapPeers(bootstrap...))
	if err != nil {
		return nil, nil, fmt.Errorf("relay pool look-up: starting the DHT client: %w", err)
	}
	defer d.Close()
	reached := 0
	var errs []error
	for _, b := range bootstrap {
		if err := h.Connect(ctx, b); err != nil {
			errs = append(errs, fmt.Errorf("bootstrap peer %s: %w", b.ID, err))
			continue
		}
		reached++
	}
	if reached == 0 {
		return nil, nil, fmt.Errorf("relay pool look-up: no bootstrap peer answered: %w", errors.Join(errs...))
	}
	if err := fillRoutingTable(ctx, d); err != nil {
		return nil, nil, fmt.Errorf("relay pool look-up: %w", err)
	}
	var good []PoolRelay
	var faults []PoolFault
	for info := range d.FindProvidersAsync(ctx, PoolKey(), 0) {
		if info.ID == h.ID() || len(info.Addrs) == 0 {
			continue
		}
		pr, err := checkPoolRelay(ctx, h, info)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			f := PoolFault{Relay: info.ID, Err: err}
			log.Warn("pool relay skipped", "relay", info.ID.String(), "err", err)
			faults = append(faults, f)
			continue
		}
		log.Info("pool relay found", "relay", info.ID.String(), "circuit_duration", pr.Duration.String(), "circuit_bytes", pr.Data)
		good = append(good, pr)
		if len(good) >= want {
			break
		}
	}
	if len(good) == 0 && ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, faults, fmt.Errorf("relay pool look-up: %w", ctx.Err())
	}
	return good, faults, nil
}

// checkPoolRelay connects to one provider of PoolKey, reads its announced
// limits and reserves a slot to learn the limits it applies.
func checkPoolRelay(ctx context.Context, h host.Host, info peer.AddrInfo) (PoolRelay, error) {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := h.Connect(cctx, info); err != nil {
		return PoolRelay{}, fmt.Errorf("unreachable at %s: %w", multiaddrList(info.Addrs), err)
	}
	var agent string
	if v, err := h.Peerstore().Get(info.ID, "AgentVersion"); err == nil {
		agent, _ = v.(string)
	}
	annDur, annData, err := ParsePoolAgent(agent)
	if err != nil {
		return PoolRelay{}, fmt.Errorf("provides the pool key without announcing its limits: %w", err)
	}
	if !limitsCarryGame(annDur, uint64(annData)) {
		return PoolRelay{}, fmt.Errorf("offers circuits of %s and %d bytes, too small to carry a game (at least %s and %d bytes)",
			annDur, annData, gameCircuitDuration, gameCircuitBytes)
	}
	rsv, err := client.Reserve(cctx, h, info)
	if err != nil {
		return PoolRelay{}, reserveError(info, err)
	}
	if smallerLimit(uint64(rsv.LimitDuration), uint64(annDur)) || smallerLimit(rsv.LimitData, uint64(annData)) {
		return PoolRelay{}, fmt.Errorf("%w: announces circuits of %s and %d bytes, its reservation states %s and %d bytes",
			errLies, annDur, annData, rsv.LimitDuration, rsv.LimitData)
	}
	return PoolRelay{Info: info, Duration: rsv.LimitDuration, Data: rsv.LimitData}, nil
}

// smallerLimit reports whether applied is a tighter limit than announced
// (0 meaning none).
func smallerLimit(applied, announced uint64) bool {
	return applied != 0 && (announced == 0 || applied < announced)
}

// limitsCarryGame reports whether circuits of duration and data bytes (0:
// none) carry a whole game (gameCircuitDuration, gameCircuitBytes).
func limitsCarryGame(duration time.Duration, data uint64) bool {
	return (duration == 0 || duration >= gameCircuitDuration) && (data == 0 || data >= gameCircuitBytes)
}

// publicCircuitDelay is how long a dial through a relay not known to
// carry a game (a public relay found by AutoRelay) waits behind the
// circuits of the same peer through relays that do (preferGameRelays).
const publicCircuitDelay = 2 * time.Second

// gameRelay reports whether r is a relay whose circuits this node knows
// carry a game: one of Config.Relays (a pool relay found by
// FindPoolRelays, or given with --relay) or a player of the table.
func (n *Node) gameRelay(r peer.ID) bool {
	if n.isPlayerRelay(r) {
		return true
	}
	for _, s := range n.relays {
		if s.info.ID == r {
			return true
		}
	}
	return false
}

// preferGameRelays moves the circuits through relays that game does not
// accept publicCircuitDelay behind the last circuit through one it
// accepts, when the peer has such a circuit, so that a table is carried
// by a pool relay (or a relay of its own, or a player) rather than a
// public relay's limited circuits. Direct addresses keep their rank, and
// with no accepted circuit nothing moves (a public relay is still how a
// hole punch is set up). It returns ranked, reordered by delay.
func preferGameRelays(ranked []network.AddrDelay, game func(peer.ID) bool) []network.AddrDelay {
	var last time.Duration
	good := false
	public := make([]bool, len(ranked))
	for i, d := range ranked {
		if !isCircuit(d.Addr) {
			continue
		}
		if game(relayOf(d.Addr)) {
			good = true
			last = max(last, d.Delay)
		} else {
			public[i] = true
		}
	}
	if !good {
		return ranked
	}
	for i := range ranked {
		if public[i] {
			ranked[i].Delay = max(ranked[i].Delay, last+publicCircuitDelay)
		}
	}
	slices.SortStableFunc(ranked, func(a, b network.AddrDelay) int { return cmp.Compare(a.Delay, b.Delay) })
	return ranked
}

// GameCircuitDuration and GameCircuitBytes are the smallest circuit
// limits (duration; bytes per direction) that carry a whole game
// (LimitsCarryGame): a pool relay offering less is skipped.
const (
	GameCircuitDuration = gameCircuitDuration
	GameCircuitBytes    = gameCircuitBytes
)

// LimitsCarryGame reports whether circuits of duration and data bytes per
// direction (0: no limit) carry a whole game: at least
// GameCircuitDuration and GameCircuitBytes.
func LimitsCarryGame(duration time.Duration, data uint64) bool {
	return limitsCarryGame(duration, data)
}
