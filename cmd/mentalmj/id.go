package main

import (
	"context"
	"fmt"
	"io"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/node"
)

var idCommand = command{
	name:    "id",
	summary: "print this player's peer ID and the peer address to give the others",
	run:     runID,
}

const idUsage = `id [--data-dir DIR] [--listen MULTIADDR ...]

Prints the peer ID of the identity in DIR (creating it on first use, as
"join" would) and, for each --listen address, the peer address the other
players pass to "join --peer". Replace an unspecified host (0.0.0.0 or ::)
with the address the others can reach you at.`

func runID(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("id", idUsage, stderr)
	var listen listFlag
	dataDir := fs.String("data-dir", defaultDataDir(), "directory holding this node's identity key (created if missing)")
	fs.Var(&listen, "listen", "a multiaddr you will listen on, repeatable (default /ip4/0.0.0.0/tcp/4001 and /ip4/0.0.0.0/udp/4001/quic-v1)")
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
	key, err := node.LoadOrCreateIdentity(*dataDir)
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj id: --data-dir: %v\n", err)
		return 2
	}
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj id: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "peer ID: %s\n", id)
	for _, a := range laddrs {
		fmt.Fprintf(stdout, "peer address: %s/p2p/%s\n", a, id)
	}
	return 0
}
