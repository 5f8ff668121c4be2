package node

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p"
	dht "github.com/libp2p/go-libp2p-kad-dht"
	"github.com/libp2p/go-libp2p/core/crypto"
	cryptopb "github.com/libp2p/go-libp2p/core/crypto/pb"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/metrics"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/muxer/yamux"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	quic "github.com/libp2p/go-libp2p/p2p/transport/quic"
	"github.com/libp2p/go-libp2p/p2p/transport/tcp"
	yamuxcfg "github.com/libp2p/go-yamux/v5"
	"github.com/multiformats/go-multiaddr"
)

// Limits a Relay puts on each relayed connection (circuit), in place of
// libp2p's defaults of 2 minutes and 128 KiB per direction, which would cut
// a game off in its first hand.
//
// A table's streams move onto a direct connection as soon as hole punching
// (or a LAN) gives one, but a pair whose NATs defeat hole punching (one
// that gives a new port for every destination) stays on the relay for the
// whole game: a relay that players run for themselves must let a circuit
// outlive a game. A hand moves about 400 KB between the four players in
// all, a hanchan about ten hands, so one circuit (one pair of players)
// carries a few MB at most; RelayCircuitData leaves two orders of magnitude
// to spare, and RelayCircuitDuration is far longer than any game, even with
// human turn timeouts. Limits are kept rather than lifted
// (relay.WithInfiniteLimits) because a relay's address is public: they
// still end circuits nobody closes and bound what a stranger can tunnel
// through it, and a circuit with limits is marked limited at both ends, so
// libp2p carries on it only the streams that opt in (the table's stream,
// identify, DCUtR hole punching).
const (
	// RelayCircuitDuration is how long a relay keeps one circuit open.
	RelayCircuitDuration = 12 * time.Hour
	// RelayCircuitData is how many bytes a relay forwards on one circuit
	// in each direction before resetting it: 256 MiB.
	RelayCircuitData = 256 << 20
)

// RelayConfig configures NewRelay.
type RelayConfig struct {
	// Identity is the relay's Ed25519 key (LoadOrCreateIdentity), so its
	// peer ID, and with it the addresses players were given, stays the
	// same across restarts. Required.
	Identity crypto.PrivKey
	// Listen lists the addresses to listen on (ParseListen), e.g.
	// /ip4/0.0.0.0/tcp/4001 and /ip4/0.0.0.0/udp/4001/quic-v1. Required.
	Listen []multiaddr.Multiaddr
	// Logger receives the relay's logs; nil discards them.
	Logger *slog.Logger
	// CircuitDuration and CircuitData override RelayCircuitDuration and
	// RelayCircuitData when positive (CircuitData in bytes per direction).
	CircuitDuration time.Duration
	CircuitData     int64
	// ReservationTTL overrides how long a reservation lasts before the
	// player must renew it (nodes renew half-way) when positive; zero
	// keeps libp2p's 1 h.
	ReservationTTL time.Duration
	// Pool announces the relay in the community relay pool (pool.go):
	// its DHT server joins the DHT from Bootstrap (DefaultBootstrapPeers
	// when empty) and provides PoolKey, and its identify agent version
	// states the circuit limits it offers (PoolAgent).
	Pool bool
	// Bootstrap lists the DHT peers a pool relay joins from.
	Bootstrap []peer.AddrInfo
	// AgentLimits, when Pool is set and AgentLimits is not nil, is what
	// the agent version announces instead of the limits applied: only
	// for tests of a pool relay that lies about its limits.
	AgentLimits *relay.RelayLimit
}

// Relay is a circuit relay v2 service (libp2p's
// p2p/protocol/circuitv2/relay, the libp2p "circuit-relay-v2"
// specification) for players who cannot reach each other directly: a
// player behind NAT reserves a slot on it (Config.Relays) and the others
// reach that player at /…/p2p/RELAY/p2p-circuit/p2p/PLAYER. It serves any
// peer (it has no table), with the libp2p defaults for reservations (1 h,
// renewed by the players; at most 128 in all, 8 per IP address; 16 circuits
// per peer) and the per-circuit limits above. It relays bytes it cannot
// read: the players' connections through it are end-to-end encrypted and
// authenticated (TLS 1.3 or Noise).
type Relay struct {
	host    host.Host
	service *relay.Relay
	dht     *dht.IpfsDHT
	log     *slog.Logger
	// counter and bandwidth count what the relay carries (Stats).
	counter   *relayCounter
	bandwidth *metrics.BandwidthCounter
	// announced is closed once the relay announced itself in the pool
	// (RelayConfig.Pool; nil otherwise); stop ends the announcing.
	announced chan struct{}
	stop      context.CancelFunc
	bg        sync.WaitGroup
}

// NewRelay starts a libp2p host with cfg.Identity listening on cfg.Listen
// (TCP and QUIC v1, libp2p's default security and muxers; no relay client,
// no mDNS, no NAT port mapping; counting what it carries, Stats) and runs the circuit relay v2 service, the
// AutoNAT services (v1 and v2) and a Kademlia DHT server (so that it can
// be players' --bootstrap) on it until Close. ctx is checked before starting. It returns an error if ctx
// is done, cfg.Identity is missing or not Ed25519, cfg.Listen is empty, or
// libp2p cannot listen on an address or start the service.
func NewRelay(ctx context.Context, cfg RelayConfig) (*Relay, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("starting relay: %w", err)
	}
	if cfg.Identity == nil {
		return nil, errors.New("starting relay: no identity key")
	}
	if cfg.Identity.Type() != cryptopb.KeyType_Ed25519 {
		return nil, fmt.Errorf("starting relay: identity key type %s, want Ed25519", cfg.Identity.Type())
	}
	if len(cfg.Listen) == 0 {
		return nil, errors.New("starting relay: no listen address (e.g. /ip4/0.0.0.0/tcp/4001)")
	}
	limit := &relay.RelayLimit{Duration: RelayCircuitDuration, Data: RelayCircuitData}
	if cfg.CircuitDuration > 0 {
		limit.Duration = cfg.CircuitDuration
	}
	if cfg.CircuitData > 0 {
		limit.Data = cfg.CircuitData
	}
	r := &Relay{log: cfg.Logger, counter: &relayCounter{}, bandwidth: metrics.NewBandwidthCounter()}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	agent := "mentalmj-relay"
	if cfg.Pool {
		announce := limit
		if cfg.AgentLimits != nil {
			announce = cfg.AgentLimits
		}
		agent = PoolAgent(announce.Duration, announce.Data)
	}
	h, err := libp2p.New(
		libp2p.Identity(cfg.Identity),
		libp2p.ListenAddrs(cfg.Listen...),
		libp2p.Transport(tcp.NewTCPTransport),
		libp2p.Transport(quic.NewTransport),
		libp2p.UserAgent(agent),
		libp2p.DisableMetrics(),
		// Counts the streams' bytes by protocol for Stats (no
		// Prometheus).
		libp2p.BandwidthReporter(r.bandwidth),
		// A relay is reached directly: it needs no relay client itself.
		libp2p.DisableRelay(),
		libp2p.Muxer(yamux.ID, quietYamux()),
		// AutoNAT (v1 dial-backs from this host, v2 from a helper host)
		// tells players whether they are reachable, so that a lone relay
		// is enough; identify tells them the address it observes them
		// at, which hole punching needs.
		libp2p.EnableNATService(),
		libp2p.EnableAutoNATv2(),
		// A relay dials nobody: libp2p's black-hole detection would
		// never see a successful UDP or IPv6 dial, and its AutoNAT v2
		// dialer (read-only on that state) would refuse every QUIC and
		// IPv6 dial-back (netcheck found it: "the AutoNAT v2 server
		// refused to dial our addresses").
		libp2p.UDPBlackHoleSuccessCounter(nil),
		libp2p.IPv6BlackHoleSuccessCounter(nil),
	)
	if err != nil {
		return nil, fmt.Errorf("starting relay host on %v: %w", cfg.Listen, err)
	}
	rc := relay.DefaultResources()
	rc.Limit = limit
	if cfg.ReservationTTL > 0 {
		rc.ReservationTTL = cfg.ReservationTTL
	}
	svc, err := relay.New(h, relay.WithResources(rc), relay.WithMetricsTracer(r.counter))
	if err != nil {
		_ = h.Close()
		return nil, fmt.Errorf("starting circuit relay v2 service: %w", err)
	}
	// A Kademlia DHT server (go-libp2p-kad-dht, ModeServer, no bootstrap
	// peers of its own): players give the relay as --bootstrap, and their
	// DHT clients find it, and through it each other and relays.
	bootstrap := []peer.AddrInfo{}
	if cfg.Pool {
		bootstrap = cfg.Bootstrap
		if len(bootstrap) == 0 {
			bootstrap = DefaultBootstrapPeers()
		}
	}
	d, err := dht.New(h, dht.Mode(dht.ModeServer), dht.BootstrapPeers(bootstrap...))
	if err != nil {
		_ = svc.Close()
		_ = h.Close()
		return nil, fmt.Errorf("starting the DHT server: %w", err)
	}
	r.host, r.service, r.dht = h, svc, d
	actx, stop := context.WithCancel(context.Background())
	r.stop = stop
	if cfg.Pool {
		r.announced = make(chan struct{})
		r.bg.Go(func() { r.announcePool(actx, bootstrap, r.announced) })
	}
	r.log.Info("relay listening", "peer", h.ID().String(), "addrs", fmt.Sprint(r.Addrs()),
		"circuit_duration", limit.Duration.String(), "circuit_bytes", limit.Data)
	return r, nil
}

// quietYamux is libp2p's yamux with the relay's own pings thinned out.
// Every yamux session pings its peer every 30 s to measure the round trip
// and, when the peer was silent for 30 s, to check it is alive: on a
// player's idle reservation connection both ends did both, four frames
// (with their ACKs, ~1 KB a minute per player) where two do: the player's
// pings, which the relay answers, keep its NAT mapping open and tell it
// when the relay is gone. The relay measures no round trip (it uses none)
// and checks a silent player every 2 minutes; a player that vanished
// without a word loses its slot then, or when its reservation expires.
func quietYamux() *yamux.Transport {
	t := *yamux.DefaultTransport
	c := (*yamuxcfg.Config)(&t)
	c.MeasureRTTInterval = time.Hour
	c.KeepAliveInterval = 2 * time.Minute
	return &t
}

// ID returns the relay's peer ID, derived from RelayConfig.Identity.
func (r *Relay) ID() peer.ID {
	return r.host.ID()
}

// Addrs returns the relay's full addresses, each ending in /p2p/<relay
// id>, as players pass them to ParseRelay (join --relay). A port 0 in
// RelayConfig.Listen appears as the port chosen, an unspecified IP
// (0.0.0.0, ::) as each interface address.
func (r *Relay) Addrs() []multiaddr.Multiaddr {
	addrs, err := peer.AddrInfoToP2pAddrs(&peer.AddrInfo{ID: r.host.ID(), Addrs: r.host.Addrs()})
	if err != nil {
		// Only possible for an invalid peer ID, which a host never has.
		return nil
	}
	return addrs
}

// Close stops the relay service and shuts the host down, which ends every
// circuit through it. It returns the service's or the host's shutdown
// error, if any.
func (r *Relay) Close() error {
	r.stop()
	r.bg.Wait()
	err := errors.Join(r.dht.Close(), r.service.Close(), r.host.Close())
	r.log.Info("relay closed", "peer", r.host.ID().String())
	return err
}
