package natlab

import (
	"context"
	"errors"
	"fmt"
	"net"
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

// PublicNet6 is the lab's IPv6 Internet, a /64 of the documentation
// prefix 2001:db8::/32 (RFC 3849): the Internet namespace routes between
// it and the homes' prefixes as ::1, public hosts get ::2 upwards (the
// same last number as their IPv4 address), home routers ::100 upwards.
// A dual-stack home's LAN is the routed prefix 2001:db8:N::/64.
const PublicNet6 = "2001:db8:ff"

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
	// IP6 is its global IPv6 address, "" for a player in a home without
	// IPv6 (Home.IPv6): PublicNet6::x for a public host, 2001:db8:N::x
	// for a player.
	IP6 string
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
	links   int // veth ends on the bridges
	wans    int // WAN addresses given to home routers (renumbering takes a new one)
	cgns    int // carrier-grade NATs added
	home    map[string]*homeState
	dirs    []string       // temporary directories (miniupnpd's), removed by Close
	stun    net.PacketConn // the STUN server's socket (serveSTUN), else nil
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
	l := &Lab{prefix: prefix, home: map[string]*homeState{}}
	inet, err := l.addNS(ctx, "inet")
	if err != nil {
		return nil, errors.Join(err, l.Close())
	}
	l.inet = inet
	// The Internet is one router hop between any two machines on it, as
	// the real one is many: every host on the bridge has a /32 (IPv4)
	// and its default route through the Internet namespace (.1, ::1),
	// which routes between them (decrementing the TTL, sending no
	// redirects) and routes each dual-stack home's IPv6 prefix to its
	// router. A packet sent with TTL 2 from a home's LAN opens the home
	// router's NAT and dies there, one hop before the other home's
	// router: what a low-TTL first packet does on the real Internet.
	for _, args := range [][]string{
		{"ip", "-n", inet, "link", "add", "inet0", "type", "bridge"},
		{"ip", "-n", inet, "link", "set", "inet0", "up"},
		{"ip", "-n", inet, "addr", "add", PublicNet + ".1/24", "dev", "inet0"},
		{"ip", "netns", "exec", inet, "sysctl", "-qw", "net.ipv4.ip_forward=1"},
		{"ip", "netns", "exec", inet, "sysctl", "-qw", "net.ipv4.conf.all.send_redirects=0"},
		{"ip", "netns", "exec", inet, "sysctl", "-qw", "net.ipv4.conf.inet0.send_redirects=0"},
		{"ip", "netns", "exec", inet, "sysctl", "-qw", "net.ipv6.conf.all.forwarding=1"},
		{"ip", "-n", inet, "addr", "add", PublicNet6 + "::1/64", "dev", "inet0", "nodad"},
	} {
		if err := run(ctx, args[0], args[1:]...); err != nil {
			return nil, errors.Join(err, l.Close())
		}
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
// end in ns is called dev and has address ip/32, and routes everything
// through the Internet's router (PublicNet .1).
func (l *Lab) plug(ctx context.Context, ns, dev, ip string) error {
	if err := l.plugInto(ctx, ns, dev, ip+"/32", l.inet, "inet0"); err != nil {
		return err
	}
	return run(ctx, "ip", "-n", ns, "route", "add", "default", "via", PublicNet+".1", "dev", dev, "onlink")
}

// plugInto connects namespace ns to the bridge br of namespace brNS with a
// veth whose end in ns is called dev and has address cidr.
func (l *Lab) plugInto(ctx context.Context, ns, dev, cidr, brNS, br string) error {
	l.mu.Lock()
	l.links++
	end := "w" + strconv.Itoa(l.links)
	l.mu.Unlock()
	for _, args := range [][]string{
		{"-n", ns, "link", "add", dev, "type", "veth", "peer", "name", end, "netns", brNS},
		{"-n", brNS, "link", "set", end, "master", br},
		{"-n", brNS, "link", "set", end, "up"},
		{"-n", ns, "addr", "add", cidr, "dev", dev},
		{"-n", ns, "link", "set", dev, "up"},
	} {
		if err := run(ctx, "ip", args...); err != nil {
			return err
		}
	}
	return nil
}

// AddPublic adds a host with a public address (PublicNet .2 upwards,
// and PublicNet6 ::2 upwards) on the Internet's bridge, with counting
// rules (Bytes).
func (l *Lab) AddPublic(ctx context.Context, name string) (Host, error) {
	l.mu.Lock()
	l.publics++
	ip := fmt.Sprintf("%s.%d", PublicNet, 1+l.publics)
	ip6 := fmt.Sprintf("%s::%d", PublicNet6, 1+l.publics)
	l.mu.Unlock()
	ns, err := l.addNS(ctx, name)
	if err != nil {
		return Host{}, err
	}
	if err := l.plug(ctx, ns, "eth0", ip); err != nil {
		return Host{}, err
	}
	for _, args := range [][]string{
		{"-n", ns, "addr", "add", ip6 + "/64", "dev", "eth0", "nodad"},
		{"-n", ns, "-6", "route", "add", "default", "via", PublicNet6 + "::1"},
	} {
		if err := run(ctx, "ip", args...); err != nil {
			return Host{}, err
		}
	}
	// Rules without a target only count what they match.
	for _, ipt := range []string{"iptables", "ip6tables"} {
		for _, rule := range [][]string{{"INPUT", "-i", "eth0"}, {"OUTPUT", "-o", "eth0"}} {
			if err := run(ctx, "ip", append([]string{"netns", "exec", ns, ipt, "-A"}, rule...)...); err != nil {
				return Host{}, err
			}
		}
	}
	return Host{Name: name, NS: ns, IP: ip, IP6: ip6}, nil
}

// Bytes returns the bytes a public host received and sent, outside its
// loopback, since AddPublic (iptables' and ip6tables' counters, IP
// headers included).
func (l *Lab) Bytes(ctx context.Context, h Host) (in, out int64, err error) {
	for _, ipt := range []string{"iptables", "ip6tables"} {
		for i, chain := range []string{"INPUT", "OUTPUT"} {
			cctx, cancel := context.WithTimeout(ctx, cmdTimeout)
			b, err := exec.CommandContext(cctx, "ip", "netns", "exec", h.NS, ipt, "-nvx", "-L", chain).Output()
			cancel()
			if err != nil {
				return 0, 0, fmt.Errorf("reading %s's %s %s counter: %w", h.Name, ipt, chain, err)
			}
			v, err := countedBytes(string(b))
			if err != nil {
				return 0, 0, fmt.Errorf("reading %s's %s %s counter: %w", h.Name, ipt, chain, err)
			}
			if i == 0 {
				in += v
			} else {
				out += v
			}
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
	procs, nss, dirs, stun := l.procs, l.nss, l.dirs, l.stun
	l.procs, l.nss, l.dirs, l.stun = nil, nil, nil, nil
	l.mu.Unlock()
	if stun != nil {
		_ = stun.Close()
	}
	for _, p := range procs {
		p.Kill()
	}
	for _, d := range dirs {
		_ = os.RemoveAll(d)
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
