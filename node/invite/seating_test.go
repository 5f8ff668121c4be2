package invite

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node/invite/pb"
)

// table4 returns four keys (the host's first) and their seating.
func table4(t testing.TB) ([]crypto.PrivKey, Seating) {
	var keys []crypto.PrivKey
	s := Seating{Table: "friday"}
	for i := range 4 {
		k, id := testKey(t, byte(10+i))
		keys = append(keys, k)
		s.Seats = append(s.Seats, Seat{ID: id, Nick: fmt.Sprintf("p%d", i),
			Addrs: []multiaddr.Multiaddr{multiaddr.StringCast(fmt.Sprintf("/ip4/192.0.2.%d/tcp/4001", i+1))}})
	}
	s.Host = s.Seats[0].ID
	return keys, s
}

// signRaw signs any Seating message as a host would, by a second path:
// the protobuf message and the key's Sign over the domain directly.
func signRaw(t *testing.T, key crypto.PrivKey, m *pb.Seating, domain string) []byte {
	t.Helper()
	body, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := key.Sign(append([]byte(domain), body...))
	if err != nil {
		t.Fatal(err)
	}
	out, err := proto.Marshal(&pb.SignedSeating{Seating: body, Signature: sig})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func toPB(s Seating) *pb.Seating {
	m := &pb.Seating{Table: s.Table, Host: []byte(s.Host)}
	for _, st := range s.Seats {
		m.Seats = append(m.Seats, seatToPB(st, true))
	}
	return m
}

func TestSeatingRoundTrip(t *testing.T) {
	t.Parallel()
	keys, s := table4(t)
	data, err := SignSeating(keys[0], s)
	if err != nil {
		t.Fatal(err)
	}
	// The signature is the host's over the domain and the list, as a
	// second path (crypto/ed25519 via the public key) checks.
	var ss pb.SignedSeating
	if err := proto.Unmarshal(data, &ss); err != nil {
		t.Fatal(err)
	}
	if ok, err := keys[0].GetPublic().Verify(append([]byte(SeatingDomain), ss.Seating...), ss.Signature); !ok || err != nil {
		t.Fatalf("signature does not verify under the host's key: %v", err)
	}
	for i, st := range s.Seats {
		got, err := VerifySeating(data, "friday", s.Host, st.ID)
		if err != nil {
			t.Fatalf("seat %d: %v", i, err)
		}
		if got.Table != s.Table || got.Host != s.Host || len(got.Seats) != 4 {
			t.Fatalf("seat %d: got %+v", i, got)
		}
		for j := range got.Seats {
			if got.Seats[j].ID != s.Seats[j].ID || got.Seats[j].Nick != s.Seats[j].Nick || !got.Seats[j].Addrs[0].Equal(s.Seats[j].Addrs[0]) {
				t.Errorf("seat %d: seat %d = %+v, want %+v", i, j, got.Seats[j], s.Seats[j])
			}
		}
		if peers := got.Peers(st.ID); len(peers) != 3 {
			t.Errorf("Peers(seat %d) = %d peers", i, len(peers))
		}
	}
	if signed := signRaw(t, keys[0], toPB(s), SeatingDomain); string(signed) != string(data) {
		t.Error("SignSeating differs from signing the protobuf directly (Ed25519 is deterministic)")
	}
}

func TestVerifySeatingRefuses(t *testing.T) {
	t.Parallel()
	keys, s := table4(t)
	host, guest := s.Host, s.Seats[2].ID
	outsiderKey, outsider := testKey(t, 99)
	good := toPB(s)

	// A nickname changed after signing ("p3" becomes "p9").
	tampered := bytes.Replace(signRaw(t, keys[0], good, SeatingDomain), []byte("p3"), []byte("p9"), 1)

	secondHost := toPB(s) // another peer hosting a table of the same name
	secondHost.Host = []byte(s.Seats[1].ID)

	otherTable := toPB(s)
	otherTable.Table = "saturday"

	withoutMe := toPB(s)
	withoutMe.Seats[2] = seatToPB(Seat{ID: outsider, Addrs: s.Seats[2].Addrs}, true)

	two := toPB(s)
	two.Seats = two.Seats[:2] // three seats are a sanma table, two none
	five := toPB(s)
	five.Seats = append(five.Seats, seatToPB(Seat{ID: outsider, Addrs: s.Seats[0].Addrs}, true))
	twice := toPB(s)
	twice.Seats[3] = twice.Seats[2]
	hostless := toPB(s)
	hostless.Seats[0] = seatToPB(Seat{ID: outsider, Addrs: s.Seats[0].Addrs}, true)
	noAddr := toPB(s)
	noAddr.Seats[1].Addrs = nil
	badNick := toPB(s)
	badNick.Seats[1].Nick = "bob\x1b[2J"

	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"signed by a guest", signRaw(t, keys[1], good, SeatingDomain), ErrBadSignature},
		{"signed by an outsider", signRaw(t, outsiderKey, good, SeatingDomain), ErrBadSignature},
		{"signed without the domain", signRaw(t, keys[0], good, ""), ErrBadSignature},
		{"list changed after signing", tampered, ErrBadSignature},
		{"a second host claiming the table", signRaw(t, keys[1], secondHost, SeatingDomain), ErrOtherHost},
		{"another table", signRaw(t, keys[0], otherTable, SeatingDomain), ErrOtherTable},
		{"leaves this node out", signRaw(t, keys[0], withoutMe, SeatingDomain), ErrNotSeated},
		{"two seats", signRaw(t, keys[0], two, SeatingDomain), ErrMalformed},
		{"five seats", signRaw(t, keys[0], five, SeatingDomain), ErrMalformed},
		{"a peer seated twice", signRaw(t, keys[0], twice, SeatingDomain), ErrMalformed},
		{"the host not seated", signRaw(t, keys[0], hostless, SeatingDomain), ErrMalformed},
		{"a seat without address", signRaw(t, keys[0], noAddr, SeatingDomain), ErrMalformed},
		{"a control character in a nickname", signRaw(t, keys[0], badNick, SeatingDomain), ErrMalformed},
		{"oversized", make([]byte, MaxMessageSize+1), ErrTooLarge},
		{"not protobuf", []byte{0xff, 0xff}, ErrMalformed},
		{"empty", nil, ErrMalformed},
	}
	for _, c := range cases {
		_, err := VerifySeating(c.data, "friday", host, guest)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		} else if !strings.Contains(err.Error(), "seating list") {
			t.Errorf("%s: error %q does not say it is about the seating list", c.name, err)
		}
	}
	// SignSeating refuses to sign a list it would not accept, or with a
	// key other than the host's.
	if _, err := SignSeating(keys[1], s); !errors.Is(err, ErrMalformed) {
		t.Errorf("signing with a guest's key: %v", err)
	}
	if _, err := SignSeating(keys[0], Seating{Table: s.Table, Host: s.Host, Seats: s.Seats[:3]}); err != nil {
		t.Errorf("signing three seats (a sanma table): %v", err)
	}
	s.Seats = s.Seats[:2]
	if _, err := SignSeating(keys[0], s); !errors.Is(err, ErrMalformed) {
		t.Errorf("signing two seats: %v", err)
	}
	var zero peer.ID
	if _, err := VerifySeating(signRaw(t, keys[0], good, SeatingDomain), "friday", host, zero); !errors.Is(err, ErrNotSeated) {
		t.Errorf("empty self: %v", err)
	}
}
