package natlab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Answer is what a home router does with an unsolicited packet sent to
// its own WAN address (a hole punch that arrives before the home's own
// packet opened the mapping): the one thing in which the home routers
// people have differ most for hole punching.
type Answer int

const (
	// AnswerDrop drops it silently (iptables DROP on INPUT and FORWARD
	// from the WAN): no conntrack entry is confirmed, nothing is sent
	// back.
	AnswerDrop Answer = iota
	// AnswerReject rejects it as OpenWrt's default WAN zone does
	// (iptables REJECT: a TCP RST for TCP, ICMP port unreachable for
	// anything else); the packet itself is dropped, so no conntrack
	// entry is confirmed.
	AnswerReject
	// AnswerNone has no input rule for it: the router's own kernel
	// answers (a TCP RST from its TCP stack, ICMP port unreachable from
	// its UDP stack), and the packet having been delivered, conntrack
	// confirms an entry for it, which MASQUERADE then avoids reusing for
	// the home's own packet to that peer. Forwarded packets (IPv6) are
	// rejected as with AnswerReject.
	AnswerNone
)

// String names a as the tests and BENCHMARKS.md do: "drop", "reject",
// "none".
func (a Answer) String() string {
	switch a {
	case AnswerDrop:
		return "drop"
	case AnswerReject:
		return "reject"
	case AnswerNone:
		return "none"
	default:
		return "Answer(" + strconv.Itoa(int(a)) + ")"
	}
}

// Home describes one home for AddHome.
type Home struct {
	// Name names the home's router namespace ("home1").
	Name string
	// Players names the players on its LAN, one namespace each.
	Players []string
	// Random makes the router map every new destination to a new
	// external port (MASQUERADE --random): hole punching cannot work
	// through it.
	Random bool
	// Answer is what the router does with unsolicited packets from the
	// WAN; the zero value drops them.
	Answer Answer
	// IPv6 gives the home dual-stack IPv6: the routed prefix
	// 2001:db8:N::/64 on its LAN (no NAT), behind a stateful ip6tables
	// firewall that forwards from the WAN only packets of connections
	// the LAN opened (and answers the rest as Answer says). Not
	// available behind a CGN.
	IPv6 bool
	// Loss is the probability (0 to 1) that the router drops each
	// packet it forwards, either way (iptables' statistic match, random
	// mode: this kernel has no netem).
	Loss float64
	// UPnP runs Debian's miniupnpd (the nftables build) on the router:
	// UPnP IGD and NAT-PMP on the LAN, mapping ports 1024–65535 of the
	// WAN address to the same ports of the LAN host that asks (the
	// players' libp2p NAT manager asks for their listen ports). Not tried
	// behind a CGN: there the router would map its own WAN port, which the
	// CGN forwards nothing to (a double NAT), if miniupnpd's STUN check let
	// it. AddHome fails if miniupnpd (apt-get install miniupnpd) or nft is
	// missing, or if miniupnpd refuses to map.
	UPnP bool
	// Forward forwards port 4001 (TCP and UDP) of the router's WAN
	// address to the home's first player (.2), as a player does by hand
	// in the router's settings: that player is reachable from the
	// Internet at WAN:4001. Not behind a CGN.
	Forward bool
	// CGN, if set, puts the home's WAN on the inside network of that
	// carrier-grade NAT (AddCGN) instead of on the Internet.
	CGN *CGN
}

// homeState is what the lab keeps of a home, for Renumber.
type homeState struct {
	ns  string // the router's namespace
	wan string // its WAN IPv4 address now
	cgn *CGN
	// upnpd is the router's miniupnpd (Home.UPnP), else nil.
	upnpd *Proc
}

// AddHome adds a home: a router with a WAN address on the Internet
// (PublicNet .100 upwards, in the order of AddHome, Renumber and AddCGN
// calls) or on a CGN's inside network, source NAT and stateful filtering
// as the package doc says, and behind it a LAN 10.0.N.0/24 (router .1;
// with IPv6, also 2001:db8:N::/64, router ::1) with one host per player
// (.2 upwards), whose default route is the router. It returns the
// players' hosts in the order of h.Players.
func (l *Lab) AddHome(ctx context.Context, h Home) ([]Host, error) {
	if h.IPv6 && h.CGN != nil {
		return nil, fmt.Errorf("natlab: home %s: IPv6 behind a CGN is not modelled", h.Name)
	}
	if h.Forward && h.CGN != nil {
		return nil, fmt.Errorf("natlab: home %s: a forwarded port behind a CGN reaches nothing", h.Name)
	}
	if h.Loss < 0 || h.Loss >= 1 {
		return nil, fmt.Errorf("natlab: home %s: loss %v, want 0 ≤ loss < 1", h.Name, h.Loss)
	}
	l.mu.Lock()
	l.homes++
	n := l.homes
	l.mu.Unlock()
	r, err := l.addNS(ctx, h.Name)
	if err != nil {
		return nil, err
	}
	st := &homeState{ns: r, cgn: h.CGN}
	if h.CGN != nil {
		if st.wan, err = h.CGN.plug(ctx, l, r); err != nil {
			return nil, err
		}
	} else {
		st.wan = l.nextWAN()
		if err := l.plug(ctx, r, "wan", st.wan); err != nil {
			return nil, err
		}
	}
	l.mu.Lock()
	l.home[h.Name] = st
	l.mu.Unlock()
	lan := fmt.Sprintf("10.0.%d", n)
	lan6 := fmt.Sprintf("2001:db8:%d:", n)
	if err := l.routeHome(ctx, r, lan, lan6, n, h); err != nil {
		return nil, err
	}
	if err := filterHome(ctx, r, h); err != nil {
		return nil, err
	}
	if h.UPnP {
		if err := l.startUPnP(ctx, r, h.Name, lan); err != nil {
			return nil, err
		}
	}
	var hosts []Host
	for i, name := range h.Players {
		p, err := l.addNS(ctx, name)
		if err != nil {
			return nil, err
		}
		host := Host{Name: name, NS: p, IP: fmt.Sprintf("%s.%d", lan, 2+i)}
		port := "l" + strconv.Itoa(i)
		steps := [][]string{
			{"-n", r, "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", p},
			{"-n", r, "link", "set", port, "master", "lan"},
			{"-n", r, "link", "set", port, "up"},
			{"-n", p, "addr", "add", host.IP + "/24", "dev", "eth0"},
			{"-n", p, "link", "set", "eth0", "up"},
			{"-n", p, "route", "add", "default", "via", lan + ".1"},
		}
		if h.IPv6 {
			host.IP6 = fmt.Sprintf("%s:%d", lan6, 2+i)
			steps = append(steps,
				[]string{"-n", p, "addr", "add", host.IP6 + "/64", "dev", "eth0", "nodad"},
				[]string{"-n", p, "-6", "route", "add", "default", "via", lan6 + ":1"})
		}
		for _, args := range steps {
			if err := run(ctx, "ip", args...); err != nil {
				return nil, err
			}
		}
		hosts = append(hosts, host)
	}
	return hosts, nil
}

// nextWAN returns the next free WAN address on the Internet's /24.
func (l *Lab) nextWAN() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.wans++
	return fmt.Sprintf("%s.%d", PublicNet, 99+l.wans)
}

// routeHome gives router r its LAN bridge, forwarding, source NAT and,
// with IPv6, its routed prefix (the Internet namespace routes it to r).
func (l *Lab) routeHome(ctx context.Context, r, lan, lan6 string, n int, h Home) error {
	// Only the LAN's packets are translated, as OpenWrt masquerades its
	// lan zone: the router's own leave from its WAN address as they are
	// (with Random, MASQUERADE --random would give its own sockets new
	// ports too, and miniupnpd's STUN check would then find a
	// "symmetric NAT" upstream and refuse to map: stun.go).
	masq := []string{"iptables", "-t", "nat", "-A", "POSTROUTING", "-o", "wan", "-s", lan + ".0/24", "-j", "MASQUERADE"}
	if h.Random {
		masq = append(masq, "--random")
	}
	steps := [][]string{
		{"ip", "-n", r, "link", "add", "lan", "type", "bridge"},
		{"ip", "-n", r, "addr", "add", lan + ".1/24", "dev", "lan"},
		{"ip", "-n", r, "link", "set", "lan", "up"},
		{"ip", "netns", "exec", r, "sysctl", "-qw", "net.ipv4.ip_forward=1"},
		append([]string{"ip", "netns", "exec", r}, masq...),
	}
	if h.Forward {
		for _, proto := range []string{"tcp", "udp"} {
			steps = append(steps, []string{"ip", "netns", "exec", r, "iptables", "-t", "nat", "-A", "PREROUTING", "-i", "wan",
				"-p", proto, "--dport", "4001", "-j", "DNAT", "--to-destination", lan + ".2:4001"})
		}
	}
	if h.IPv6 {
		wan6 := fmt.Sprintf("%s::%d", PublicNet6, 99+n)
		steps = append(steps,
			[]string{"ip", "netns", "exec", r, "sysctl", "-qw", "net.ipv6.conf.all.forwarding=1"},
			[]string{"ip", "-n", r, "addr", "add", wan6 + "/64", "dev", "wan", "nodad"},
			[]string{"ip", "-n", r, "-6", "route", "add", "default", "via", PublicNet6 + "::1"},
			[]string{"ip", "-n", r, "addr", "add", lan6 + ":1/64", "dev", "lan", "nodad"},
			[]string{"ip", "-n", l.inet, "-6", "route", "add", lan6 + ":/64", "via", wan6})
	}
	for _, s := range steps {
		if err := run(ctx, s[0], s[1:]...); err != nil {
			return err
		}
	}
	return nil
}

// filterHome installs router r's stateful filtering: from the WAN, only
// packets of connections the LAN (or the router) opened pass, and the
// rest meet h.Answer; h.Loss drops forwarded packets at random; with
// UPnP or Forward, packets to a mapped or forwarded port pass too.
func filterHome(ctx context.Context, r string, h Home) error {
	var rules [][]string // each: the tool, then its arguments
	families := []string{"iptables"}
	if h.IPv6 {
		families = append(families, "ip6tables")
	}
	for _, ipt := range families {
		if h.Loss > 0 {
			rules = append(rules, []string{ipt, "-A", "FORWARD", "-m", "statistic", "--mode", "random",
				"--probability", strconv.FormatFloat(h.Loss, 'f', -1, 64), "-j", "DROP"})
		}
		est := []string{"-i", "wan", "-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED", "-j", "ACCEPT"}
		rules = append(rules, append([]string{ipt, "-A", "FORWARD"}, est...), append([]string{ipt, "-A", "INPUT"}, est...))
		if ipt == "ip6tables" {
			// Neighbour discovery is the IPv6 link's own business.
			rules = append(rules, []string{ipt, "-A", "INPUT", "-i", "wan", "-p", "ipv6-icmp", "-j", "ACCEPT"})
		}
		if (h.UPnP || h.Forward) && ipt == "iptables" {
			rules = append(rules, []string{ipt, "-A", "FORWARD", "-i", "wan", "-m", "conntrack", "--ctstate", "DNAT", "-j", "ACCEPT"})
		}
		for _, chain := range []string{"FORWARD", "INPUT"} {
			answer := h.Answer
			if answer == AnswerNone && chain == "FORWARD" {
				if ipt == "iptables" {
					// Nothing routes to the LAN from the WAN but
					// replies; this rule never matches in practice.
					answer = AnswerDrop
				} else {
					answer = AnswerReject
				}
			}
			switch answer {
			case AnswerDrop:
				rules = append(rules, []string{ipt, "-A", chain, "-i", "wan", "-j", "DROP"})
			case AnswerReject:
				rules = append(rules,
					[]string{ipt, "-A", chain, "-i", "wan", "-p", "tcp", "-j", "REJECT", "--reject-with", "tcp-reset"},
					[]string{ipt, "-A", chain, "-i", "wan", "-j", "REJECT"})
			case AnswerNone:
				// INPUT: no rule; the kernel answers.
			default:
				return fmt.Errorf("natlab: home %s: unknown answer %v", h.Name, h.Answer)
			}
		}
	}
	for _, rule := range rules {
		if err := run(ctx, "ip", append([]string{"netns", "exec", r}, rule...)...); err != nil {
			return err
		}
	}
	return nil
}

// Renumber gives home's router a new WAN address, as an ISP does after a
// reconnection: the old address goes away (MASQUERADE forgets every
// mapping made on it), the NAT's conntrack state is flushed when the
// conntrack tool is installed, and the new address (the next free one on
// the Internet, or on the CGN's inside network) is returned. Only the
// IPv4 WAN address changes. It returns an error for a home the lab did
// not add.
func (l *Lab) Renumber(ctx context.Context, home string) (string, error) {
	l.mu.Lock()
	st := l.home[home]
	l.mu.Unlock()
	if st == nil {
		return "", fmt.Errorf("natlab: renumbering %s: no such home", home)
	}
	// The new address comes before the old one goes: removing a
	// device's last address would take its routes with it.
	var wan, cidr, old string
	if st.cgn != nil {
		wan = st.cgn.nextInside()
		cidr, old = wan+"/24", st.wan+"/24"
	} else {
		wan = l.nextWAN()
		cidr, old = wan+"/32", st.wan+"/32"
	}
	steps := [][]string{
		{"ip", "-n", st.ns, "addr", "add", cidr, "dev", "wan"},
		{"ip", "-n", st.ns, "addr", "del", old, "dev", "wan"},
	}
	if st.cgn != nil {
		steps = append(steps, []string{"ip", "-n", st.ns, "route", "replace", "default", "via", st.cgn.gateway()})
	} else {
		steps = append(steps, []string{"ip", "-n", st.ns, "route", "replace", "default", "via", PublicNet + ".1", "dev", "wan", "onlink"})
	}
	if _, err := exec.LookPath("conntrack"); err == nil {
		steps = append(steps, []string{"ip", "netns", "exec", st.ns, "conntrack", "-F"})
	}
	for _, s := range steps {
		if err := run(ctx, s[0], s[1:]...); err != nil {
			return "", err
		}
	}
	l.mu.Lock()
	st.wan = wan
	l.mu.Unlock()
	return wan, nil
}

// startUPnP runs miniupnpd (UPnP IGD and NAT-PMP) on router r for the LAN
// lan.0/24. Its nftables table (mmjupnp, family inet) and chains are made
// first, as Debian's /etc/miniupnpd/nft_init.sh makes them (miniupnpd
// only adds rules to existing chains): "miniupnpd" on the forward hook
// (the accept rules of the mappings; the iptables rules of filterHome let
// DNAT'd packets through as well), "prerouting_miniupnpd" (the DNAT of
// each mapping) and "postrouting_miniupnpd". The forward chain's policy
// is accept: filtering is filterHome's. miniupnpd learns that its WAN
// address is usable from the lab's STUN server (stun.go explains why it
// needs to) and maps only ports 1024–65535 of LAN hosts, to the same
// host.
func (l *Lab) startUPnP(ctx context.Context, r, name, lan string) error {
	for _, tool := range []string{"miniupnpd", "nft"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("natlab: home %s: UPnP needs %s (apt-get install -y miniupnpd nftables): %w", name, tool, err)
		}
	}
	if err := l.serveSTUN(); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "natlab-upnp")
	if err != nil {
		return err
	}
	l.mu.Lock()
	l.dirs = append(l.dirs, dir)
	l.mu.Unlock()
	ruleset := `table inet mmjupnp {
	chain forward { type filter hook forward priority 0; policy accept; jump miniupnpd; }
	chain miniupnpd { }
	chain prerouting { type nat hook prerouting priority -100; policy accept; jump prerouting_miniupnpd; }
	chain prerouting_miniupnpd { }
	chain postrouting { type nat hook postrouting priority 100; policy accept; jump postrouting_miniupnpd; }
	chain postrouting_miniupnpd { }
}
`
	conf := fmt.Sprintf(`ext_ifname=wan
listening_ip=lan
ext_perform_stun=yes
ext_stun_host=%s.1
ext_stun_port=%d
enable_natpmp=yes
enable_upnp=yes
secure_mode=yes
system_uptime=yes
ipv6_disable=yes
upnp_table_name=mmjupnp
upnp_nat_table_name=mmjupnp
upnp_forward_chain=miniupnpd
upnp_nat_chain=prerouting_miniupnpd
upnp_nat_postrouting_chain=postrouting_miniupnpd
lease_file=%s
uuid=3f1e1b2a-7a52-4c1c-9d7e-%012d
allow 1024-65535 %s.0/24 1024-65535
deny 0-65535 0.0.0.0/0 0-65535
`, PublicNet, STUNPort, filepath.Join(dir, "leases"), len(name), lan)
	nftFile, confFile := filepath.Join(dir, "ruleset.nft"), filepath.Join(dir, "miniupnpd.conf")
	if err := errors.Join(os.WriteFile(nftFile, []byte(ruleset), 0o600), os.WriteFile(confFile, []byte(conf), 0o600)); err != nil {
		return err
	}
	if err := run(ctx, "ip", "netns", "exec", r, "nft", "-f", nftFile); err != nil {
		return err
	}
	p, err := l.Start(ctx, Host{Name: name + " miniupnpd", NS: r}, nil, "miniupnpd", "-d", "-f", confFile, "-P", filepath.Join(dir, "pid"))
	if err != nil {
		return err
	}
	l.mu.Lock()
	l.home[name].upnpd = p
	l.mu.Unlock()
	return waitUPnP(ctx, name, p)
}

// waitUPnP waits (up to 10 s) until miniupnpd p, in debug mode, logged to
// stderr that it listens for NAT-PMP, which it does once its STUN check
// is done: a player asking before then would be refused (NAT-PMP result
// 3) and would not ask again for a while. It returns an error with
// miniupnpd's log if it exits first or if the check disabled port
// forwarding.
func waitUPnP(ctx context.Context, name string, p *Proc) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		log := p.Stderr()
		switch {
		case strings.Contains(log, "Port forwarding is now disabled"), strings.Contains(log, "Port forwarding is impossible"):
			return fmt.Errorf("natlab: home %s: miniupnpd refuses to map ports:\n%s", name, log)
		case strings.Contains(log, "Listening for NAT-PMP"):
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("natlab: home %s: miniupnpd not listening: %w:\n%s", name, ctx.Err(), log)
		case <-p.done:
			return fmt.Errorf("natlab: home %s: miniupnpd exited:\n%s", name, log)
		case <-tick.C:
		}
	}
}

// Router returns the namespace of home's router (for tcpdump or
// conntrack in it) and its miniupnpd process (nil without Home.UPnP), or
// "" for a home the lab did not add.
func (l *Lab) Router(home string) (ns string, upnpd *Proc) {
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.home[home]
	if st == nil {
		return "", nil
	}
	return st.ns, st.upnpd
}

// WAN returns the IPv4 address of home's router on its WAN side now (on
// the Internet, or on its CGN's inside network), or "" for a home the lab
// did not add.
func (l *Lab) WAN(home string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if st := l.home[home]; st != nil {
		return st.wan
	}
	return ""
}
