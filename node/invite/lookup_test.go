package invite

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/routing"
	"github.com/multiformats/go-multiaddr"

	"github.com/mentalmj/mentalmj/node"
)

// deadAddr returns a 127.0.0.1 TCP address nobody listens on: a port that
// was free a moment ago, as an invite's address is after its host
// restarted on another port.
func deadAddr(t *testing.T) multiaddr.Multiaddr {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return multiaddr.StringCast(fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", port))
}

// startPublicPlayer starts a node on 127.0.0.1 on the public network of
// this test, whose only bootstrap peer (and DHT server) is dht, and joins
// it.
func startPublicPlayer(t *testing.T, ctx context.Context, dht peer.AddrInfo, meet func(peer.ID) bool) player {
	t.Helper()
	key, err := node.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	n, err := node.New(context.Background(), node.Config{Identity: key, Meet: meet,
		Listen: []multiaddr.Multiaddr{multiaddr.StringCast("/ip4/127.0.0.1/tcp/0")},
		Public: true, Bootstrap: []peer.AddrInfo{dht}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = n.Close() })
	if reached, err := n.JoinPublic(ctx); err != nil || reached != 1 {
		t.Fatalf("JoinPublic = %d, %v; want the test's DHT server reached", reached, err)
	}
	return player{key, n}
}

// An invite whose only address went stale (the host now listens
// elsewhere) still seats its guests: their dials fail, they look the host
// up on the DHT (a private one on loopback: a mentalmj relay is a
// Kademlia DHT server, the only bootstrap peer) and dial what it finds.
// Without the look-up the guests never reach the host.
func TestJoinFindsHostByPeerRouting(t *testing.T) {
	t.Parallel()
	ctx := ctxFor(t, 30*time.Second)
	key, err := node.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	r, err := node.NewRelay(context.Background(), node.RelayConfig{Identity: key,
		Listen: []multiaddr.Multiaddr{multiaddr.StringCast("/ip4/127.0.0.1/tcp/0")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	dht, err := node.ParseRelay(r.Addrs()[0].String())
	if err != nil {
		t.Fatal(err)
	}

	h := startPublicPlayer(t, ctx, dht, func(peer.ID) bool { return true })
	stale := deadAddr(t)
	m, err := NewMeeting(h.n.Host(), h.key, "friday", "alice", []multiaddr.Multiaddr{stale}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	if err := m.SetPlayers(3); err != nil {
		t.Fatal(err)
	}
	code, err := m.Invite().Encode()
	if err != nil {
		t.Fatal(err)
	}
	inv, err := Parse(code)
	if err != nil {
		t.Fatal(err)
	}
	if len(inv.Addrs) != 1 || !inv.Addrs[0].Equal(stale) {
		t.Fatalf("the invite carries %v, want only the stale %s", inv.Addrs, stale)
	}

	guests := make([]player, 2)
	seatings := make([]Seating, 2)
	errs := make([]error, 2)
	var mu sync.Mutex
	var looked, found []string
	var wg sync.WaitGroup
	for i := range guests {
		guests[i] = startPublicPlayer(t, ctx, dht, func(p peer.ID) bool { return p == inv.Host })
		g := guests[i]
		find := &Finder{
			Find: g.n.FindPeer,
			Wait: 10 * time.Second,
			Looking: func(wait time.Duration) {
				mu.Lock()
				defer mu.Unlock()
				looked = append(looked, fmt.Sprintf("guest %d, up to %s", i, wait))
			},
			Found: func(addrs []multiaddr.Multiaddr, err error) {
				mu.Lock()
				defer mu.Unlock()
				found = append(found, fmt.Sprintf("guest %d at %s: %v, %v", i, time.Now().Format("05.000"), addrs, err))
			},
		}
		wg.Go(func() {
			seatings[i], errs[i] = Join(ctx, g.n.Host(), inv, fmt.Sprintf("g%d", i), g.addrs(), nil, find)
		})
	}
	seating, err := m.Gather(ctx, nil)
	if err != nil {
		t.Fatalf("the guests never reached the host: %v (look-ups: %v; found: %v)", err, looked, found)
	}
	if err := h.n.SetPeers(seating.Peers(h.n.ID())); err != nil {
		t.Fatal(err)
	}
	if err := m.Announce(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("guest %d: %v", i, err)
		}
		if len(seatings[i].Seats) != 3 || seatings[i].Seats[0].ID != h.n.ID() {
			t.Errorf("guest %d: seating %+v", i, seatings[i])
		}
	}
	mu.Lock()
	defer mu.Unlock()
	t.Logf("look-ups: %v; found: %v", looked, found)
	if len(looked) < 2 || !strings.Contains(looked[0], "up to 10s") {
		t.Errorf("look-ups announced: %v; want each guest's, with its bound", looked)
	}
	// The connections run to the host's real address, which only the
	// DHT knew.
	for i, g := range guests {
		for _, c := range g.n.Host().Network().ConnsToPeer(h.n.ID()) {
			if c.RemoteMultiaddr().Equal(stale) {
				t.Errorf("guest %d reached the host at the stale address %s", i, stale)
			}
		}
	}
}

// A guest who cannot reach the host is told what to do: without a DHT to
// ask (off the public network), and when the DHT does not know the host
// either; the error names the host and wraps ctx's.
func TestJoinUnreachableHostSaysWhatToDo(t *testing.T) {
	t.Parallel()
	h := startPlayer(t, func(peer.ID) bool { return true })
	m, err := NewMeeting(h.n.Host(), h.key, "friday", "alice", []multiaddr.Multiaddr{deadAddr(t)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	inv := m.Invite()
	notFound := func(context.Context, peer.ID) (peer.AddrInfo, error) {
		return peer.AddrInfo{}, fmt.Errorf("looking it up: %w", routing.ErrNotFound)
	}
	for _, tc := range []struct {
		name  string
		find  *Finder
		wants []string
	}{
		{"off the public network", nil, []string{"ask for its new invite", "--no-public", "nobody can look the host up"}},
		{"unknown to the DHT", &Finder{Find: notFound}, []string{"ask for its new invite", "the public DHT did not find it either", routing.ErrNotFound.Error()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := guestOf(t, inv)
			looks := 0
			if tc.find != nil {
				tc.find.Looking = func(wait time.Duration) {
					looks++
					if wait != FindWait {
						t.Errorf("look-up bounded by %s, want FindWait", wait)
					}
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			start := time.Now()
			_, err := Join(ctx, g.n.Host(), inv, "bob", g.addrs(), nil, tc.find)
			if err == nil {
				t.Fatal("joined a host nobody can reach")
			}
			if time.Since(start) > 10*time.Second {
				t.Errorf("Join took %s past its 3 s context", time.Since(start))
			}
			if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), inv.Host.String()) {
				t.Errorf("error %v: want it to name the host and wrap ctx's and ErrUnreachable", err)
			}
			for _, w := range tc.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if tc.find != nil && looks == 0 {
				t.Error("the host was never looked up")
			}
		})
	}
}
