package main

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/node/invite"
)

// startTestRelay starts a node.Relay on 127.0.0.1, closed when the test
// ends, and returns it with its address as --relay takes it.
func startTestRelay(t *testing.T) (*node.Relay, string) {
	t.Helper()
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
	return r, r.Addrs()[0].String()
}

// A guest who gives no --relay and stays off the public network reserves
// on the relays of the host's invite, so that another player who has
// only its relayed address reaches it; a guest with a --relay of its own
// reserves there only.
func TestGuestReservesOnTheInvitesRelays(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	hostRelay, hostRelayAddr := startTestRelay(t)
	ownRelay, ownRelayAddr := startTestRelay(t)

	// The host: reserved on its relay, its invite carrying only the
	// relayed address.
	key, err := node.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	info, err := node.ParseRelay(hostRelayAddr)
	if err != nil {
		t.Fatal(err)
	}
	h, err := node.New(ctx, node.Config{Identity: key, Relays: []peer.AddrInfo{info}, Meet: func(peer.ID) bool { return true },
		Listen: []multiaddr.Multiaddr{multiaddr.StringCast("/ip4/127.0.0.1/tcp/0")}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	relayed, err := h.WaitReservations(wctx)
	wcancel()
	if err != nil || len(relayed) == 0 {
		t.Fatalf("the host reserved no slot: %v", err)
	}
	transport, _ := peer.SplitAddr(relayed[0])
	m, err := invite.NewMeeting(h.Host(), key, "friday", "alice", []multiaddr.Multiaddr{transport}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	code, err := m.Invite().Encode()
	if err != nil {
		t.Fatal(err)
	}
	inv, err := invite.Parse(code)
	if err != nil {
		t.Fatal(err)
	}
	if got := inv.RelayInfos(); len(got) != 1 || got[0].ID != hostRelay.ID() {
		t.Fatalf("the invite's relays are %v, want the host's %s", got, hostRelay.ID())
	}

	for _, tc := range []struct {
		name     string
		relays   listFlag
		want     *node.Relay
		says     string
		progress string
		// summary is what the network summary (printNetSummary) says
		// of the one relay reserved on, in the progress format.
		summary string
	}{
		{"no --relay, --no-public", nil, hostRelay, "reserving a slot on the host's 1 relay(s), from the invite", "text", "; relays: 1\n"},
		{"a --relay of its own", listFlag{ownRelayAddr}, ownRelay, `"event":"reserving"`, "json", `"relays":1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The summary waits for what the node learns up to
			// netSummaryWait, longer than this test; on loopback the
			// node learns only its relays, so waiting shorter here
			// gives the same line.
			f := tableFlags{noPublic: true, relays: tc.relays, dataDir: t.TempDir(), progress: tc.progress,
				listen: listFlag{"/ip4/127.0.0.1/tcp/0"}, netSummaryWait: 300 * time.Millisecond}
			var out syncBuffer
			var errOut bytes.Buffer
			cmd := &cobra.Command{Use: "join"}
			cmd.SetContext(ctx)
			cmd.SetOut(&out)
			cmd.SetErr(&errOut)
			meet := func(p peer.ID) bool { return p == inv.Host }
			st, code, ok := f.startNode(cmd, nil, meet, inv.RelayInfos())
			if !ok {
				t.Fatalf("startNode: exit %d\n%s", code, errOut.String())
			}
			defer st.n.Close()
			if !strings.Contains(out.String(), tc.says) || errOut.Len() != 0 {
				t.Errorf("the guest printed %q and %q; want %q", out.String(), errOut.String(), tc.says)
			}
			addrs := st.n.RelayedAddrs()
			if len(addrs) == 0 {
				t.Fatalf("the guest holds no reservation:\n%s%s", out.String(), errOut.String())
			}
			for _, a := range addrs {
				if !strings.Contains(a.String(), "/p2p/"+tc.want.ID().String()+"/p2p-circuit") {
					t.Errorf("the guest's relayed address %s is not through %s", a, tc.want.ID())
				}
			}

			// Another player, given only the guest's relayed address,
			// reaches it.
			guestAt, err := node.ParsePeer(addrs[0].String())
			if err != nil {
				t.Fatal(err)
			}
			okey, err := node.NewIdentity()
			if err != nil {
				t.Fatal(err)
			}
			other, err := node.New(ctx, node.Config{Identity: okey, Peers: []peer.AddrInfo{guestAt},
				Listen: []multiaddr.Multiaddr{multiaddr.StringCast("/ip4/127.0.0.1/tcp/0")}})
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			otherAt, err := node.ParsePeer(other.Addrs()[0].String())
			if err != nil {
				t.Fatal(err)
			}
			if err := st.n.SetPeers([]peer.AddrInfo{otherAt}); err != nil {
				t.Fatal(err)
			}
			cctx, ccancel := context.WithTimeout(ctx, 15*time.Second)
			defer ccancel()
			if err := other.Connect(cctx); err != nil {
				t.Fatalf("a player with only the guest's relayed address: %v", err)
			}
			circuit := false
			for _, c := range other.Host().Network().ConnsToPeer(st.n.ID()) {
				circuit = circuit || strings.Contains(c.RemoteMultiaddr().String(), "/p2p-circuit")
			}
			if !circuit {
				t.Error("the other player reached the guest, but not through the relay")
			}
			checkNetSummary(t, &out, tc.progress, tc.summary)
		})
	}
}

// checkNetSummary waits up to 10 s for the one-line network summary that
// host and join print at their start, in the progress format (text:
// "network: …"; json: a "netcheck" event), and checks that it says want.
func checkNetSummary(t *testing.T, out *syncBuffer, format, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		for line := range strings.Lines(out.String()) {
			summary := strings.HasPrefix(line, "network: ")
			if format == "json" {
				summary = strings.HasPrefix(line, `{"event":"netcheck",`)
			}
			if summary {
				if !strings.Contains(line, want) {
					t.Errorf("the network summary %q does not say %q", line, want)
				}
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no network summary (%s) printed at the start:\n%s", format, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// syncBuffer is a bytes.Buffer a node's goroutines write to while the
// test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
