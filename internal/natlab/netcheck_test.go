package natlab

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/node/netcheck"
)

// TestNetcheck runs `mentalmj netcheck --json` with two lab relays as
// bootstrap peers (two observers) on a public host, behind an ordinary
// home router, behind one that gives a new port per destination, and in a
// dual-stack IPv6 home, and checks each report against what the lab was
// built to be. A fourth probe (IPv6 QUIC) would wait 2 minutes for a
// server: netcheck reports it unknown within --wait.
func TestNetcheck(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	l := newLab(t, ctx)
	var relays []string
	// Three relays: three AutoNAT v2 servers, each of which libp2p's
	// client asks once in 2 minutes (IPv4 TCP, IPv6 TCP, IPv4 QUIC).
	for _, name := range []string{"relay", "relay2", "relay3"} {
		h, err := l.AddPublic(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		_, addr := startRelay(t, ctx, l, h)
		relays = append(relays, addr)
	}
	pub, err := l.AddPublic(ctx, "pub")
	if err != nil {
		t.Fatal(err)
	}
	hosts := []Host{pub}
	for _, h := range []Home{
		{Name: "home-home", Players: []string{"home"}},
		{Name: "home-hard", Players: []string{"hard"}, Random: true},
		{Name: "home-v6", Players: []string{"v6"}, IPv6: true},
	} {
		hs, err := l.AddHome(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		hosts = append(hosts, hs...)
	}
	want := map[string]struct {
		nat       string
		reachable map[string]string // family and transport → "yes" or "no"
		ipv6      bool
	}{
		"pub":  {"no NAT", map[string]string{"IPv4 TCP": "yes", "IPv4 QUIC": "yes", "IPv6 TCP": "yes"}, true},
		"home": {"a NAT that keeps ports", map[string]string{"IPv4 TCP": "no", "IPv4 QUIC": "no"}, false},
		"hard": {"a NAT that gives a new port for every destination", map[string]string{"IPv4 TCP": "no"}, false},
		"v6":   {"a NAT that keeps ports", map[string]string{"IPv4 TCP": "no", "IPv4 QUIC": "no", "IPv6 TCP": "no"}, true},
	}
	dir := t.TempDir()
	var procs []*Proc
	for _, h := range hosts {
		p, err := l.Start(ctx, h, nil, bin, "netcheck", "-v", "--json", "--wait", "20s", "--data-dir", filepath.Join(dir, h.Name),
			"--bootstrap", relays[0], "--bootstrap", relays[1], "--bootstrap", relays[2])
		if err != nil {
			t.Fatal(err)
		}
		procs = append(procs, p)
	}
	for _, p := range procs {
		line, err := p.WaitLine(ctx, "the report", func(s string) bool { return strings.HasPrefix(s, "{") })
		if err != nil {
			t.Fatal(err)
		}
		var r netcheck.Report
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s: %v: %s", p.Name, err, line)
		}
		t.Logf("%s: %s", p.Name, r.Summary())
		w := want[p.Name]
		if r.NAT != w.nat {
			t.Errorf("%s: NAT %q, want %q", p.Name, r.NAT, w.nat)
		}
		if r.Observers < 2 {
			t.Errorf("%s: %d observers, want 2", p.Name, r.Observers)
		}
		if r.IPv6 != w.ipv6 {
			t.Errorf("%s: IPv6 %v, want %v", p.Name, r.IPv6, w.ipv6)
		}
		got := map[string]string{}
		for _, pr := range r.Reachability {
			got[pr.Family+" "+pr.Transport] = pr.Reachable
		}
		for k, v := range w.reachable {
			if got[k] != v {
				t.Errorf("%s: %s reachable %q, want %q: %+v", p.Name, k, got[k], v, r.Reachability)
			}
		}
		if len(r.Relays) == 0 {
			t.Errorf("%s: no relay reserved on", p.Name)
		}
		if len(r.PortMapping) != 0 {
			t.Errorf("%s: port mapping %v from a router without UPnP or NAT-PMP", p.Name, r.PortMapping)
		}
		if t.Failed() {
			t.Logf("%s stderr:\n%s", p.Name, tail(p.Stderr(), 6000))
		}
		if code, err := p.Wait(ctx); err != nil || code != 0 {
			t.Errorf("%s: exit %d, %v; stderr:\n%s", p.Name, code, err, tail(p.Stderr(), 2000))
		}
	}
}

// TestNetcheckUPnP runs `mentalmj netcheck --json` behind a router that
// gives a new port per destination and offers UPnP IGD / NAT-PMP
// (miniupnpd), and checks that the node had port 4001 mapped on the
// router's WAN address (TCP and UDP, at a port of the router's choice)
// and that the mapping lets a stranger in: AutoNAT v2 servers dialled the
// player back at the mapped addresses (reachable over IPv4 TCP and QUIC),
// which no other path into this home allows. As a control, the same
// router without UPnP maps nothing and is not reachable (TestNetcheck's
// "hard" player).
func TestNetcheckUPnP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, tool := range []string{"miniupnpd", "nft"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("a UPnP home needs %s (apt-get install -y miniupnpd nftables): %v", tool, err)
		}
	}
	l := newLab(t, ctx)
	var relays []string
	for _, name := range []string{"relay", "relay2", "relay3"} {
		h, err := l.AddPublic(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		_, addr := startRelay(t, ctx, l, h)
		relays = append(relays, addr)
	}
	hosts, err := l.AddHome(ctx, Home{Name: "home-upnp", Players: []string{"upnp"}, Random: true, UPnP: true})
	if err != nil {
		t.Fatal(err)
	}
	p, err := l.Start(ctx, hosts[0], nil, bin, "netcheck", "-v", "--json", "--wait", "20s", "--data-dir", t.TempDir(),
		"--bootstrap", relays[0], "--bootstrap", relays[1], "--bootstrap", relays[2])
	if err != nil {
		t.Fatal(err)
	}
	line, err := p.WaitLine(ctx, "the report", func(s string) bool { return strings.HasPrefix(s, "{") })
	if err != nil {
		t.Fatal(err)
	}
	var r netcheck.Report
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		t.Fatalf("%v: %s", err, line)
	}
	t.Logf("%s", r.Summary())
	// The router picks the external port (libp2p asks for a random one).
	wan := l.WAN("home-upnp")
	for _, want := range []string{"/ip4/" + wan + "/tcp/", "/ip4/" + wan + "/udp/"} {
		if !slices.ContainsFunc(r.PortMapping, func(a string) bool { return strings.HasPrefix(a, want) }) {
			t.Errorf("port mapping %v, want a %s… address among them", r.PortMapping, want)
		}
	}
	for _, tr := range []string{"TCP", "QUIC"} {
		if !slices.ContainsFunc(r.Reachability, func(p netcheck.Probe) bool {
			return p.Family == "IPv4" && p.Transport == tr && p.Reachable == "yes" && slices.Contains(r.PortMapping, p.Addr)
		}) {
			t.Errorf("IPv4 %s not reachable at a mapped address (AutoNAT v2 dialling back through the mapping): %+v", tr, r.Reachability)
		}
	}
	_, upnpd := l.Router("home-upnp")
	if t.Failed() {
		t.Logf("netcheck stderr:\n%s\nminiupnpd:\n%s", tail(p.Stderr(), 6000), tail(upnpd.Stderr(), 6000))
	}
	if code, err := p.Wait(ctx); err != nil || code != 0 {
		t.Errorf("exit %d, %v; stderr:\n%s", code, err, tail(p.Stderr(), 2000))
	}
}
