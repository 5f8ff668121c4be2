package natlab

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/node"
)

// absentPeer returns a fresh peer ID nobody runs: a table seat that stays
// empty.
func absentPeer(t testing.TB) peer.ID {
	t.Helper()
	key, err := node.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestReachability: AutoNAT v2 tells a node whether others can dial it,
// with the lab's relay as the server. A player on a public address is
// dialled back, through its gater, which admits the dial-back from the
// server's unknown peer ID only while the probe waits for it; players
// behind an ordinary home router and behind one that gives a new port per
// destination are not. Each runs `mentalmj join` with a table of three
// players who never come (so that its gater admits nobody else), and is
// stopped once it has said.
func TestReachability(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	l := newLab(t, ctx)
	relayHost, err := l.AddPublic(ctx, "relay")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := l.AddPublic(ctx, "pub")
	if err != nil {
		t.Fatal(err)
	}
	homes := homes(t, ctx, l, []string{"home", "hard"}, map[string]bool{"hard": true})
	_, relayAddr := startRelay(t, ctx, l, relayHost)
	dir := t.TempDir()
	want := map[string]struct {
		reachable bool
		ip        string // the address probed
	}{
		"pub":  {true, pub.IP},
		"home": {false, PublicNet + ".100"},
		"hard": {false, PublicNet + ".101"},
	}
	absent := []string{"--table", "lab"}
	for i := range 3 {
		absent = append(absent, "--peer", fmt.Sprintf("/ip4/%s.%d/tcp/4001/p2p/%s", PublicNet, 250+i, absentPeer(t)))
	}
	var procs []*Proc
	for _, h := range append([]Host{pub}, homes...) {
		args := append(append([]string{"join", "--name", h.Name, "--relay", relayAddr}, absent...), playFlags(filepath.Join(dir, h.Name), 1)...)
		p, err := l.Start(ctx, h, []string{"XDG_CONFIG_HOME=" + dir}, bin, args...)
		if err != nil {
			t.Fatal(err)
		}
		procs = append(procs, p)
	}
	for _, p := range procs {
		line, err := p.WaitLine(ctx, "what AutoNAT v2 says", isEvent[progress.Reachability])
		if err != nil {
			t.Fatal(err)
		}
		e, _ := eventOf[progress.Reachability](line)
		w := want[p.Name]
		t.Logf("%s: %v", p.Name, e.Text)
		if e.Reachable == nil || *e.Reachable != w.reachable {
			t.Errorf("%s: reachable %s, want %v: %v", p.Name, reachableText(e.Reachable), w.reachable, e.Text)
		}
		if !strings.HasPrefix(e.Addr, fmt.Sprintf("/ip4/%s/", w.ip)) {
			t.Errorf("%s: probed %q, want an address at %s", p.Name, e.Addr, w.ip)
		}
		p.Kill()
	}
}

// reachableText is a Reachability's verdict in words: "unknown" when
// AutoNAT v2 gave none.
func reachableText(r *bool) string {
	if r == nil {
		return "unknown"
	}
	return fmt.Sprint(*r)
}
