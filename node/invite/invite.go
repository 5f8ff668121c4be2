package invite

import (
	"bytes"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/node/invite/pb"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/settings"
)

// Limits on what an invite, a hello or a seating list may carry.
const (
	// Prefix starts every invite string, followed by the version digit.
	Prefix = "mmj"
	// Version is the invite format this package writes and reads.
	Version = 1
	// MaxInviteLen is the longest invite string Parse accepts, in
	// characters (bytes).
	MaxInviteLen = 2048
	// MaxAddrs is the most addresses one peer may announce.
	MaxAddrs = 16
	// MaxAddrLen is the longest binary multiaddr accepted, in bytes.
	MaxAddrLen = 256
	// MaxTableLen is the longest table name, in bytes of UTF-8.
	MaxTableLen = 64
	// MaxNickLen is the longest nickname, in bytes of UTF-8 (the game's
	// Hello allows the same).
	MaxNickLen = 64
	// checksumLen is the length of the invite checksum, in bytes.
	checksumLen = 4
)

// b32 is RFC 4648 base32 without padding; invites are written in lower
// case and read in either.
var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

// Invite is what a guest needs to reach a host: the table's name, the
// host's peer ID and the host's dialable transport addresses (each without
// the final /p2p/<host>; a relayed one is RELAY-ADDR/p2p/<relay>/p2p-circuit).
type Invite struct {
	Table string
	Host  peer.ID
	Addrs []multiaddr.Multiaddr
	// Players is the number of players the host gathers, itself
	// included: 4, or 3 for a three-player (sanma) table; 0 means 4.
	Players int
	// Settings are the game the host's table plays, with Players
	// players; nil in an invite from a host before them.
	Settings *settings.Settings
	// Nick is the host's nickname (may be empty).
	Nick string
}

// Describe returns what a guest is shown before it dials: "alice's table
// friday: 4 players, hanchan, Tenhou rules (…), 5+10 s per decision"
// (settings.Settings.Summary), "table friday: …" without a nickname, or
// only the table and player count for an invite without settings.
func (inv Invite) Describe() string {
	who := fmt.Sprintf("table %s", inv.Table)
	if inv.Nick != "" {
		who = fmt.Sprintf("%s's table %s", inv.Nick, inv.Table)
	}
	if inv.Settings == nil {
		return fmt.Sprintf("%s: %d players (the invite carries no other settings)", who, inv.PlayerCount())
	}
	return who + ": " + inv.Settings.Summary()
}

// PlayerCount returns the number of players the invite seats: Players, or
// protocol.Players (4) when it is 0.
func (inv Invite) PlayerCount() int {
	if inv.Players == 0 {
		return protocol.Players
	}
	return inv.Players
}

// Encode returns the invite string: "mmj1" then the lowercase unpadded
// base32 of the protobuf Invite followed by the first 4 bytes of
// SHA-256("mmj1" ‖ body) (see the package doc). It returns an error
// wrapping ErrMalformed if inv would not pass Parse: a bad table name, an
// invalid or non-Ed25519 host ID, no address or more than MaxAddrs, an
// address that is not dialable as ParsePeer reads it, or a string longer
// than MaxInviteLen.
func (inv Invite) Encode() (string, error) {
	if err := inv.check(); err != nil {
		return "", fmt.Errorf("invite: %w", err)
	}
	body, err := proto.Marshal(inv.proto())
	if err != nil {
		return "", fmt.Errorf("invite: encoding: %w", err)
	}
	head := fmt.Sprintf("%s%d", Prefix, Version)
	sum := checksum(head, body)
	s := head + strings.ToLower(b32.EncodeToString(append(body, sum...)))
	if len(s) > MaxInviteLen {
		return "", fmt.Errorf("invite: %w: %d characters, at most %d (fewer addresses?)", ErrMalformed, len(s), MaxInviteLen)
	}
	return s, nil
}

// proto returns inv's wire form.
func (inv Invite) proto() *pb.Invite {
	m := &pb.Invite{Table: inv.Table, Host: []byte(inv.Host), Nick: inv.Nick}
	if inv.PlayerCount() != protocol.Players {
		m.Players = uint32(inv.Players)
	}
	for _, a := range inv.Addrs {
		m.Addrs = append(m.Addrs, a.Bytes())
	}
	if inv.Settings != nil {
		m.Settings = inv.Settings.Proto()
	}
	return m
}

// maxBody is the longest invite body (the protobuf Invite) whose string,
// with its prefix and checksum, fits in MaxInviteLen characters: base32
// writes 8 characters for every 5 bytes.
const maxBody = (MaxInviteLen-len("mmj1"))*5/8 - checksumLen

// AddrRoom returns how many bytes of further addresses, each counted as
// AddrSize counts it, inv can take before its string would be longer
// than MaxInviteLen: a host sizes its invite's addresses with it (a long
// table name, nickname or settings leave less room). It is negative when
// inv is already too long. It checks nothing else.
func (inv Invite) AddrRoom() int {
	return maxBody - proto.Size(inv.proto())
}

// AddrSize returns the bytes address a takes in an invite: its binary
// form with the protobuf field's tag and length.
func AddrSize(a multiaddr.Multiaddr) int {
	return protowire.SizeTag(3) + protowire.SizeBytes(len(a.Bytes()))
}

func checksum(head string, body []byte) []byte {
	h := sha256.New()
	h.Write([]byte(head))
	h.Write(body)
	return h.Sum(nil)[:checksumLen]
}

// Parse reads an invite string written by Encode; surrounding white space
// is ignored and case does not matter. Its errors say what is wrong and
// wrap ErrMalformed (not an invite, bad characters, bad fields), ErrVersion
// (a version other than 1) or ErrChecksum (mistyped or cut short).
func Parse(s string) (Invite, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch {
	case len(s) > MaxInviteLen:
		return Invite{}, fmt.Errorf("invite: %w: %d characters, at most %d", ErrMalformed, len(s), MaxInviteLen)
	case !strings.HasPrefix(s, Prefix):
		return Invite{}, fmt.Errorf("invite: %w: does not start with %q (copy the whole mmj1… string the host printed)", ErrMalformed, Prefix+"1")
	case len(s) == len(Prefix):
		return Invite{}, fmt.Errorf("invite: %w: nothing after %q: cut short?", ErrChecksum, Prefix)
	}
	v := s[len(Prefix)]
	if v < '0' || v > '9' {
		return Invite{}, fmt.Errorf("invite: %w: %q after %q is not a version digit", ErrMalformed, rune(v), Prefix)
	}
	if v != '0'+Version {
		return Invite{}, fmt.Errorf("invite: %w %c: this mentalmj reads version %d; the host runs a different release", ErrVersion, v, Version)
	}
	head, data := s[:len(Prefix)+1], s[len(Prefix)+1:]
	raw, err := b32.DecodeString(strings.ToUpper(data))
	if err != nil {
		var pos base32.CorruptInputError
		if errors.As(err, &pos) && int(pos) < len(data) && !strings.ContainsRune("abcdefghijklmnopqrstuvwxyz234567", rune(data[pos])) {
			return Invite{}, fmt.Errorf("invite: %w: character %q at position %d is not base32 (a–z, 2–7)", ErrMalformed, data[pos], int(pos)+len(head)+1)
		}
		return Invite{}, fmt.Errorf("invite: %w: %d characters cannot end an invite: cut short or mistyped? Copy it again whole", ErrChecksum, len(s))
	}
	if len(raw) <= checksumLen {
		return Invite{}, fmt.Errorf("invite: %w: only %d characters: cut short? Copy it again whole", ErrChecksum, len(s))
	}
	body, sum := raw[:len(raw)-checksumLen], raw[len(raw)-checksumLen:]
	if !bytes.Equal(sum, checksum(head, body)) {
		return Invite{}, fmt.Errorf("invite: %w: mistyped or cut short? Copy it again whole", ErrChecksum)
	}
	var m pb.Invite
	if err := proto.Unmarshal(body, &m); err != nil {
		return Invite{}, fmt.Errorf("invite: %w: body: %v", ErrMalformed, err)
	}
	inv := Invite{Table: m.Table, Nick: m.Nick}
	if m.Players != 0 && m.Players != protocol.Players {
		if m.Players != 3 {
			return Invite{}, fmt.Errorf("invite: %w: a table of %d players, want 3 or %d", ErrMalformed, m.Players, protocol.Players)
		}
		inv.Players = 3
	}
	if inv.Host, err = peer.IDFromBytes(m.Host); err != nil {
		return Invite{}, fmt.Errorf("invite: %w: host peer ID: %v", ErrMalformed, err)
	}
	if inv.Addrs, err = decodeAddrs(m.Addrs); err != nil {
		return Invite{}, fmt.Errorf("invite: %w", err)
	}
	if m.Settings != nil {
		st, err := settings.FromProto(m.Settings)
		if err != nil {
			return Invite{}, fmt.Errorf("invite: the host's table: %w", err)
		}
		inv.Settings = &st
	}
	if err := inv.check(); err != nil {
		return Invite{}, fmt.Errorf("invite: %w", err)
	}
	return inv, nil
}

// check validates inv's fields; its errors wrap ErrMalformed.
func (inv Invite) check() error {
	if err := CheckTable(inv.Table); err != nil {
		return err
	}
	if err := checkHostID(inv.Host); err != nil {
		return err
	}
	if err := checkAddrs(inv.Host, inv.Addrs); err != nil {
		return fmt.Errorf("host: %w", err)
	}
	if err := CheckNick(inv.Nick); err != nil {
		return fmt.Errorf("host: %w", err)
	}
	if n := inv.PlayerCount(); n != 3 && n != protocol.Players {
		return fmt.Errorf("%w: a table of %d players, want 3 or %d", ErrMalformed, n, protocol.Players)
	}
	if inv.Settings != nil {
		if err := inv.Settings.Check(); err != nil {
			return fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		if inv.Settings.Players != inv.PlayerCount() {
			return fmt.Errorf("%w: settings for %d players at a table of %d", ErrMalformed, inv.Settings.Players, inv.PlayerCount())
		}
	}
	return nil
}

// ForTable returns nil if inv is for table, else an error wrapping
// ErrOtherTable naming both tables.
func (inv Invite) ForTable(table string) error {
	if inv.Table != table {
		return fmt.Errorf("invite: %w: the invite is for table %q, not %q", ErrOtherTable, inv.Table, table)
	}
	return nil
}

// AddrInfo returns the host's peer ID and addresses, as libp2p dials them.
func (inv Invite) AddrInfo() peer.AddrInfo {
	return peer.AddrInfo{ID: inv.Host, Addrs: inv.Addrs}
}

// Relays returns the peer IDs of the relays named in inv's relayed
// addresses (…/p2p/<relay>/p2p-circuit), each once, in order: a guest's
// connection gater must admit them to reach the host through them.
func (inv Invite) Relays() []peer.ID {
	var out []peer.ID
	for _, a := range inv.Addrs {
		for i, c := range a {
			if c.Code() != multiaddr.P_P2P || i+1 >= len(a) || a[i+1].Code() != multiaddr.P_CIRCUIT {
				continue
			}
			if id, err := peer.Decode(c.Value()); err == nil && !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}

// RelayInfos returns the relays named in inv's relayed addresses
// (RELAY-ADDR/p2p/<relay>/p2p-circuit), each once in the order of Relays,
// with the addresses (RELAY-ADDR) the invite reaches it at: a guest
// without relays of its own reserves on them (node.Config.Relays), so
// that the other players reach it the way it reaches the host. It
// returns nil for an invite without relayed addresses.
func (inv Invite) RelayInfos() []peer.AddrInfo {
	var out []peer.AddrInfo
	at := map[peer.ID]int{}
	for _, a := range inv.Addrs {
		for i, c := range a {
			if c.Code() != multiaddr.P_P2P || i == 0 || i+1 >= len(a) || a[i+1].Code() != multiaddr.P_CIRCUIT {
				continue
			}
			id, err := peer.Decode(c.Value())
			if err != nil {
				continue
			}
			k, ok := at[id]
			if !ok {
				k = len(out)
				at[id] = k
				out = append(out, peer.AddrInfo{ID: id})
			}
			relayAddr := multiaddr.Multiaddr(slices.Clone(a[:i]))
			if !slices.ContainsFunc(out[k].Addrs, relayAddr.Equal) {
				out[k].Addrs = append(out[k].Addrs, relayAddr)
			}
		}
	}
	return out
}

// CheckTable returns an error wrapping ErrMalformed unless name is a table
// name: 1 to MaxTableLen bytes of valid UTF-8 without control or other
// invisible characters (space is allowed inside).
func CheckTable(name string) error {
	if err := checkText(name, MaxTableLen); err != nil {
		return fmt.Errorf("table name %q: %w", name, err)
	}
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("table name %q: %w: empty", name, ErrMalformed)
	}
	return nil
}

// CheckNick returns an error wrapping ErrMalformed unless nick is empty or
// at most MaxNickLen bytes of valid UTF-8 without control or other
// invisible characters.
func CheckNick(nick string) error {
	if err := checkText(nick, MaxNickLen); err != nil {
		return fmt.Errorf("nickname %q: %w", nick, err)
	}
	return nil
}

func checkText(s string, maxLen int) error {
	if len(s) > maxLen {
		return fmt.Errorf("%w: %d bytes, at most %d", ErrMalformed, len(s), maxLen)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("%w: not UTF-8", ErrMalformed)
	}
	for _, r := range s {
		if r != ' ' && !unicode.IsGraphic(r) {
			return fmt.Errorf("%w: contains %U", ErrMalformed, r)
		}
	}
	return nil
}

// checkHostID accepts a valid peer ID that embeds its Ed25519 public key,
// so that signatures can be checked against it.
func checkHostID(id peer.ID) error {
	if err := id.Validate(); err != nil {
		return fmt.Errorf("%w: host peer ID: %v", ErrMalformed, err)
	}
	if _, err := id.ExtractPublicKey(); err != nil {
		return fmt.Errorf("%w: host peer ID %s does not embed its public key: %v", ErrMalformed, id, err)
	}
	return nil
}

// decodeAddrs decodes at most MaxAddrs binary multiaddrs of at most
// MaxAddrLen bytes each; errors wrap ErrMalformed.
func decodeAddrs(raw [][]byte) ([]multiaddr.Multiaddr, error) {
	if len(raw) > MaxAddrs {
		return nil, fmt.Errorf("%w: %d addresses, at most %d", ErrMalformed, len(raw), MaxAddrs)
	}
	out := make([]multiaddr.Multiaddr, 0, len(raw))
	for i, b := range raw {
		if len(b) > MaxAddrLen {
			return nil, fmt.Errorf("%w: address %d: %d bytes, at most %d", ErrMalformed, i+1, len(b), MaxAddrLen)
		}
		a, err := multiaddr.NewMultiaddrBytes(b)
		if err != nil {
			return nil, fmt.Errorf("%w: address %d: %v", ErrMalformed, i+1, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// checkAddrs checks that id has 1 to MaxAddrs addresses, each a transport
// address that, followed by /p2p/<id>, is a peer address node.ParsePeer
// accepts for id alone (a relayed one names its relay). Errors wrap
// ErrMalformed.
func checkAddrs(id peer.ID, addrs []multiaddr.Multiaddr) error {
	if len(addrs) == 0 || len(addrs) > MaxAddrs {
		return fmt.Errorf("%w: %d addresses, want 1 to %d", ErrMalformed, len(addrs), MaxAddrs)
	}
	for _, a := range addrs {
		if len(a.Bytes()) > MaxAddrLen {
			return fmt.Errorf("%w: address %s: longer than %d bytes", ErrMalformed, a, MaxAddrLen)
		}
		if len(a) == 0 {
			return fmt.Errorf("%w: empty address", ErrMalformed)
		}
		if c := a[0].Code(); c == multiaddr.P_P2P || c == multiaddr.P_CIRCUIT {
			return fmt.Errorf("%w: address %s: no transport address before /p2p", ErrMalformed, a)
		}
		for i, c := range a {
			switch {
			case c.Code() == multiaddr.P_CIRCUIT && i != len(a)-1:
				return fmt.Errorf("%w: address %s: /p2p-circuit must end it", ErrMalformed, a)
			case c.Code() == multiaddr.P_P2P && (i+1 >= len(a) || a[i+1].Code() != multiaddr.P_CIRCUIT):
				return fmt.Errorf("%w: address %s: names a peer (only a relay before /p2p-circuit may be named)", ErrMalformed, a)
			}
		}
		full, err := peer.AddrInfoToP2pAddrs(&peer.AddrInfo{ID: id, Addrs: []multiaddr.Multiaddr{a}})
		if err != nil || len(full) != 1 {
			return fmt.Errorf("%w: address %s: %v", ErrMalformed, a, err)
		}
		info, err := node.ParsePeer(full[0].String())
		if err != nil {
			return fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		if info.ID != id || len(info.Addrs) != 1 || !info.Addrs[0].Equal(a) {
			return fmt.Errorf("%w: address %s names another peer", ErrMalformed, a)
		}
	}
	return nil
}
