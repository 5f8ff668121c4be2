// Package netcheck tells a player what the network allows before a game,
// as `tailscale netcheck` does for Tailscale: whether others can dial the
// node (AutoNAT v2, per address family and transport), what its NAT does
// to ports (the addresses two or more observers saw it at: one port per
// socket, which hole punching needs, or a new port for every
// destination), whether it has IPv6, whether its router mapped a port on
// request (UPnP IGD or NAT-PMP), and which relays it could reserve on.
//
// # The model
//
// Run starts a node.Node on the public network (a Kademlia DHT client
// bootstrapped from the given peers, as `join --bootstrap` does), on the
// listen addresses the game would use, so that what it learns holds for
// the game's own sockets. The bootstrap peers (and other DHT peers it
// connects to) observe its address (identify), serve AutoNAT v2 and offer
// relays (AutoRelay); Run waits until at least two observers answered,
// every public address was probed and a relay was found, or Config.Wait
// passed, and then reports what it has (Report). Observe reads the same
// off a node that is already running (host and join print its Summary at
// their start). Nothing here is trusted beyond saying it: an observer or
// an AutoNAT server can lie, and the node uses none of this to decide
// anything.
package netcheck

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/mentalmj/mentalmj/node"
)

// DefaultWait bounds Run when Config.Wait is zero.
const DefaultWait = 30 * time.Second

// Config configures Run.
type Config struct {
	// Identity is the node's key (the player's, from --data-dir), so
	// that relays and observers see the peer the game will be.
	Identity crypto.PrivKey
	// Listen is where to listen: the game's addresses
	// (node.DefaultListen when empty).
	Listen []multiaddr.Multiaddr
	// Bootstrap replaces the public DHT's default bootstrap peers.
	Bootstrap []peer.AddrInfo
	// Wait bounds the whole check (DefaultWait when zero).
	Wait time.Duration
	// Logger receives the node's logs; nil discards them.
	Logger *slog.Logger
}

// Probe is AutoNAT v2's answer for one public address.
type Probe struct {
	// Family is "IPv4" or "IPv6"; Transport "TCP" or "QUIC".
	Family    string `json:"family"`
	Transport string `json:"transport"`
	// Addr is the address the server dialled (or tried to).
	Addr string `json:"addr"`
	// Reachable is "yes" (the server dialled back), "no" (its dial
	// failed) or "unknown" (no server answered).
	Reachable string `json:"reachable"`
	// Text is the node's sentence for it.
	Text string `json:"text"`
}

// Seen is one observer's view of one of the node's sockets.
type Seen struct {
	Observer  string `json:"observer"`
	Transport string `json:"transport"`
	Local     string `json:"local"`
	Observed  string `json:"observed"`
}

// Report is what a check found. Its JSON form is `netcheck --json`'s.
type Report struct {
	// BootstrapReached counts the bootstrap peers that answered;
	// BootstrapErr says why none did ("" otherwise).
	BootstrapReached int    `json:"bootstrap_reached"`
	BootstrapErr     string `json:"bootstrap_error,omitempty"`
	// Observers counts the distinct peers that observed the node's
	// address; Seen lists what each saw.
	Observers int    `json:"observers"`
	Seen      []Seen `json:"seen"`
	// NAT is what the node's NAT does to ports, as the observations
	// tell (node.NAT's words).
	NAT string `json:"nat"`
	// Reachability has one Probe per public IP and transport.
	Reachability []Probe `json:"reachability"`
	// IPv6 is set when an interface has a global IPv6 address;
	// IPv6Addrs lists them.
	IPv6      bool     `json:"ipv6"`
	IPv6Addrs []string `json:"ipv6_addrs,omitempty"`
	// PortMapping lists the public addresses the router mapped on request
	// (UPnP IGD / NAT-PMP); empty when none.
	PortMapping []string `json:"port_mapping"`
	// Relays lists the relays the node holds a reservation on (peer
	// IDs).
	Relays []string `json:"relays"`
}

// Run checks the network as the package doc says and returns the report
// (whatever was learnt by then when Config.Wait passes). It returns an
// error only when the node cannot start (a listen address in use: a
// game running with the same addresses) or ctx is done before anything
// was learnt; an unreachable bootstrap peer is in the report.
func Run(ctx context.Context, cfg Config) (Report, error) {
	listen := cfg.Listen
	if len(listen) == 0 {
		for _, s := range node.DefaultListen() {
			listen = append(listen, multiaddr.StringCast(s))
		}
	}
	wait := cfg.Wait
	if wait <= 0 {
		wait = DefaultWait
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	n, err := node.New(ctx, node.Config{Identity: cfg.Identity, Listen: listen, Logger: cfg.Logger,
		Public: true, Bootstrap: cfg.Bootstrap, ProbeDialData: true})
	if err != nil {
		return Report{}, fmt.Errorf("netcheck: %w", err)
	}
	defer n.Close()
	reached, err := n.JoinPublic(ctx)
	bootErr := ""
	if err != nil && reached == 0 {
		bootErr = err.Error()
	}
	for ctx.Err() == nil && bootErr == "" && !complete(n) {
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
	}
	r := Observe(n)
	r.BootstrapReached, r.BootstrapErr = reached, bootErr
	return r, nil
}

// complete reports whether n has learnt all a check waits for: two
// observers, an AutoNAT v2 answer for every public address (IP and
// transport, and port mapping), a relay, and a port mapping or the end of
// the router discovery (node.PortMappingPending: up to 13 s after start).
func complete(n *node.Node) bool {
	r := Observe(n)
	return r.Observers >= 2 && len(r.Relays) > 0 && len(r.Reachability) > 0 && n.PendingProbes() == 0 && !n.PortMappingPending()
}

// Observe reads a report off a running node: what it was observed at,
// its NAT, AutoNAT v2's answers so far, its IPv6 addresses, port mappings
// and relays. BootstrapReached is left 0.
func Observe(n *node.Node) Report {
	r := Report{NAT: n.SelfNAT().String(), Seen: []Seen{}, Reachability: []Probe{}, PortMapping: []string{}, Relays: []string{}}
	observers := map[peer.ID]bool{}
	for _, o := range n.Observations() {
		observers[o.Observer] = true
		r.Seen = append(r.Seen, Seen{Observer: o.Observer.String(), Transport: o.Transport, Local: fmt.Sprint(o.Local), Observed: fmt.Sprint(o.Observed)})
	}
	r.Observers = len(observers)
	for _, a := range n.Reachabilities() {
		p := Probe{Addr: fmt.Sprint(a.Addr), Text: a.String(), Reachable: "unknown"}
		if a.Addr != nil {
			p.Family, p.Transport = family(a.Addr), transport(a.Addr)
		}
		switch a.Reachability {
		case network.ReachabilityPublic:
			p.Reachable = "yes"
		case network.ReachabilityPrivate:
			p.Reachable = "no"
		}
		r.Reachability = append(r.Reachability, p)
	}
	if addrs, err := n.Host().Network().InterfaceListenAddresses(); err == nil {
		for _, a := range addrs {
			if ip, err := manet.ToIP(a); err == nil && ip.To4() == nil && ip.IsGlobalUnicast() && !ip.IsPrivate() {
				if s := ip.String(); !slices.Contains(r.IPv6Addrs, s) {
					r.IPv6Addrs = append(r.IPv6Addrs, s)
				}
			}
		}
	}
	r.IPv6 = len(r.IPv6Addrs) > 0
	for _, a := range n.MappedAddrs() {
		r.PortMapping = append(r.PortMapping, a.String())
	}
	relays := map[string]bool{}
	for _, a := range n.Addrs() {
		if id := relayID(a); id != "" && !relays[id] {
			relays[id] = true
			r.Relays = append(r.Relays, id)
		}
	}
	return r
}

// relayID returns the relay's peer ID in a relayed address
// …/p2p/RELAY/p2p-circuit/…, "" for any other.
func relayID(a multiaddr.Multiaddr) string {
	before, after := multiaddr.SplitFunc(a, func(c multiaddr.Component) bool { return c.Code() == multiaddr.P_CIRCUIT })
	if len(after) == 0 {
		return ""
	}
	_, last := multiaddr.SplitLast(before)
	if last == nil || last.Code() != multiaddr.P_P2P {
		return ""
	}
	return last.Value()
}

func family(a multiaddr.Multiaddr) string {
	if ip, err := manet.ToIP(a); err == nil && ip.To4() == nil {
		return "IPv6"
	}
	return "IPv4"
}

func transport(a multiaddr.Multiaddr) string {
	if _, err := a.ValueForProtocol(multiaddr.P_QUIC_V1); err == nil {
		return "QUIC"
	}
	if _, err := a.ValueForProtocol(multiaddr.P_TCP); err == nil {
		return "TCP"
	}
	return ""
}

// Summary is the report in one line, as host and join print it at their
// start: "IPv4: a NAT that keeps ports (2 observers), not reachable
// (TCP, QUIC); IPv6: 2001:db8:1::2, reachable (QUIC); port mapping: none;
// relays: 1". A transport reachable at a mapped address (PortMapping) is
// said "reachable through the port mapping", apart from the observed
// addresses' answers.
func (r Report) Summary() string {
	var parts []string
	for _, fam := range []string{"IPv4", "IPv6"} {
		var yes, mapped, no []string
		for _, p := range r.Reachability {
			if p.Family != fam {
				continue
			}
			switch {
			case p.Reachable == "yes" && slices.Contains(r.PortMapping, p.Addr):
				mapped = append(mapped, p.Transport)
			case p.Reachable == "yes":
				yes = append(yes, p.Transport)
			case p.Reachable == "no":
				no = append(no, p.Transport)
			}
		}
		var s []string
		if fam == "IPv4" {
			s = append(s, fmt.Sprintf("%s (%d observer%s)", r.NAT, r.Observers, plural(r.Observers)))
		} else if !r.IPv6 {
			parts = append(parts, "IPv6: none")
			continue
		} else {
			s = append(s, r.IPv6Addrs[0])
		}
		if len(yes) > 0 {
			s = append(s, "reachable ("+strings.Join(yes, ", ")+")")
		}
		if len(mapped) > 0 {
			s = append(s, "reachable through the port mapping ("+strings.Join(mapped, ", ")+")")
		}
		if len(no) > 0 {
			s = append(s, "not reachable ("+strings.Join(no, ", ")+")")
		}
		if len(yes)+len(mapped)+len(no) == 0 {
			s = append(s, "reachability unknown")
		}
		parts = append(parts, fam+": "+strings.Join(s, ", "))
	}
	mapping := "none"
	if len(r.PortMapping) > 0 {
		mapping = strings.Join(r.PortMapping, " ")
	}
	parts = append(parts, "port mapping (UPnP/NAT-PMP): "+mapping, fmt.Sprintf("relays: %d", len(r.Relays)))
	if r.BootstrapErr != "" {
		parts = append(parts, "no bootstrap peer answered")
	}
	return strings.Join(parts, "; ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
