package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/mentalmj/mentalmj/node"
)

var relayCommand = command{
	name:    "relay",
	summary: "run a circuit relay for players who cannot reach each other directly",
	run:     runRelay,
}

const relayUsage = `relay [--listen MULTIADDR ...] [--data-dir DIR]

Runs a libp2p circuit relay v2 service on a machine every player can reach
(a public address, or a forwarded port) until interrupted. A player behind
NAT passes one of the printed "relay address" lines to "join --relay";
join then reserves a slot on the relay and prints a relayed peer address
(RELAY-ADDRESS/p2p-circuit/p2p/<player id>) that the other players give to
--peer. Connections through the relay stay end-to-end encrypted; the relay
only forwards bytes. libp2p hole punching also gives players whose NATs
allow it a direct connection, but a game's streams stay on the connection
they were opened on, so keep the relay running until the game ends.

The relay's identity is kept in DIR/identity.key, so its address stays the
same across restarts. Each relayed connection may last 12 h and carry
256 MiB in each direction (libp2p's defaults, 2 minutes and 128 KiB, would
cut a game off in its first hand): a table's connections stay on the relay
for the whole game, and a hanchan moves only a few MB between the four
players, so these limits never bind a game, while still ending forgotten
circuits and bounding what a stranger can push through a public relay.`

func runRelay(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("relay", relayUsage, stderr)
	var listen listFlag
	fs.Var(&listen, "listen", "multiaddr to listen on, repeatable (default /ip4/0.0.0.0/tcp/4001 and /ip4/0.0.0.0/udp/4001/quic-v1)")
	dataDir := fs.String("data-dir", filepath.Join(defaultDataDir(), "relay"), "directory holding the relay's identity key (created if missing); keep it apart from a player's")
	verbose := fs.Bool("v", false, "log reservations and circuits to stderr")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(fs, stderr, "unexpected argument %q", fs.Arg(0))
	}
	laddrs, code, ok := parseListen(fs, stderr, listen)
	if !ok {
		return code
	}
	logger := newLogger(stderr, *verbose)

	key, err := node.LoadOrCreateIdentity(*dataDir)
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj relay: --data-dir: %v\n", err)
		return 2
	}
	r, err := node.NewRelay(ctx, node.RelayConfig{Identity: key, Listen: laddrs, Logger: logger})
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj relay: %v\n", err)
		return 2
	}
	for _, a := range r.Addrs() {
		fmt.Fprintf(stdout, "relay address: %s\n", a)
	}
	fmt.Fprintf(stdout, "relaying until interrupted\n")
	<-ctx.Done()
	if err := r.Close(); err != nil {
		fmt.Fprintf(stderr, "mentalmj relay: %v\n", err)
		return 1
	}
	return 0
}
