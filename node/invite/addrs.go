package invite

import (
	"slices"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
)

// Bounds on the addresses an invite carries (ChooseAddrs). The invite is
// a string the host sends by chat and the guest pastes: it has at most
// MaxAddrs (16) addresses and MaxInviteLen (2048)
// characters, and a relayed address (a relay's address, its 38-byte peer
// ID and /p2p-circuit) takes 50 to 70 bytes, about 100 characters.
const (
	// inviteDirectFirst direct addresses come before any relayed one,
	// so that a guest on the host's LAN or a host with a public address
	// is reached without a relay.
	inviteDirectFirst = 4
	// relayedPerRelay is the most addresses of one relay an invite
	// carries: two (e.g. its TCP and QUIC ones) keep a guest whose
	// network blocks one transport in reach, and every further one
	// would take the room of another relay.
	relayedPerRelay = 2
)

// ChooseAddrs picks the addresses (transport addresses, relayed ones
// RELAY-ADDR/p2p/RELAY/p2p-circuit) an invite carries from the host's
// addrs, within MaxAddrs addresses and room bytes as
// AddrSize counts them (Invite.AddrRoom): first up to
// inviteDirectFirst direct addresses, then one address of every relay
// (distinct relays before more addresses of one: a guest needs only one
// relay that answers), then a second address of each relay (one of
// another transport if it has one), then the other direct addresses. An
// address that does not fit is skipped for a smaller one. It returns them
// in their order in addrs.
func ChooseAddrs(addrs []multiaddr.Multiaddr, room int) []multiaddr.Multiaddr {
	var direct []multiaddr.Multiaddr
	var relays []peer.ID
	byRelay := map[peer.ID][]multiaddr.Multiaddr{}
	for _, a := range addrs {
		r := relayIn(a)
		if r == "" {
			direct = append(direct, a)
			continue
		}
		if _, ok := byRelay[r]; !ok {
			relays = append(relays, r)
		}
		byRelay[r] = append(byRelay[r], a)
	}
	chosen := map[string]bool{}
	count := 0
	take := func(a multiaddr.Multiaddr) bool {
		size := AddrSize(a)
		if count >= MaxAddrs || size > room || chosen[string(a.Bytes())] {
			return false
		}
		chosen[string(a.Bytes())] = true
		count++
		room -= size
		return true
	}
	for _, a := range direct[:min(len(direct), inviteDirectFirst)] {
		take(a)
	}
	// taken[r] are the addresses of relay r in the invite.
	taken := map[peer.ID][]multiaddr.Multiaddr{}
	for round := 0; round < relayedPerRelay; round++ {
		for _, r := range relays {
			if len(taken[r]) != round {
				continue // no room for its first address: none more
			}
			for _, a := range preferOtherTransport(byRelay[r], taken[r]) {
				if take(a) {
					taken[r] = append(taken[r], a)
					break
				}
			}
		}
	}
	for _, a := range direct {
		take(a)
	}
	var out []multiaddr.Multiaddr
	for _, a := range addrs {
		if chosen[string(a.Bytes())] {
			out = append(out, a)
			chosen[string(a.Bytes())] = false // each once
		}
	}
	return out
}

// preferOtherTransport returns the addresses of cands not in taken, those
// whose transport (TCP, UDP) none of taken has first, each group in its
// order.
func preferOtherTransport(cands, taken []multiaddr.Multiaddr) []multiaddr.Multiaddr {
	used := map[int]bool{}
	for _, a := range taken {
		used[transportCode(a)] = true
	}
	var other, same []multiaddr.Multiaddr
	for _, a := range cands {
		switch {
		case slices.ContainsFunc(taken, a.Equal):
		case used[transportCode(a)]:
			same = append(same, a)
		default:
			other = append(other, a)
		}
	}
	return append(other, same...)
}

// transportCode returns the code of a's first TCP or UDP component, or 0.
func transportCode(a multiaddr.Multiaddr) int {
	for _, c := range a {
		if c.Code() == multiaddr.P_TCP || c.Code() == multiaddr.P_UDP {
			return c.Code()
		}
	}
	return 0
}

// relayIn returns the relay's peer ID of a relayed address
// (…/p2p/RELAY/p2p-circuit), or "" for a direct one.
func relayIn(a multiaddr.Multiaddr) peer.ID {
	for i, c := range a {
		if c.Code() != multiaddr.P_P2P || i+1 >= len(a) || a[i+1].Code() != multiaddr.P_CIRCUIT {
			continue
		}
		if id, err := peer.Decode(c.Value()); err == nil {
			return id
		}
	}
	return ""
}
