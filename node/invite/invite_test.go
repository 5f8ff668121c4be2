package invite

import (
	"bufio"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
	"github.com/multiformats/go-multihash"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node/invite/pb"
)

// readVector returns the first non-comment line of a testdata file.
func readVector(t *testing.T, name string) string {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			return line
		}
	}
	t.Fatalf("testdata/%s: no vector", name)
	return ""
}

// rfc8032Host is the peer ID of the RFC 8032 section 7.1 TEST 1 public key.
func rfc8032Host(t *testing.T) peer.ID {
	t.Helper()
	raw, _ := hex.DecodeString("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
	pub, err := crypto.UnmarshalEd25519PublicKey(raw)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// The invite built by hand in Python (testdata/invite-v1.txt) parses to
// the fields it was built from, and Encode writes it back byte for byte.
func TestParseVector(t *testing.T) {
	t.Parallel()
	s := readVector(t, "invite-v1.txt")
	inv, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/ip4/192.0.2.7/tcp/4001", "/ip4/192.0.2.7/udp/4001/quic-v1"}
	if inv.Table != "friday" || inv.Host != rfc8032Host(t) || len(inv.Addrs) != len(want) {
		t.Fatalf("parsed %+v", inv)
	}
	for i, a := range inv.Addrs {
		if a.String() != want[i] {
			t.Errorf("address %d = %s, want %s", i, a, want[i])
		}
	}
	again, err := inv.Encode()
	if err != nil || again != s {
		t.Errorf("Encode = %q, %v; want %q", again, err, s)
	}
	// Case and surrounding white space do not matter.
	if _, err := Parse("  " + strings.ToUpper(s) + "\n"); err != nil {
		t.Errorf("upper case: %v", err)
	}
}

func testKey(t testing.TB, seed byte) (crypto.PrivKey, peer.ID) {
	t.Helper()
	var s [32]byte
	s[0] = seed
	// An Ed25519 private key in libp2p's layout is seed ‖ public key.
	k, err := crypto.UnmarshalEd25519PrivateKey(ed25519Key(s))
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return k, id
}

func testInvite(t testing.TB) Invite {
	_, id := testKey(t, 1)
	return Invite{Table: "Friday night 麻雀", Host: id, Addrs: []multiaddr.Multiaddr{
		multiaddr.StringCast("/ip4/192.0.2.7/tcp/4001"),
		multiaddr.StringCast("/ip6/2001:db8::7/udp/4001/quic-v1"),
		multiaddr.StringCast("/ip4/198.51.100.4/tcp/4001/p2p/12D3KooWAEKiG8Z8YqVsGbJNwQfyaDtqubZ5BzGaVkrvPDssJbD1/p2p-circuit"),
	}}
}

// Round trip, checked against a second decoding path: base32 and SHA-256
// of the standard library and the protobuf message, read directly.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	inv := testInvite(t)
	s, err := inv.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s, "mmj1") || s != strings.ToLower(s) {
		t.Fatalf("invite %q: want lower case starting with mmj1", s)
	}
	raw, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(strings.ToUpper(s[4:]))
	if err != nil {
		t.Fatal(err)
	}
	body, sum := raw[:len(raw)-4], raw[len(raw)-4:]
	h := sha256.Sum256(append([]byte("mmj1"), body...))
	if string(h[:4]) != string(sum) {
		t.Error("checksum is not SHA-256(mmj1 ‖ body)[:4]")
	}
	var m pb.Invite
	if err := proto.Unmarshal(body, &m); err != nil || m.Table != inv.Table || string(m.Host) != string(inv.Host) || len(m.Addrs) != 3 {
		t.Fatalf("body: %v %+v", err, &m)
	}
	got, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	if got.Table != inv.Table || got.Host != inv.Host || len(got.Addrs) != len(inv.Addrs) {
		t.Fatalf("Parse(Encode(x)) = %+v, want %+v", got, inv)
	}
	for i := range got.Addrs {
		if !got.Addrs[i].Equal(inv.Addrs[i]) {
			t.Errorf("address %d: %s, want %s", i, got.Addrs[i], inv.Addrs[i])
		}
	}
	if r := got.Relays(); len(r) != 1 || r[0].String() != "12D3KooWAEKiG8Z8YqVsGbJNwQfyaDtqubZ5BzGaVkrvPDssJbD1" {
		t.Errorf("Relays() = %v, want the relay of the third address", r)
	}
	if err := got.ForTable(inv.Table); err != nil {
		t.Error(err)
	}
	if err := got.ForTable("saturday"); !errors.Is(err, ErrOtherTable) || !strings.Contains(err.Error(), "saturday") {
		t.Errorf("ForTable(other) = %v, want ErrOtherTable naming it", err)
	}
}

// Every truncation of an invite, and every one-character change, is
// refused.
func TestTruncatedAndMistyped(t *testing.T) {
	t.Parallel()
	s := readVector(t, "invite-v1.txt")
	for n := range len(s) {
		_, err := Parse(s[:n])
		if !errors.Is(err, ErrChecksum) && !errors.Is(err, ErrMalformed) {
			t.Errorf("truncated to %d characters: %v, want ErrChecksum or ErrMalformed", n, err)
		}
	}
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	for i := 4; i < len(s); i++ {
		for _, c := range alphabet {
			if byte(c) == s[i] {
				continue
			}
			typo := s[:i] + string(c) + s[i+1:]
			if _, err := Parse(typo); !errors.Is(err, ErrChecksum) && !errors.Is(err, ErrMalformed) {
				t.Fatalf("%q (position %d changed): %v, want ErrChecksum", typo, i, err)
			}
		}
	}
	// Two adjacent characters swapped.
	for i := 4; i+1 < len(s); i++ {
		if s[i] == s[i+1] {
			continue
		}
		swap := s[:i] + string(s[i+1]) + string(s[i]) + s[i+2:]
		if _, err := Parse(swap); err == nil {
			t.Errorf("characters %d and %d swapped: accepted", i, i+1)
		}
	}
}

// reencode builds an invite string with a valid checksum around any body.
func reencode(head string, body []byte) string {
	sum := sha256.Sum256(append([]byte(head), body...))
	return head + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(append(body, sum[:4]...)))
}

func TestParseBadInput(t *testing.T) {
	t.Parallel()
	good := readVector(t, "invite-v1.txt")
	host := rfc8032Host(t)
	hashed, _ := multihash.Sum([]byte("an RSA key"), multihash.SHA2_256, -1)
	addr := multiaddr.StringCast("/ip4/192.0.2.7/tcp/4001").Bytes()
	body := func(m *pb.Invite) string {
		b, err := proto.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return reencode("mmj1", b)
	}
	many := make([][]byte, MaxAddrs+1)
	for i := range many {
		many[i] = addr
	}
	cases := []struct {
		name, s string
		want    error
	}{
		{"empty", "", ErrMalformed},
		{"not an invite", "hello", ErrMalformed},
		{"a peer address", "/ip4/192.0.2.7/tcp/4001/p2p/" + host.String(), ErrMalformed},
		{"prefix only", "mmj", ErrChecksum},
		{"version only", "mmj1", ErrChecksum},
		{"version 2", "mmj2" + good[4:], ErrVersion},
		{"version 0", "mmj0" + good[4:], ErrVersion},
		{"no version digit", "mmjx" + good[4:], ErrMalformed},
		{"not base32", good[:20] + "!" + good[21:], ErrMalformed},
		{"base32 digit 1", good[:20] + "1" + good[21:], ErrMalformed},
		{"too long", "mmj1" + strings.Repeat("a", MaxInviteLen), ErrMalformed},
		{"last character changed", good[:len(good)-1] + map[bool]string{true: "b", false: "a"}[good[len(good)-1] == 'a'], ErrChecksum},
		{"body not protobuf", reencode("mmj1", []byte{0xff, 0xff, 0xff}), ErrMalformed},
		{"no table", body(&pb.Invite{Host: []byte(host), Addrs: [][]byte{addr}}), ErrMalformed},
		{"five players", body(&pb.Invite{Table: "t", Host: []byte(host), Addrs: [][]byte{addr}, Players: 5}), ErrMalformed},
		{"two players", body(&pb.Invite{Table: "t", Host: []byte(host), Addrs: [][]byte{addr}, Players: 2}), ErrMalformed},
		{"blank table", body(&pb.Invite{Table: "  ", Host: []byte(host), Addrs: [][]byte{addr}}), ErrMalformed},
		{"control character in table", body(&pb.Invite{Table: "a\nb", Host: []byte(host), Addrs: [][]byte{addr}}), ErrMalformed},
		{"table not UTF-8", reencode("mmj1", protowire.AppendString(protowire.AppendTag(nil, 1, protowire.BytesType), "\xff")), ErrMalformed},
		{"long table", body(&pb.Invite{Table: strings.Repeat("t", MaxTableLen+1), Host: []byte(host), Addrs: [][]byte{addr}}), ErrMalformed},
		{"no host", body(&pb.Invite{Table: "t", Addrs: [][]byte{addr}}), ErrMalformed},
		{"host ID without its key", body(&pb.Invite{Table: "t", Host: hashed, Addrs: [][]byte{addr}}), ErrMalformed},
		{"no address", body(&pb.Invite{Table: "t", Host: []byte(host)}), ErrMalformed},
		{"too many addresses", body(&pb.Invite{Table: "t", Host: []byte(host), Addrs: many}), ErrMalformed},
		{"address not a multiaddr", body(&pb.Invite{Table: "t", Host: []byte(host), Addrs: [][]byte{{0xff, 0x01}}}), ErrMalformed},
		{"address names a peer", body(&pb.Invite{Table: "t", Host: []byte(host), Addrs: [][]byte{
			multiaddr.StringCast("/ip4/192.0.2.7/tcp/4001/p2p/" + host.String()).Bytes()}}), ErrMalformed},
		{"circuit without its relay", body(&pb.Invite{Table: "t", Host: []byte(host), Addrs: [][]byte{
			multiaddr.StringCast("/ip4/192.0.2.7/tcp/4001/p2p-circuit").Bytes()}}), ErrMalformed},
		{"no transport", body(&pb.Invite{Table: "t", Host: []byte(host), Addrs: [][]byte{
			multiaddr.StringCast("/p2p/" + host.String() + "/p2p-circuit").Bytes()}}), ErrMalformed},
	}
	for _, c := range cases {
		_, err := Parse(c.s)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), "invite: ") {
			t.Errorf("%s: error %q does not say it is about the invite", c.name, err)
		}
	}
	// Encode refuses what Parse would.
	if _, err := (Invite{Table: "t", Host: host}).Encode(); !errors.Is(err, ErrMalformed) {
		t.Errorf("Encode without addresses: %v", err)
	}
}

// A three-player (sanma) invite carries its player count through Encode
// and Parse; a four-player one leaves the field out, so its string is the
// same as before the field existed (the v1 test vector still parses to 4).
func TestPlayersRoundTrip(t *testing.T) {
	t.Parallel()
	inv := testInvite(t)
	four, err := inv.Encode()
	if err != nil {
		t.Fatal(err)
	}
	inv.Players = 3
	three, err := inv.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if three == four {
		t.Fatal("a three-player invite encodes like a four-player one")
	}
	for s, want := range map[string]int{four: 4, three: 3, readVector(t, "invite-v1.txt"): 4} {
		got, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		if got.PlayerCount() != want {
			t.Errorf("Parse(%.20s…).PlayerCount() = %d, want %d", s, got.PlayerCount(), want)
		}
	}
	inv.Players = 5
	if _, err := inv.Encode(); !errors.Is(err, ErrMalformed) {
		t.Errorf("Encode of a five-player invite: %v, want ErrMalformed", err)
	}
}

// AddrRoom tells exactly how many address bytes an invite has left:
// an invite encodes if and only if its room is not negative, at every
// length around MaxInviteLen.
func TestAddrRoom(t *testing.T) {
	t.Parallel()
	inv := testInvite(t)
	base := inv.Addrs
	crossed := false
	dns := func(n int) multiaddr.Multiaddr {
		return multiaddr.StringCast("/dns4/" + strings.Repeat("a", n) + ".example/tcp/4001")
	}
	// Five long addresses, and a sixth growing a byte at a time.
	for n := 1; n <= 230; n++ {
		inv.Addrs = slices.Clone(base)
		for range 5 {
			inv.Addrs = append(inv.Addrs, dns(170))
		}
		inv.Addrs = append(inv.Addrs, dns(n))
		s, err := inv.Encode()
		room := inv.AddrRoom()
		if (err == nil) != (room >= 0) {
			t.Fatalf("names of %d: AddrRoom %d, Encode %d characters, %v", n, room, len(s), err)
		}
		if err != nil {
			crossed = true
		}
	}
	if !crossed {
		t.Error("the sweep never reached MaxInviteLen")
	}
	a := base[0]
	if got, want := AddrSize(a), len(a.Bytes())+2; got != want {
		t.Errorf("AddrSize(%s) = %d, want %d", a, got, want)
	}
}

// RelayInfos names each relay of the invite's relayed addresses once,
// with the address the invite reaches it at.
func TestRelayInfos(t *testing.T) {
	t.Parallel()
	inv := testInvite(t)
	relayed := inv.Addrs[2]
	inv.Addrs = append(inv.Addrs, relayed) // the same relay again
	got := inv.RelayInfos()
	if len(got) != 1 || got[0].ID.String() != "12D3KooWAEKiG8Z8YqVsGbJNwQfyaDtqubZ5BzGaVkrvPDssJbD1" ||
		len(got[0].Addrs) != 1 || got[0].Addrs[0].String() != "/ip4/198.51.100.4/tcp/4001" {
		t.Errorf("RelayInfos = %v, want the one relay at /ip4/198.51.100.4/tcp/4001", got)
	}
	inv.Addrs = inv.Addrs[:2]
	if got := inv.RelayInfos(); got != nil {
		t.Errorf("RelayInfos of a direct-only invite = %v, want nil", got)
	}
}
