package natlab

import (
	"context"
	"fmt"
)

// CGN is a carrier-grade NAT (RFC 6598's shared address space
// 100.64.0.0/10), as mobile and some fixed ISPs put in front of their
// customers' own routers: a namespace with a WAN address on the Internet
// and an inside network 100.64.K.0/24 (itself .1) on which the WAN sides
// of the homes behind it sit (Home.CGN). It does what Linux does: source
// NAT with MASQUERADE (one external port per inside socket where it can),
// forwarding from its WAN only packets of connections opened from inside,
// dropping the rest. It does not hairpin: a home sending to the CGN's own
// public address reaches the CGN, not the other home, as with many CGNs
// that ignore RFC 6888's REQ-9.
type CGN struct {
	// Name names its namespace.
	Name string
	// NS is its namespace.
	NS string
	// IP is its WAN address on the Internet, the address every home
	// behind it is seen at.
	IP string

	lab    *Lab
	inside string // "100.64.K"
	homes  int    // inside addresses given (.2 upwards)
}

// AddCGN adds a carrier-grade NAT on the Internet (its WAN address is the
// next PublicNet .100 upwards), with no home behind it yet.
func (l *Lab) AddCGN(ctx context.Context, name string) (*CGN, error) {
	l.mu.Lock()
	l.cgns++
	k := l.cgns
	l.mu.Unlock()
	ns, err := l.addNS(ctx, name)
	if err != nil {
		return nil, err
	}
	c := &CGN{Name: name, NS: ns, IP: l.nextWAN(), lab: l, inside: fmt.Sprintf("100.64.%d", k)}
	if err := l.plug(ctx, ns, "wan", c.IP); err != nil {
		return nil, err
	}
	for _, s := range [][]string{
		{"ip", "-n", ns, "link", "add", "in0", "type", "bridge"},
		{"ip", "-n", ns, "addr", "add", c.inside + ".1/24", "dev", "in0"},
		{"ip", "-n", ns, "link", "set", "in0", "up"},
		{"ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv4.ip_forward=1"},
		{"ip", "netns", "exec", ns, "iptables", "-t", "nat", "-A", "POSTROUTING", "-o", "wan", "-j", "MASQUERADE"},
		{"ip", "netns", "exec", ns, "iptables", "-A", "FORWARD", "-i", "wan", "-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED", "-j", "ACCEPT"},
		{"ip", "netns", "exec", ns, "iptables", "-A", "FORWARD", "-i", "wan", "-j", "DROP"},
		{"ip", "netns", "exec", ns, "iptables", "-A", "INPUT", "-i", "wan", "-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED", "-j", "ACCEPT"},
		{"ip", "netns", "exec", ns, "iptables", "-A", "INPUT", "-i", "wan", "-j", "DROP"},
	} {
		if err := run(ctx, s[0], s[1:]...); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// nextInside returns the next free address on the inside network.
func (c *CGN) nextInside() string {
	c.lab.mu.Lock()
	defer c.lab.mu.Unlock()
	c.homes++
	return fmt.Sprintf("%s.%d", c.inside, 1+c.homes)
}

// gateway is the CGN's address on its inside network.
func (c *CGN) gateway() string { return c.inside + ".1" }

// plug connects router namespace r's WAN side ("wan") to the inside
// network, with its default route through the CGN, and returns its
// address there.
func (c *CGN) plug(ctx context.Context, l *Lab, r string) (string, error) {
	ip := c.nextInside()
	if err := l.plugInto(ctx, r, "wan", ip+"/24", c.NS, "in0"); err != nil {
		return "", err
	}
	return ip, run(ctx, "ip", "-n", r, "route", "add", "default", "via", c.gateway())
}
