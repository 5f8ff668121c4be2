package main

import (
	"fmt"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/node"
)

func idCommand() *cobra.Command {
	var (
		listen  listFlag
		dataDir string
	)
	cmd := leaf(idUsage, "print this player's peer ID and the peer address to give the others", func(cmd *cobra.Command, args []string) int {
		return runID(cmd, args, dataDir, listen)
	})
	cmd.Flags().StringVar(&dataDir, "data-dir", defaultDataDir(), "directory holding this node's identity key (created if missing)")
	cmd.Flags().Var(&listen, "listen", "a multiaddr you will listen on, repeatable (default TCP and QUIC on port 4001, IPv4 and IPv6: /ip4/0.0.0.0/tcp/4001, /ip4/0.0.0.0/udp/4001/quic-v1, /ip6/::/tcp/4001, /ip6/::/udp/4001/quic-v1)")
	return cmd
}

const idUsage = `id [--data-dir DIR] [--listen MULTIADDR ...]

Prints the peer ID of the identity in DIR (creating it on first use, as
"join" would) and the peer addresses the other players pass to "join
--peer": each --listen address, with an unspecified host (0.0.0.0, ::)
replaced by each address of this machine's network interfaces (loopback
and IPv6 link-local ones only if there is nothing else). Behind NAT,
the others need your public or relayed address instead (see "relay").`

func runID(cmd *cobra.Command, args []string, dataDir string, listen listFlag) int {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if len(args) > 0 {
		return usageError(cmd, "unexpected argument %q", args[0])
	}
	laddrs, code, ok := parseListen(cmd, listen)
	if !ok {
		return code
	}
	key, err := node.LoadOrCreateIdentity(dataDir)
	if err != nil {
		return fail(cmd, 2, "--data-dir: %v", err)
	}
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return fail(cmd, 2, "%v", err)
	}
	addrs, err := node.DialableListenAddrs(laddrs)
	if err != nil {
		return fail(cmd, 1, "%v", err)
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
