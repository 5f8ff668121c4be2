package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/node/netcheck"
)

// netcheckFlags are the options of "mentalmj netcheck".
type netcheckFlags struct {
	listen, bootstrap listFlag
	dataDir           string
	wait              time.Duration
	json, verbose     bool
}

func netcheckCommand() *cobra.Command {
	var f netcheckFlags
	cmd := leaf(netcheckUsage, "tell what the network allows before a game: reachability, NAT, IPv6, UPnP, relays", func(cmd *cobra.Command, args []string) int {
		return runNetcheck(cmd, args, f)
	})
	fs := cmd.Flags()
	fs.Var(&f.bootstrap, "bootstrap", "a public-network (Kademlia DHT) bootstrap peer's multiaddr ending in /p2p/<id>, e.g. a \"mentalmj relay\"; repeatable; replaces the default public bootstrap peers")
	fs.StringVar(&f.dataDir, "data-dir", defaultDataDir(), "directory holding this node's identity key (created if missing), as join's")
	fs.Var(&f.listen, "listen", "multiaddr to listen on, repeatable (default: the game's, TCP and QUIC on port 4001, IPv4 and IPv6)")
	fs.DurationVar(&f.wait, "wait", netcheck.DefaultWait, "how long to gather answers at most")
	fs.BoolVar(&f.json, "json", false, "print the report as one JSON object")
	fs.BoolVarP(&f.verbose, "verbose", "v", false, "log the node's work to stderr")
	return cmd
}

const netcheckUsage = `netcheck [--bootstrap MULTIADDR ...] [--data-dir DIR] [--listen MULTIADDR ...] [--wait D] [--json]

Tells what the network allows before a game, as "tailscale netcheck"
does: it joins the public network (or the --bootstrap peers, e.g. a
"mentalmj relay") on the addresses the game listens on and reports
- whether others can dial you, per address family and transport (AutoNAT
  v2: a server dials you back);
- what your NAT does to ports, from the addresses two or more observers
  saw you at: one port per socket (hole punching works) or a new port for
  every destination (it cannot);
- IPv6: your global IPv6 addresses;
- port mapping: the addresses your router mapped on request (UPnP IGD,
  NAT-PMP), if any;
- the relays you could reserve a slot on.
It stops once it has all of that, or after --wait. Run it while no game
of yours is running: it listens on the game's ports. Exit status 0 with a
report, 1 when no bootstrap peer answered, 2 on bad flags or a port in
use.`

func runNetcheck(cmd *cobra.Command, args []string, f netcheckFlags) int {
	ctx, stdout, stderr := cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr()
	if len(args) > 0 {
		return usageError(cmd, "unexpected argument %q", args[0])
	}
	if f.wait <= 0 {
		return usageError(cmd, "--wait must be positive, got %s", f.wait)
	}
	laddrs, code, ok := parseListen(cmd, f.listen)
	if !ok {
		return code
	}
	bootstrap, err := bootstrapPeers(f.bootstrap)
	if err != nil {
		return usageError(cmd, "--bootstrap: %v", err)
	}
	key, err := node.LoadOrCreateIdentity(f.dataDir)
	if err != nil {
		return fail(cmd, 2, "--data-dir: %v", err)
	}
	r, err := netcheck.Run(ctx, netcheck.Config{Identity: key, Listen: laddrs, Bootstrap: bootstrap, Wait: f.wait, Logger: newLogger(stderr, f.verbose)})
	if err != nil {
		return fail(cmd, 2, "%v", err)
	}
	if f.json {
		b, err := json.Marshal(r)
		if err != nil {
			return fail(cmd, 1, "%v", err)
		}
		fmt.Fprintln(stdout, string(b))
	} else {
		printReport(stdout, r)
	}
	if r.BootstrapErr != "" {
		fmt.Fprintf(stderr, "mentalmj netcheck: %s\n", r.BootstrapErr)
		return 1
	}
	return 0
}

// printReport prints r for a player, one fact a line.
func printReport(w interface{ Write([]byte) (int, error) }, r netcheck.Report) {
	fmt.Fprintf(w, "bootstrap peers answered: %d\n", r.BootstrapReached)
	fmt.Fprintf(w, "NAT: %s (%d observer(s))\n", r.NAT, r.Observers)
	for _, s := range r.Seen {
		fmt.Fprintf(w, "  %s: %s seen at %s by %s\n", s.Transport, s.Local, s.Observed, node.ShortID(mustDecode(s.Observer)))
	}
	if len(r.Reachability) == 0 {
		fmt.Fprintln(w, "reachability: no answer from an AutoNAT v2 server")
	}
	for _, p := range r.Reachability {
		fmt.Fprintf(w, "reachability %s %s: %s\n", p.Family, p.Transport, p.Text)
	}
	if r.IPv6 {
		fmt.Fprintf(w, "IPv6: yes (%v)\n", r.IPv6Addrs)
	} else {
		fmt.Fprintln(w, "IPv6: no global IPv6 address")
	}
	if len(r.PortMapping) == 0 {
		fmt.Fprintln(w, "port mapping (UPnP/NAT-PMP): none")
	} else {
		fmt.Fprintf(w, "port mapping (UPnP/NAT-PMP): %v\n", r.PortMapping)
	}
	fmt.Fprintf(w, "relays reserved on: %d\n", len(r.Relays))
	for _, id := range r.Relays {
		fmt.Fprintf(w, "  %s\n", id)
	}
	fmt.Fprintf(w, "summary: %s\n", r.Summary())
}

// mustDecode decodes a peer ID string, or returns it as is when it does
// not decode (ShortID then shortens the string).
func mustDecode(s string) peer.ID {
	id, err := peer.Decode(s)
	if err != nil {
		return peer.ID(s)
	}
	return id
}

// netSummaryWait bounds how long host and join gather what their node
// learns of the network before printing it in one line.
const netSummaryWait = 10 * time.Second

// printNetSummary prints, once, what node n learnt of the network
// (netcheck.Observe) in one line ("network: …"; JSON event "netcheck"),
// as soon as it knows its NAT and has an AutoNAT v2 answer, or after
// wait (netSummaryWait for host and join; when it learnt anything at
// all), unless ctx is done or n closes first.
func printNetSummary(ctx context.Context, n *node.Node, out *progress.Reporter, wait time.Duration) {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-n.Done():
			return
		case <-deadline.C:
		case <-tick.C:
			if r := netcheck.Observe(n); r.Observers == 0 || len(r.Reachability) == 0 {
				continue
			}
		}
		r := netcheck.Observe(n)
		if r.Observers == 0 && len(r.Reachability) == 0 && len(r.Relays) == 0 && len(r.PortMapping) == 0 {
			return // nothing learnt (a LAN, loopback): nothing to say
		}
		probes := make([]progress.NetProbe, 0, len(r.Reachability))
		for _, p := range r.Reachability {
			probes = append(probes, progress.NetProbe{Addr: p.Addr, Family: p.Family, Reachable: p.Reachable, Text: p.Text, Transport: p.Transport})
		}
		out.Event(progress.NetCheck{Summary: r.Summary(), NAT: r.NAT, Observers: r.Observers, Reachability: probes,
			IPv6: r.IPv6, PortMapping: r.PortMapping, Relays: len(r.Relays)}, "network: %s", r.Summary())
		return
	}
}
