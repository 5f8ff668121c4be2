package main

import (
	"bytes"
	"context"
	"strings"
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
		name   string
		relays listFlag
		want   *node.Relay
		says   string
	}{
		{"no --relay, --no-public", nil, hostRelay, "reserving a slot on the host's 1 relay(s), from the invite"},
		{"a --relay of its own", listFlag{ownRelayAddr}, ownRelay, "reserving a slot on 1 relay(s)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tableFlags{noPublic: true, relays: tc.relays, dataDir: t.TempDir(), progress: "text",
				listen: listFlag{"/ip4/127.0.0.1/tcp/0"}}
			var out, errOut bytes.Buffer
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
		})
	}
}
