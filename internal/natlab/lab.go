package natlab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// PublicNet is the lab's Internet, a /24 of TEST-NET-2 (RFC 5737): the
// relay and other public hosts get .2 upwards, the home routers' WAN sides
// .100 upwards.
const PublicNet = "198.51.100"

// cmdTimeout bounds each ip or iptables command that builds the lab.
const cmdTimeout = 10 * time.Second

// Host is one machine of the lab: a network namespace with one address.
type Host struct {
	// Name is the name the test gave it ("relay", "alice").
	Name string
	// NS is its network namespace (for ip netns exec).
	NS string
	// IP is its IPv4 address: on PublicNet for a public host, on its
	// home's LAN (10.0.N.x) for a player.
	IP string
}

// Lab is a set of namespaces forming an Internet of homes; see the package
// doc. Its methods are safe for concurrent use.
type Lab struct {
	prefix string
	inet   string // the Internet's namespace, holding the bridge "inet0"

	mu      sync.Mutex
	nss     []string // every namespace created, in creation order
	procs   []*Proc
	homes   int // homes added, numbering the LANs 10.0.1.0/24 upwards
	publics int // public hosts added
	links   int // veth ends on the bridge
}

// Available reports why no lab can be built on this machine: not root,
// or `ip` or `iptables` missing. It returns nil when a lab can be built.
func Available() error {
	if os.Geteuid() != 0 {
		return errors.New("natlab needs root (network namespaces and iptables)")
	}
	for _, tool := range []string{"ip", "iptables"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("natlab needs %s (apt-get install -y iproute2 iptables): %w", tool, err)
		}
	}
	return nil
}

// New creates the lab's Internet: a namespace with a bridge, no host on it
// yet. prefix starts every namespace's name (a test passes something
// unique to it, at most 8 characters); Close deletes them all. It returns
// an error naming the command that failed, after deleting what it made.
func New(ctx context.Context, prefix string) (*Lab, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	l := &Lab{prefix: prefix}
	inet, err := l.addNS(ctx, "inet")
	if err != nil {
		return nil, errors.Join(err, l.Close())
	}
	l.inet = inet
	if err := run(ctx, "ip", "-n", inet, "link", "add", "inet0", "type", "bridge"); err != nil {
		return nil, errors.Join(err, l.Close())
	}
	if err := run(ctx, "ip", "-n", inet, "link", "set", "inet0", "up"); err != nil {
		return nil, errors.Join(err, l.Close())
	}
	return l, nil
}

// addNS creates the namespace prefix-name with its loopback up.
func (l *Lab) addNS(ctx context.Context, name string) (string, error) {
	ns := l.prefix + "-" + name
	if err := run(ctx, "ip", "netns", "add", ns); err != nil {
		return "", err
	}
	l.mu.Lock()
	l.nss = append(l.nss, ns)
	l.mu.Unlock()
	return ns, run(ctx, "ip", "-n", ns, "link", "set", "lo", "up")
}

// plug connects namespace ns to the Internet's bridge with a veth whose
// end in ns is called dev and has address ip/24.
func (l *Lab) plug(ctx context.Context, ns, dev, ip string) error {
	l.mu.Lock()
	l.links++
	end := "w" + strconv.Itoa(l.links)
	l.mu.Unlock()
	for _, args := range [][]string{
		{"-n", ns, "link", "add", dev, "type", "veth", "peer", "name", end, "netns", l.inet},
		{"-n", l.inet, "link", "set", end, "master", "inet0"},
		{"-n", l.inet, "link", "set", end, "up"},
		{"-n", ns, "addr", "add", ip + "/24", "dev", dev},
		{"-n", ns, "link", "set", dev, "up"},
	} {
		if err := run(ctx, "ip", args...); err != nil {
			return err
		}
	}
	return nil
}

// AddPublic adds a host with a public address (PublicNet .2 upwards) on
// the Internet's bridge, with counting rules (Bytes).
func (l *Lab) AddPublic(ctx context.Context, name string) (Host, error) {
	l.mu.Lock()
	l.publics++
	ip := fmt.Sprintf("%s.%d", PublicNet, 1+l.publics)
	l.mu.Unlock()
	ns, err := l.addNS(ctx, name)
	if err != nil {
		return Host{}, err
	}
	if err := l.plug(ctx, ns, "eth0", ip); err != nil {
		return Host{}, err
	}
	// Rules without a target only count what they match.
	for _, rule := range [][]string{{"INPUT", "-i", "eth0"}, {"OUTPUT", "-o", "eth0"}} {
		if err := run(ctx, "ip", append([]string{"netns", "exec", ns, "iptables", "-A"}, rule...)...); err != nil {
			return Host{}, err
		}
	}
	return Host{Name: name, NS: ns, IP: ip}, nil
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
}

// AddHome adds a home: a router with a WAN address on the Internet
// (PublicNet .100 upwards), source NAT and stateful filtering as the
// package doc says, and behind it a LAN 10.0.N.0/24 (router .1) with one
// host per player (.2 upwards), whose default route is the router. It
// returns the players' hosts in the order of h.Players.
func (l *Lab) AddHome(ctx context.Context, h Home) ([]Host, error) {
	l.mu.Lock()
	l.homes++
	n := l.homes
	l.mu.Unlock()
	r, err := l.addNS(ctx, h.Name)
	if err != nil {
		return nil, err
	}
	if err := l.plug(ctx, r, "wan", fmt.Sprintf("%s.%d", PublicNet, 99+n)); err != nil {
		return nil, err
	}
	lan := fmt.Sprintf("10.0.%d", n)
	masq := []string{"-t", "nat", "-A", "POSTROUTING", "-o", "wan", "-j", "MASQUERADE"}
	if h.Random {
		masq = append(masq, "--random")
	}
	steps := [][]string{
		{"ip", "-n", r, "link", "add", "lan", "type", "bridge"},
		{"ip", "-n", r, "addr", "add", lan + ".1/24", "dev", "lan"},
		{"ip", "-n", r, "link", "set", "lan", "up"},
		{"ip", "netns", "exec", r, "sysctl", "-qw", "net.ipv4.ip_forward=1"},
		append([]string{"ip", "netns", "exec", r, "iptables"}, masq...),
		{"ip", "netns", "exec", r, "iptables", "-A", "FORWARD", "-i", "wan", "-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED", "-j", "ACCEPT"},
		{"ip", "netns", "exec", r, "iptables", "-A", "FORWARD", "-i", "wan", "-j", "DROP"},
		// The router itself answers nothing unsolicited from the WAN: no
		// TCP reset or ICMP unreachable to a punch that arrives before
		// the home's own packet has opened the mapping.
		{"ip", "netns", "exec", r, "iptables", "-A", "INPUT", "-i", "wan", "-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED", "-j", "ACCEPT"},
		{"ip", "netns", "exec", r, "iptables", "-A", "INPUT", "-i", "wan", "-j", "DROP"},
	}
	for _, s := range steps {
		if err := run(ctx, s[0], s[1:]...); err != nil {
			return nil, err
		}
	}
	var hosts []Host
	for i, name := range h.Players {
		p, err := l.addNS(ctx, name)
		if err != nil {
			return nil, err
		}
		ip := fmt.Sprintf("%s.%d", lan, 2+i)
		port := "l" + strconv.Itoa(i)
		for _, args := range [][]string{
			{"-n", r, "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", p},
			{"-n", r, "link", "set", port, "master", "lan"},
			{"-n", r, "link", "set", port, "up"},
			{"-n", p, "addr", "add", ip + "/24", "dev", "eth0"},
			{"-n", p, "link", "set", "eth0", "up"},
			{"-n", p, "route", "add", "default", "via", lan + ".1"},
		} {
			if err := run(ctx, "ip", args...); err != nil {
				return nil, err
			}
		}
		hosts = append(hosts, Host{Name: name, NS: p, IP: ip})
	}
	return hosts, nil
}

// Bytes returns the bytes a public host received and sent, outside its
// loopback, since AddPublic (iptables' counters, IP headers included).
func (l *Lab) Bytes(ctx context.Context, h Host) (in, out int64, err error) {
	for i, chain := range []string{"INPUT", "OUTPUT"} {
		cctx, cancel := context.WithTimeout(ctx, cmdTimeout)
		b, err := exec.CommandContext(cctx, "ip", "netns", "exec", h.NS, "iptables", "-nvx", "-L", chain).Output()
		cancel()
		if err != nil {
			return 0, 0, fmt.Errorf("reading %s's %s counter: %w", h.Name, chain, err)
		}
		v, err := countedBytes(string(b))
		if err != nil {
			return 0, 0, fmt.Errorf("reading %s's %s counter: %w", h.Name, chain, err)
		}
		if i == 0 {
			in = v
		} else {
			out = v
		}
	}
	return in, out, nil
}

// countedBytes reads the byte count of the first rule of `iptables -nvx
// -L CHAIN`: two header lines, then "pkts bytes target prot …".
func countedBytes(listing string) (int64, error) {
	lines := strings.Split(strings.TrimSpace(listing), "\n")
	if len(lines) < 3 {
		return 0, fmt.Errorf("no counting rule in %q", listing)
	}
	f := strings.Fields(lines[2])
	if len(f) < 2 {
		return 0, fmt.Errorf("bad rule line %q", lines[2])
	}
	return strconv.ParseInt(f[1], 10, 64)
}

// Close kills every process still running (Start) and deletes every
// namespace the lab created, with its veths and rules. It returns the
// errors of the deletions, if any; it is safe to call more than once.
func (l *Lab) Close() error {
	l.mu.Lock()
	procs, nss := l.procs, l.nss
	l.procs, l.nss = nil, nil
	l.mu.Unlock()
	for _, p := range procs {
		p.Kill()
	}
	var errs []error
	for i := len(nss) - 1; i >= 0; i-- {
		ctx, cancel := context.WithTimeout(context.Background(), cmdTimeout)
		if err := run(ctx, "ip", "netns", "del", nss[i]); err != nil {
			errs = append(errs, err)
		}
		cancel()
	}
	return errors.Join(errs...)
}

// run runs one command of the lab's set-up, bounded by cmdTimeout, and
// returns an error naming it with its output if it fails.
func run(ctx context.Context, name string, args ...string) error {
	ctx, cancel := context.WithTimeout(ctx, cmdTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("natlab: %s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}
