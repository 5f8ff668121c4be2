package invite

import (
	"fmt"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"

	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/riichi/settings"
)

// newPeerID returns a fresh Ed25519 peer ID.
func newPeerID(t *testing.T) peer.ID {
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

// hostAddrs returns a host's transport addresses as its node lists them:
// direct ones, then three relayed addresses (TCP, QUIC, TCP over IPv6)
// on each of relays.
func hostAddrs(t *testing.T, direct int, relays []peer.ID) []multiaddr.Multiaddr {
	t.Helper()
	var out []multiaddr.Multiaddr
	for i := range direct {
		out = append(out, multiaddr.StringCast(fmt.Sprintf("/ip4/192.0.2.%d/tcp/4001", i+1)))
	}
	for i, r := range relays {
		for _, tr := range []string{
			fmt.Sprintf("/ip4/203.0.113.%d/tcp/4001", i+1),
			fmt.Sprintf("/ip4/203.0.113.%d/udp/4001/quic-v1", i+1),
			fmt.Sprintf("/ip6/2001:db8::%x/tcp/4001", i+1),
		} {
			out = append(out, multiaddr.StringCast(tr+"/p2p/"+r.String()+"/p2p-circuit"))
		}
	}
	return out
}

// The invite carries every relay the host reserved on, one or two
// addresses each (of two transports), distinct relays before more
// addresses of one, and its string stays within MaxInviteLen even
// with the longest table name and nickname.
func TestInviteAddrs(t *testing.T) {
	t.Parallel()
	host := newPeerID(t)
	game := settings.Default()
	for _, tc := range []struct {
		name         string
		relays       int
		table, nick  string
		tight        bool // room for 4 direct and one address a relay only
		wantRelays   int
		wantPerRelay int // 0: 1 or 2
		wantDirect   int
	}{
		{name: "six relays", relays: 6, table: "friday", nick: "alice", wantRelays: 6, wantPerRelay: 2, wantDirect: 4},
		{name: "six relays, longest names", relays: 6, table: strings.Repeat("t", MaxTableLen), nick: strings.Repeat("n", MaxNickLen), wantRelays: 6, wantDirect: 4},
		{name: "room for one address a relay", relays: 6, table: "friday", nick: "alice", tight: true, wantRelays: 6, wantPerRelay: 1, wantDirect: 4},
		{name: "twenty relays", relays: 20, table: "friday", nick: "alice", wantRelays: MaxAddrs - inviteDirectFirst, wantPerRelay: 1, wantDirect: 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var relays []peer.ID
			for range tc.relays {
				relays = append(relays, newPeerID(t))
			}
			addrs := hostAddrs(t, 5, relays)
			inv := Invite{Table: tc.table, Host: host, Nick: tc.nick, Players: 4, Settings: &game}
			room := inv.AddrRoom()
			if tc.tight {
				// Four direct addresses, the first (TCP) address of each
				// relay, and less than a direct address to spare.
				room = 4*AddrSize(addrs[0]) + AddrSize(addrs[0])/2
				for i := range relays {
					room += AddrSize(addrs[5+3*i])
				}
			}
			inv.Addrs = ChooseAddrs(addrs, room)
			if len(inv.Addrs) > MaxAddrs {
				t.Fatalf("%d addresses, at most %d", len(inv.Addrs), MaxAddrs)
			}
			perRelay := map[peer.ID][]multiaddr.Multiaddr{}
			direct := 0
			for _, a := range inv.Addrs {
				if r := relayIn(a); r != "" {
					perRelay[r] = append(perRelay[r], a)
				} else {
					direct++
				}
			}
			if direct != tc.wantDirect {
				t.Errorf("%d direct addresses, want %d: %v", direct, tc.wantDirect, inv.Addrs)
			}
			for i, r := range relays[:tc.wantRelays] {
				got := perRelay[r]
				switch {
				case len(got) == 0:
					t.Errorf("relay %d (%s) is missing from the invite: %v", i, r, inv.Addrs)
				case len(got) > relayedPerRelay || tc.wantPerRelay != 0 && len(got) != tc.wantPerRelay:
					t.Errorf("relay %d has %d addresses, want %d: %v", i, len(got), tc.wantPerRelay, got)
				case len(got) == 2 && transportCode(got[0]) == transportCode(got[1]):
					t.Errorf("relay %d's two addresses share a transport: %v", i, got)
				}
			}
			code, err := inv.Encode()
			if err != nil {
				if !tc.tight {
					t.Fatalf("the invite does not encode: %v", err)
				}
				return
			}
			back, err := Parse(code)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(back.Relays()); got != tc.wantRelays {
				t.Errorf("the parsed invite names %d relays, want %d", got, tc.wantRelays)
			}
		})
	}
}
