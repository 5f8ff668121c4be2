package node

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p"
	dht "github.com/libp2p/go-libp2p-kad-dht"
	"github.com/libp2p/go-libp2p/core/crypto"
	cryptopb "github.com/libp2p/go-libp2p/core/crypto/pb"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/host/autorelay"
	bhost "github.com/libp2p/go-libp2p/p2p/host/basic"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	"github.com/libp2p/go-libp2p/p2p/protocol/holepunch"
	"github.com/libp2p/go-libp2p/p2p/protocol/identify"
	quic "github.com/libp2p/go-libp2p/p2p/transport/quic"
	"github.com/libp2p/go-libp2p/p2p/transport/tcp"
	"github.com/multiformats/go-multiaddr"
)

// ProtocolID is the libp2p protocol of the stream each player opens to each
// other player. The version changes when the framing or the envelope does.
const ProtocolID = "/mentalmj/1.0.0"

// Defaults for the zero values of Config's durations.
const (
	// DefaultDialTimeout bounds one dial attempt to one peer in Connect.
	DefaultDialTimeout = 5 * time.Second
	// DefaultWriteTimeout bounds one Send when its ctx has no earlier
	// deadline.
	DefaultWriteTimeout = 10 * time.Second
)

// ErrClosed is returned (wrapped) by Send, Recv and Connect after Close.
var ErrClosed = errors.New("node closed")

// Config configures New.
type Config struct {
	// Identity is the node's Ed25519 key (LoadOrCreateIdentity); its peer
	// ID is the player's name at the table. Required.
	Identity crypto.PrivKey
	// Listen lists the addresses to listen on (ParseListen), e.g.
	// /ip4/0.0.0.0/tcp/4001 and /ip4/0.0.0.0/udp/4001/quic-v1; port 0
	// picks a free port. Required: the node never falls back to libp2p's
	// listen-on-every-interface default.
	Listen []multiaddr.Multiaddr
	// Peers is the table: the other players (ParsePeer), usually three.
	// It may be left empty and given later, once, with SetPeers. A peer
	// given by a relayed address (…/p2p/RELAY/p2p-circuit/p2p/PEER) is
	// dialled through that relay.
	Peers []peer.AddrInfo
	// Relays lists circuit relay v2 relays (ParseRelay; a Relay, or any
	// libp2p relay) on which the node reserves a slot, so that players
	// who cannot dial its listen addresses reach it through the relay at
	// the addresses RelayedAddrs returns. Each needs a valid peer ID and
	// a direct (not relayed) address. Optional.
	Relays []peer.AddrInfo
	// Meet, if not nil, admits connections before the table is set with
	// the peers it reports true for: any peer on the host of an invite
	// meeting, the invite's host on a guest (package invite). Such a peer
	// reaches only the protocols registered on Host besides ProtocolID,
	// whose streams are still accepted only from the table. Once SetPeers
	// fixes the table, Meet is no longer asked and the node closes its
	// connections with peers that are neither at the table nor relays.
	Meet func(peer.ID) bool
	// Logger receives the node's logs; nil discards them.
	Logger *slog.Logger
	// DialTimeout bounds one dial attempt to one peer in Connect; zero
	// means DefaultDialTimeout.
	DialTimeout time.Duration
	// WriteTimeout bounds one Send when its ctx has no earlier deadline,
	// so a stalled peer cannot block Send forever; zero means
	// DefaultWriteTimeout.
	WriteTimeout time.Duration
	// MoveToDirect moves the table's stream to a peer onto a direct
	// connection as soon as one appears (hole punching, a LAN), as a
	// dropped connection that the protocol's reconnection (Sync) repairs,
	// and then closes the relayed connection. Leave it off when the
	// protocol does not reconnect (ReconnectGrace 0): a move would end
	// the hand.
	MoveToDirect bool
	// OnPath, if not nil, is called with a peer's Path each time it
	// changes (relayed, direct, why), on a goroutine of the node; it must
	// not block.
	OnPath func(Path)
	// OnRelay, if not nil, is called when the node gains or loses its
	// reservation on a relay of Relays (held false with the reason: the
	// relay went away or refused), on a goroutine of the node; it must not
	// block. Losing a relay is never a player's fault: pairs it carried
	// reconnect directly or through another relay.
	OnRelay func(relay peer.ID, held bool, err error)
	// OnRelayFault, if not nil, is called when a relay refuses a circuit,
	// cannot be reached for one, is not a relay, leads to another peer
	// than the one expected (the security handshake says so; also for a
	// table peer's address), or drops a circuit to a table peer
	// (RelayFault, relayfault.go), at most once a minute for
	// the same fault, on a goroutine of the node; it must not block. The
	// node then prefers its other paths for a while. A relay's fault is
	// never a player's.
	OnRelayFault func(RelayFault)
	// Public joins the public libp2p network (public.go): a Kademlia DHT
	// client bootstrapped from Bootstrap (JoinPublic), AutoRelay
	// reservations on relays found among the DHT's peers (the node then
	// counts as behind NAT and advertises relayed addresses), and peer
	// routing for table peers whose addresses fail. The gater then lets
	// the node dial anyone; inbound connections are still admitted only
	// from the table, the relays and Meet, and the game protocol only from
	// the table.
	Public bool
	// Bootstrap replaces DefaultBootstrapPeers with Public (ParseRelay
	// checks each: a peer ID and a direct address).
	Bootstrap []peer.AddrInfo
	// OnReachability, if not nil, is called with what AutoNAT v2 told
	// the node about its public addresses (autonat.go), once per public
	// IP and transport it is observed at, on a goroutine of the node; it
	// must not block.
	OnReachability func(Reachability)
	// ProbeDialData lets AutoNAT v2 servers that ask for it make the
	// node send dial data (30–100 kB, the servers' amplification guard)
	// with a probe of an address whose IP they do not see the node at,
	// such as an IPv6 address asked over IPv4 (netcheck). Without it such
	// a probe is refused and not retried.
	ProbeDialData bool
	// NoPlayerRelay turns off the table relay (playerrelay.go): by
	// default every node relays for the other players of its table (and
	// no one else), and a pair with no direct path dials through a
	// player that reaches both.
	NoPlayerRelay bool
}

// Node is one player's libp2p host. It implements protocol.Transport over
// one long-lived stream per direction per peer; see the package doc.
// Its methods are safe for concurrent use.
type Node struct {
	host host.Host
	// published is host once libp2p.New has returned, for the callbacks
	// libp2p may run before that (AutoRelay's peer source, relayCandidates).
	published    atomic.Pointer[host.Host]
	key          crypto.PrivKey
	log          *slog.Logger
	dialTimeout  time.Duration
	writeTimeout time.Duration

	table atomic.Pointer[table]
	// tableSet is closed once SetPeers has set the table.
	tableSet chan struct{}
	gater    *tableGater

	hps          *holepunch.Service // DCUtR, started by the connection manager (direct.go)
	opener       *natOpener         // opens our NAT before a hole punch (natopen.go)
	moveStreams  bool
	onPath       func(Path)
	onRelay      func(peer.ID, bool, error)
	onRelayFault func(RelayFault)
	faults       relayFaults // relayfault.go
	// relayOnly, set by tests before any table dial, keeps the swarm
	// from dialling direct addresses (rankDials), as between homes whose
	// NATs let nothing in.
	relayOnly atomic.Bool
	// playerRelay is the table relay (playerrelay.go); nil with
	// Config.NoPlayerRelay.
	playerRelay      *relay.Relay
	playerRelayStats playerRelayStats
	// leave moves pairs off relays that cannot carry a game
	// (relaymove.go).
	leave  leaveState
	pathMu sync.Mutex // guards paths and obs
	paths  map[peer.ID]*pathState
	obs    []observation

	// natmgr is libp2p's NAT manager (UPnP IGD / NAT-PMP, portmap.go),
	// set while libp2p.New builds the host, at natStart.
	natmgr   bhost.NATManager
	natStart time.Time

	autonat        *autoNAT // the AutoNAT v2 client (autonat.go)
	onReachability func(Reachability)
	probeDialData  bool

	dhtMu     sync.Mutex
	dht       *dht.IpfsDHT    // the public network's DHT client, nil unless Config.Public
	bootstrap []peer.AddrInfo // Config.Bootstrap or DefaultBootstrapPeers

	relays     []*relaySlot // one per Config.Relays, fixed in New
	rsvMu      sync.Mutex   // guards the relaySlots' state and rsvChanged
	rsvChanged chan struct{}
	stopBG     context.CancelFunc // stops the reservation keepers and redials
	bgCtx      context.Context    // done once Close has begun
	bg         sync.WaitGroup

	closeOnce sync.Once
	closed    chan struct{}
	closeMu   sync.Mutex // guards readers.Add against Close's Wait
	readers   sync.WaitGroup
}

// New starts a libp2p host with cfg.Identity listening on cfg.Listen (TCP
// and QUIC v1 transports, libp2p's default security (TLS 1.3, Noise) and
// yamux, the circuit relay v2 client, DCUtR hole punching driven by the
// connection manager (direct.go), UPnP/NAT-PMP port mapping, no mDNS, no
// metrics; with cfg.Public the DHT client and AutoRelay of public.go),
// with a connection gater that admits only the
// table's peers and the relays (cfg.Relays and those named in the table's
// relayed addresses), and registers the ProtocolID stream handler. It
// starts keeping a reservation on every relay of cfg.Relays in the
// background (WaitReservations); it does not dial the table: call Connect.
// ctx is checked before starting; the host lives until Close. It returns
// an error if ctx is done, cfg.Identity is missing or not Ed25519,
// cfg.Listen is empty, cfg.Peers is not a valid table (see SetPeers),
// cfg.Relays is not valid (see Config.Relays), or libp2p cannot listen on
// an address.
func New(ctx context.Context, cfg Config) (*Node, error) {
	if err := checkConfig(ctx, cfg); err != nil {
		return nil, fmt.Errorf("starting node: %w", err)
	}
	n, err := newNode(cfg)
	if err != nil {
		return nil, fmt.Errorf("starting node: %w", err)
	}
	rm, err := newResourceManager(n.gater)
	if err != nil {
		return nil, fmt.Errorf("starting node: %w", err)
	}
	h, err := libp2p.New(n.hostOptions(cfg, rm)...)
	if err != nil {
		_ = rm.Close()
		return nil, fmt.Errorf("starting libp2p host on %v: %w", cfg.Listen, err)
	}
	n.host = h
	n.gater.spectators.mu.Lock()
	n.gater.spectators.connected = hostConnected(h.Network())
	n.gater.spectators.mu.Unlock()
	n.published.Store(&h)
	if err := n.startServices(cfg.Public); err != nil {
		return nil, err
	}
	n.handleStreams(cfg.Relays)
	n.bg.Go(n.watchMappings)
	n.bg.Go(n.dialAnnounced)
	n.startReservations(n.bgCtx)
	if !cfg.NoPlayerRelay {
		if err := n.startPlayerRelay(); err != nil {
			_ = n.Close()
			return nil, fmt.Errorf("starting node: %w", err)
		}
	}
	n.startPaths()
	if cfg.MoveToDirect {
		// Closing a dead direct connection is safe only when the
		// protocol reconnects (the same condition as moving streams).
		n.startLiveness()
	}
	n.log.Info("node listening", "peer", h.ID().String(), "addrs", fmt.Sprint(n.Addrs()))
	return n, nil
}

// checkConfig checks what New needs of cfg before anything starts: a live
// ctx, an Ed25519 identity and at least one listen address.
func checkConfig(ctx context.Context, cfg Config) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if cfg.Identity == nil {
		return errors.New("no identity key")
	}
	if cfg.Identity.Type() != cryptopb.KeyType_Ed25519 {
		return fmt.Errorf("identity key type %s, want Ed25519", cfg.Identity.Type())
	}
	if len(cfg.Listen) == 0 {
		return errors.New("no listen address (e.g. /ip4/127.0.0.1/tcp/0)")
	}
	return nil
}

// newNode is the node of cfg before its host: defaults for the logger and
// timeouts, the table (cfg.Peers, when given), the relay slots and the
// connection gater that admits the table, the relays and, with cfg.Meet,
// the meeting protocol's strangers. It returns an error for a bad table or
// relay list.
func newNode(cfg Config) (*Node, error) {
	n := &Node{
		key:          cfg.Identity,
		log:          cfg.Logger,
		dialTimeout:  cfg.DialTimeout,
		writeTimeout: cfg.WriteTimeout,
		closed:       make(chan struct{}),
		tableSet:     make(chan struct{}),
		moveStreams:  cfg.MoveToDirect,
		onPath:       cfg.OnPath,
		onRelay:      cfg.OnRelay,
		onRelayFault: cfg.OnRelayFault,
		paths:        make(map[peer.ID]*pathState),
		faults: relayFaults{suspect: make(map[peer.ID]time.Time), reported: make(map[string]time.Time),
			ownClose: make(map[string]bool)},
		onReachability: cfg.OnReachability,
		probeDialData:  cfg.ProbeDialData,
		rsvChanged:     make(chan struct{}),
	}
	n.opener = &natOpener{n: n}
	// The background context exists before the host: the swarm's dial
	// tracer (relayfault.go) looks at it from the first dial on.
	n.bgCtx, n.stopBG = context.WithCancel(context.Background())
	if n.log == nil {
		n.log = slog.New(slog.DiscardHandler)
	}
	if n.dialTimeout <= 0 {
		n.dialTimeout = DefaultDialTimeout
	}
	if n.writeTimeout <= 0 {
		n.writeTimeout = DefaultWriteTimeout
	}
	self, err := peer.IDFromPrivateKey(cfg.Identity)
	if err != nil {
		return nil, fmt.Errorf("peer ID of identity: %w", err)
	}
	if len(cfg.Peers) > 0 {
		t, err := newTable(self, cfg.Peers)
		if err != nil {
			return nil, err
		}
		n.table.Store(t)
	}
	if err := validateRelays(self, cfg.Relays); err != nil {
		return nil, err
	}
	n.gater = &tableGater{table: &n.table, relays: make(map[peer.ID]bool, len(cfg.Relays)), meet: cfg.Meet, log: n.log,
		avoid: n.avoidCircuit}
	for _, r := range cfg.Relays {
		n.relays = append(n.relays, &relaySlot{info: r, lost: make(chan struct{}, 1)})
		n.gater.relays[r.ID] = true
	}
	if cfg.Public {
		n.gater.public = true
		n.bootstrap = cfg.Bootstrap
		if len(n.bootstrap) == 0 {
			n.bootstrap = DefaultBootstrapPeers()
		}
	}
	return n, nil
}

// hostOptions are the libp2p options of n's host: cfg's identity and
// listen addresses, TCP and QUIC, n's gater and the resource manager rm,
// and, for a public node (cfg.Public), AutoRelay fed by the DHT's relay
// candidates. Each choice is explained where it is made.
func (n *Node) hostOptions(cfg Config, rm network.ResourceManager) []libp2p.Option {
	opts := []libp2p.Option{
		libp2p.Identity(cfg.Identity),
		libp2p.ListenAddrs(cfg.Listen...),
		libp2p.Transport(tcp.NewTCPTransport),
		libp2p.Transport(quic.NewTransport),
		// The UDP sockets are opened through the NAT opener
		// (natopen.go), which writes its low-TTL packets on them.
		libp2p.QUICReuse(n.opener.quicConnManager),
		libp2p.ConnectionGater(n.gater),
		libp2p.ResourceManager(rm),
		libp2p.UserAgent("mentalmj"),
		// AutoNAT v1 probes nothing: a node learns whether it is
		// reachable from its own AutoNAT v2 probes (autonat.go), once
		// per public address, not every few minutes. Behind NAT until
		// proven otherwise: with Public, AutoRelay reserves at once and
		// the invite carries relayed addresses; the node never offers
		// itself as a relay.
		libp2p.ForceReachabilityPrivate(),
		// The addresses peers observe the node at are kept by the node
		// itself (nat.go) for hole punching and AutoNAT v2, not added to
		// the host's addresses: each address the host gained once four
		// peers had observed it (as soon as a table is direct) sent an
		// identify push to every peer, the relay included.
		libp2p.DisableIdentifyAddressDiscovery(),
		libp2p.DisableMetrics(),
		// A table has three peers: black-hole detection, which stops
		// dialling UDP or IPv6 after many failures, would only get in
		// the way of retries while the others start.
		libp2p.UDPBlackHoleSuccessCounter(nil),
		libp2p.IPv6BlackHoleSuccessCounter(nil),
		// UPnP / NAT-PMP: a home router that offers port mapping
		// makes the node reachable without hole punching.
		// libp2p's NAT manager, kept by the node, and the mappings
		// among the host's addresses (portmap.go).
		n.natPortMap(),
		libp2p.AddrsFactory(n.announceMappings),
		// Every failed dial of one address is looked at (a relay that
		// refuses circuits, or an address that leads to another peer),
		// and dials through a relay at fault wait behind the peer's
		// other addresses (relayfault.go).
		libp2p.SwarmOpts(swarm.WithMetricsTracer(dialWatch{n: n}), swarm.WithDialRanker(n.rankDials)),
		// The circuit relay v2 client is on by default. Hole punching
		// (DCUtR) is started below, by hand: libp2p's own service would
		// hide itself, and the connection manager starts it for every
		// table peer reached only through a relay, with retries.
	}
	if cfg.Public {
		opts = append(opts,
			libp2p.EnableAutoRelayWithPeerSource(n.relayCandidates,
				autorelay.WithBootDelay(0), autorelay.WithMinCandidates(1),
				autorelay.WithMinInterval(5*time.Second), autorelay.WithBackoff(30*time.Second)))
	}
	return opts
}

// startServices starts what runs beside n's host: hole punching (DCUtR,
// started by hand with n's address filter), the DHT when public, and
// n's AutoNAT v2 probes. On an error it stops what it started, closes the
// host and returns the error.
func (n *Node) startServices(public bool) error {
	h := n.host
	if ids, ok := h.(interface{ IDService() identify.IDService }); ok {
		hps, err := holepunch.NewService(h, ids.IDService(), n.holePunchAddrs, holepunch.WithAddrFilter(n.opener))
		if err != nil {
			n.stopBG()
			_ = h.Close()
			return fmt.Errorf("starting hole punching (DCUtR): %w", err)
		}
		n.hps = hps
	}
	if public {
		if err := n.startDHT(n.bootstrap); err != nil {
			n.stopBG()
			if n.hps != nil {
				_ = n.hps.Close()
			}
			_ = h.Close()
			return err
		}
	}
	if err := n.startAutoNAT(); err != nil {
		n.stopBG()
		if n.hps != nil {
			_ = n.hps.Close()
		}
		if d := n.getDHT(); d != nil {
			_ = d.Close()
		}
		_ = h.Close()
		return err
	}
	return nil
}

// handleStreams puts the table in n's peerstore, sets the handlers of the
// game and NAT protocols and watches disconnections: of table peers, of
// circuits and, with relays given, of the relays (whose addresses it
// adds to the peerstore).
func (n *Node) handleStreams(relays []peer.AddrInfo) {
	h := n.host
	if t := n.table.Load(); t != nil {
		n.addToPeerstore(t)
	}
	h.SetStreamHandler(ProtocolID, n.handleStream)
	h.SetStreamHandler(NATProtocolID, n.handleNAT)
	h.Network().Notify(&network.NotifyBundle{DisconnectedF: n.disconnected})
	h.Network().Notify(&network.NotifyBundle{DisconnectedF: n.circuitClosed})
	if len(n.relays) > 0 {
		h.Network().Notify(&network.NotifyBundle{DisconnectedF: n.relayDisconnected})
		for _, r := range relays {
			h.Peerstore().AddAddrs(r.ID, r.Addrs, peerstoreTTL)
		}
	}
}

// SetPeers sets the table when Config.Peers was left empty, e.g. when the
// peers' listen ports are only known after every node has started (tests
// listen on port 0). The table is fixed once set: a second call is an
// error. peers must be non-empty, each with a valid peer ID and at least one
// address, no duplicates and not this node itself.
func (n *Node) SetPeers(peers []peer.AddrInfo) error {
	t, err := newTable(n.ID(), peers)
	if err != nil {
		return err
	}
	if !n.table.CompareAndSwap(nil, t) {
		return errors.New("peer table already set")
	}
	close(n.tableSet)
	n.addToPeerstore(t)
	if n.gater.meet != nil {
		// Strangers admitted to a meeting have no business here now.
		for _, p := range n.host.Network().Peers() {
			if n.gater.public && isOutboundOnly(n.host.Network().ConnsToPeer(p)) {
				continue // the DHT's peers and public relays, dialled by us
			}
			if !n.gater.admits(p) && !n.gater.spectators.admit(p) {
				_ = n.host.Network().ClosePeer(p)
			}
		}
	}
	return nil
}

func (n *Node) addToPeerstore(t *table) {
	for _, id := range t.order {
		n.host.Peerstore().AddAddrs(id, t.links[id].info.Addrs, peerstoreTTL)
	}
}

// Host returns the node's libp2p host, so that protocols run beside the
// table's (package invite's meeting) can register their handlers and open
// their streams on it. The caller must not close it: Close does.
func (n *Node) Host() host.Host {
	return n.host
}

// ID returns the node's peer ID, derived from Config.Identity.
func (n *Node) ID() peer.ID {
	return n.host.ID()
}

// PrivKey returns Config.Identity, the key the protocol signs envelopes
// with.
func (n *Node) PrivKey() crypto.PrivKey {
	return n.key
}

// Addrs returns the node's full addresses, each ending in /p2p/<peer id>,
// as the other players pass them to ParsePeer: first its listen addresses
// (a port 0 in Config.Listen appears as the port actually chosen; an
// unspecified IP (0.0.0.0, ::) as each interface address), then its
// relayed addresses (RelayedAddrs), present while it holds a reservation
// on a relay of Config.Relays.
func (n *Node) Addrs() []multiaddr.Multiaddr {
	addrs, err := peer.AddrInfoToP2pAddrs(&peer.AddrInfo{ID: n.host.ID(), Addrs: n.host.Addrs()})
	if err != nil {
		// Only possible for an invalid peer ID, which a host never has.
		return nil
	}
	return append(addrs, n.RelayedAddrs()...)
}

// Peers returns the table's peer IDs in the order they were configured, or
// nil before the table is set.
func (n *Node) Peers() []peer.ID {
	t := n.table.Load()
	if t == nil {
		return nil
	}
	return append([]peer.ID(nil), t.order...)
}

// Close half-closes the outbound streams and waits up to 2 s per peer (in
// parallel) for each peer to confirm it has read everything sent, so the
// peers' Recv returns every message and then protocol.ErrPeerGone; it then
// stops keeping relay reservations, shuts the host down and waits for the
// stream readers to stop. A Send
// blocked on a stalled peer delays Close until that Send's write deadline.
// Send, Recv and Connect return an error wrapping ErrClosed afterwards.
// Close returns the host's shutdown error, if any; calling it again
// returns nil.
func (n *Node) Close() error {
	var err error
	n.closeOnce.Do(func() {
		n.closeMu.Lock()
		close(n.closed)
		n.closeMu.Unlock()
		n.closeOutbound()
		n.stopBG()
		if n.hps != nil {
			_ = n.hps.Close()
		}
		if d := n.getDHT(); d != nil {
			_ = d.Close()
		}
		if n.autonat != nil {
			// Its server half was given the host as its dialer: this
			// closes the host too.
			n.autonat.an.Close()
		}
		err = n.host.Close()
		n.bg.Wait()
		n.readers.Wait()
		n.log.Info("node closed", "peer", n.host.ID().String())
	})
	return err
}

// Done returns a channel closed once Close has begun.
func (n *Node) Done() <-chan struct{} {
	return n.closed
}

func (n *Node) isClosed() bool {
	select {
	case <-n.closed:
		return true
	default:
		return false
	}
}
