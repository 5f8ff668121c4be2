package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/node"
)

// relayFlags are the options of "mentalmj relay".
type relayFlags struct {
	listen, bootstrap         listFlag
	dataDir, limitData        string
	verbose, pool             bool
	limitDuration, statsEvery time.Duration
	progress                  string
}

func relayCommand() *cobra.Command {
	var f relayFlags
	cmd := leaf(relayUsage, "run a circuit relay for players who cannot reach each other directly", func(cmd *cobra.Command, args []string) int {
		return runRelay(cmd, args, f)
	})
	fs := cmd.Flags()
	fs.Var(&f.listen, "listen", "multiaddr to listen on, repeatable (default TCP and QUIC on port 4001, IPv4 and IPv6: /ip4/0.0.0.0/tcp/4001, /ip4/0.0.0.0/udp/4001/quic-v1, /ip6/::/tcp/4001, /ip6/::/udp/4001/quic-v1)")
	fs.StringVar(&f.dataDir, "data-dir", filepath.Join(defaultDataDir(), "relay"), "directory holding the relay's identity key (created if missing); keep it apart from a player's")
	fs.BoolVarP(&f.verbose, "verbose", "v", false, "log reservations and circuits to stderr")
	fs.DurationVar(&f.limitDuration, "limit-duration", node.RelayCircuitDuration, "how long one relayed connection may last (public libp2p relays: 2m)")
	fs.StringVar(&f.limitData, "limit-data", "256MiB", "how many bytes one relayed connection may carry each way, e.g. 128KiB, 256MiB (public libp2p relays: 128KiB)")
	fs.DurationVar(&f.statsEvery, "stats", time.Minute, "how often to print what the relay carries, when it changed (0: only at exit)")
	fs.StringVar(&f.progress, "progress", "text", "output: text, or json (one object per line)")
	fs.BoolVar(&f.pool, "pool", false, "join the community relay pool: announce this relay and its limits on the public DHT, where players look for relays")
	fs.Var(&f.bootstrap, "bootstrap", "with --pool: a DHT peer's full address to join from, repeatable (default: the public libp2p bootstrap peers)")
	choices(cmd, "progress", "output", "outputs", "text", "json")
	return cmd
}

const relayUsage = `relay [--listen MULTIADDR ...] [--data-dir DIR] [--limit-duration D] [--limit-data BYTES] [--stats D] [--progress text|json] [--pool [--bootstrap ADDR ...]]

Runs a libp2p circuit relay v2 service on a machine every player can reach
(a public address, or a forwarded port) until interrupted. A player behind
NAT passes one of the printed "relay address" lines to "join --relay";
join then reserves a slot on the relay and prints a relayed peer address
(RELAY-ADDRESS/p2p-circuit/p2p/<player id>) that the other players give to
--peer. Connections through the relay stay end-to-end encrypted; the relay
only forwards bytes. It also serves AutoNAT (players learn whether they
are reachable) and observes each player's public address, so that
players whose NATs allow it punch a hole and move the table onto direct
connections; pairs that cannot (a NAT that gives a new port for every
destination) stay on the relay.

The relay's identity is kept in DIR/identity.key, so its address stays the
same across restarts. Each relayed connection may last 12 h and carry
256 MiB in each direction (libp2p's defaults, 2 minutes and 128 KiB, would
cut a game off in its first hand): a pair of players that cannot punch a
hole stays on the relay for the whole game, and a hanchan moves only a few
MB between the four players, so these limits never bind a game, while
still ending forgotten circuits and bounding what a stranger can push
through a public relay. The relay also runs a Kademlia DHT server, so
players may give its address as --bootstrap instead of --relay: they meet
through it and then play directly.
--limit-duration 2m --limit-data 128KiB behaves like a public libp2p relay:
enough to meet and punch holes, never to carry a hand.

Every --stats interval in which something changed, and once at exit, the
relay prints what it carries: reservations held, circuits open, the bytes
relayed through circuits (players' connections that are not direct; a
table whose pairs are all direct costs 0) and the bytes of its own control
traffic (reservations, identify, AutoNAT, DHT) by protocol.
--progress json prints these, and the addresses, as JSON objects, one a
line ("address", "relaying", "stats").

--pool joins the community relay pool (docs/networking.md): the relay
announces itself on the public DHT (joined from --bootstrap, or the public
libp2p bootstrap peers) as a provider of the pool's key, renewed every
12 h, and states its limits in its identify agent version ("mentalmj-
relay/pool duration=43200s data=268435456"). Players' nodes look the pool
up before they start, check each relay by reserving a slot on it, and use
those whose circuits carry a game; a pool relay needs a public address
(or a forwarded port) and limits of at least 1h and 64MiB.`

func runRelay(cmd *cobra.Command, args []string, f relayFlags) int {
	ctx, stdout, stderr := cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr()
	if len(args) > 0 {
		return usageError(cmd, "unexpected argument %q", args[0])
	}
	laddrs, code, ok := parseListen(cmd, f.listen)
	if !ok {
		return code
	}
	if f.limitDuration <= 0 {
		return usageError(cmd, "--limit-duration must be positive, got %s", f.limitDuration)
	}
	data, err := parseBytes(f.limitData)
	if err != nil {
		return usageError(cmd, "--limit-data: %v", err)
	}
	if f.statsEvery < 0 {
		return usageError(cmd, "--stats must not be negative, got %s", f.statsEvery)
	}
	if f.pool && !node.LimitsCarryGame(f.limitDuration, uint64(data)) {
		return usageError(cmd, "--pool with --limit-duration %s --limit-data %s: players skip a pool relay whose circuits cannot carry a game (at least %s and %d bytes)",
			f.limitDuration, f.limitData, node.GameCircuitDuration, node.GameCircuitBytes)
	}
	if len(f.bootstrap) > 0 && !f.pool {
		return usageError(cmd, "--bootstrap is for --pool (the DHT the relay announces itself on)")
	}
	bootstrap, err := bootstrapPeers(f.bootstrap)
	if err != nil {
		return usageError(cmd, "--bootstrap: %v", err)
	}
	out := &progress.Reporter{W: stdout, JSON: f.progress == "json"}
	logger := newLogger(stderr, f.verbose)

	key, err := node.LoadOrCreateIdentity(f.dataDir)
	if err != nil {
		return fail(cmd, 2, "--data-dir: %v", err)
	}
	r, err := node.NewRelay(ctx, node.RelayConfig{Identity: key, Listen: laddrs, Logger: logger,
		CircuitDuration: f.limitDuration, CircuitData: data, Pool: f.pool, Bootstrap: bootstrap})
	if err != nil {
		return fail(cmd, 2, "%v", err)
	}
	for _, a := range r.Addrs() {
		out.Event(progress.Address{Addr: a.String()}, "relay address: %s", a)
	}
	if f.pool {
		go announceLine(ctx, r, stderr)
	}
	out.Event(progress.Relaying{}, "relaying until interrupted")
	printRelayStats(ctx, r, out, f.statsEvery)
	err = r.Close()
	time.Sleep(node.StreamMeterLag) // so that the last line counts every byte
	reportRelayStats(out, r.Stats(), true)
	if err != nil {
		return fail(cmd, 1, "%v", err)
	}
	return 0
}

// announceLine says on stderr when the relay first announced itself in
// the pool, and warns when it has not within a minute.
func announceLine(ctx context.Context, r *node.Relay, stderr io.Writer) {
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := r.WaitAnnounced(wctx); err != nil {
		if ctx.Err() == nil {
			fmt.Fprintf(stderr, "mentalmj relay: not in the relay pool yet (still trying; -v says why): %v\n", err)
		}
		return
	}
	fmt.Fprintf(stderr, "mentalmj relay: announced in the relay pool (DHT key %s)\n", node.PoolKey())
}

// printRelayStats prints r's stats every interval in which they changed
// (never with every 0) until ctx is done.
func printRelayStats(ctx context.Context, r *node.Relay, out *progress.Reporter, every time.Duration) {
	if every <= 0 {
		<-ctx.Done()
		return
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	var last node.RelayStats
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		s := r.Stats()
		if d := s.Sub(last); d.CircuitBytes == 0 && d.Circuits == 0 && d.ReservationsMade == 0 && len(d.Streams) == 0 &&
			s.Reservations == last.Reservations && s.CircuitsOpen == last.CircuitsOpen {
			continue
		}
		reportRelayStats(out, s, false)
		last = s
	}
}

// reportRelayStats prints one "stats" event; final marks the one at exit.
func reportRelayStats(out *progress.Reporter, s node.RelayStats, final bool) {
	streams := map[string]progress.StreamBytes{}
	for id, b := range s.Streams {
		streams[string(id)] = progress.StreamBytes{In: b.In, Out: b.Out}
	}
	prefix := "relay stats"
	if final {
		prefix = "relay stats at exit"
	}
	out.Event(progress.RelayStats{Final: final, Reservations: s.Reservations, ReservationsMade: s.ReservationsMade,
		CircuitsOpen: s.CircuitsOpen, Circuits: s.Circuits, CircuitBytes: s.CircuitBytes, ControlBytes: s.ControlBytes(), Streams: streams},
		"%s: %s", prefix, s)
}

// parseBytes reads a byte count: a whole number with an optional unit B,
// KiB, MiB or GiB (powers of 1024), e.g. "128KiB".
func parseBytes(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}, {"", 1}}
	for _, u := range units {
		if !strings.HasSuffix(s, u.suffix) {
			continue
		}
		v, err := strconv.ParseInt(strings.TrimSuffix(s, u.suffix), 10, 64)
		if err != nil || v <= 0 || v > (1<<62)/u.mult {
			return 0, fmt.Errorf("%q is not a positive byte count like 128KiB or 256MiB", s)
		}
		return v * u.mult, nil
	}
	return 0, fmt.Errorf("%q is not a byte count", s)
}
