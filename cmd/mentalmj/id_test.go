package main

import (
	"bytes"
	"context"
	"net"
	"regexp"
	"testing"

	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/mentalmj/mentalmj/node"
)

// "mentalmj id" prints the peer address that ParsePeer (what join --peer
// uses) accepts, and the same identity on every run.
func TestIDCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var out1, out2, errs bytes.Buffer
	if code := run(context.Background(), []string{"id", "--data-dir", dir, "--listen", "/ip4/192.0.2.1/tcp/4001"}, &out1, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	m := regexp.MustCompile(`(?m)^peer address: (\S+)$`).FindStringSubmatch(out1.String())
	if m == nil {
		t.Fatalf("no peer address in:\n%s", out1.String())
	}
	info, err := node.ParsePeer(m[1])
	if err != nil {
		t.Fatalf("printed address %q is not a --peer address: %v", m[1], err)
	}
	if !bytes.Contains(out1.Bytes(), []byte("peer ID: "+info.ID.String())) {
		t.Errorf("peer ID line does not match the address:\n%s", out1.String())
	}
	run(context.Background(), []string{"id", "--data-dir", dir, "--listen", "/ip4/192.0.2.1/tcp/4001"}, &out2, &errs)
	if out1.String() != out2.String() {
		t.Errorf("identity changed between runs:\n%s\n%s", out1.String(), out2.String())
	}
	if code := run(context.Background(), []string{"id", "--data-dir", dir, "--listen", "nonsense"}, &out2, &errs); code != 2 {
		t.Errorf("bad --listen: exit %d, want 2", code)
	}
}

// With an unspecified --listen host, "mentalmj id" prints this machine's
// interface addresses (as the standard library lists them), never
// 0.0.0.0.
func TestIDCommandUnspecified(t *testing.T) {
	t.Parallel()
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{"id", "--data-dir", t.TempDir(), "--listen", "/ip4/0.0.0.0/tcp/4001"}, &out, &errs); code != 0 {
		t.Skipf("no IPv4 interface address? exit %d: %s", code, errs.String())
	}
	ifaces, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	lines := regexp.MustCompile(`(?m)^peer address: (\S+)$`).FindAllStringSubmatch(out.String(), -1)
	if len(lines) == 0 {
		t.Fatalf("no peer address in:\n%s", out.String())
	}
	for _, m := range lines {
		info, err := node.ParsePeer(m[1])
		if err != nil {
			t.Fatalf("printed address %q is not a --peer address: %v", m[1], err)
		}
		ip, err := manet.ToIP(info.Addrs[0])
		if err != nil || ip.IsUnspecified() {
			t.Errorf("printed address %s has no specific IP", m[1])
			continue
		}
		found := false
		for _, a := range ifaces {
			if n, ok := a.(*net.IPNet); ok && n.IP.Equal(ip) {
				found = true
			}
		}
		if !found {
			t.Errorf("printed address %s is not an interface address %v", m[1], ifaces)
		}
	}
}
