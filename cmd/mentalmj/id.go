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
"join" would) and the peer addresses the other players pass to "join
--peer": each --listen address, with an unspecified host (0.0.0.0, ::)
replaced by each address of this machine's network interfaces (loopback
and IPv6 link-local ones only if there is nothing else). Behind NAT,
the others need your public or relayed address instead (see "relay").`

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
	addrs, err := node.DialableListenAddrs(laddrs)
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj id: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "peer ID: %s\n", id)
	for _, a := range addrs {
		fmt.Fprintf(stdout, "peer address: %s/p2p/%s\n", a, id)
	}
	if len(addrs) == 0 {
		fmt.Fprintf(stderr, "mentalmj id: no network interface has an address of the --listen addresses' families\n")
		return 1
	}
	return 0
}
