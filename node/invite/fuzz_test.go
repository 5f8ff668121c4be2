package invite

import (
	"testing"

	"github.com/multiformats/go-multiaddr"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node/invite/pb"
)

// FuzzParse: no string makes Parse panic, and whatever it accepts
// encodes back to an invite that parses to the same fields.
func FuzzParse(f *testing.F) {
	inv := testInvite(f)
	s, err := inv.Encode()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(s)
	f.Add("mmj1")
	f.Add("mmj2aaaa")
	f.Add("MMJ1" + s[4:])
	f.Fuzz(func(t *testing.T, s string) {
		inv, err := Parse(s)
		if err != nil {
			return
		}
		again, err := inv.Encode()
		if err != nil {
			t.Fatalf("accepted %q but cannot encode it: %v", s, err)
		}
		back, err := Parse(again)
		if err != nil || back.Table != inv.Table || back.Host != inv.Host || len(back.Addrs) != len(inv.Addrs) {
			t.Fatalf("re-encoded %q does not round-trip: %v", again, err)
		}
	})
}

// FuzzVerifySeating: no bytes make VerifySeating panic, and it never
// accepts a list without the host's valid signature (the fuzzer cannot
// forge one, so only the seed list may pass).
func FuzzVerifySeating(f *testing.F) {
	keys, s := table4(f)
	data, err := SignSeating(keys[0], s)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := VerifySeating(b, "friday", s.Host, s.Seats[1].ID)
		if err != nil {
			return
		}
		if got.Host != s.Host || len(got.Seats) != 4 {
			t.Fatalf("accepted a list %+v", got)
		}
	})
}

// FuzzMeetingMessages: no bytes make the host's Hello check or the
// guest's reading of the host's messages panic.
func FuzzMeetingMessages(f *testing.F) {
	_, host := testKey(f, 1)
	_, guest := testKey(f, 2)
	m := &Meeting{inv: Invite{Table: "friday", Host: host}}
	addr := multiaddr.StringCast("/ip4/192.0.2.7/tcp/4001")
	hello, _ := proto.Marshal(&pb.Hello{Table: "friday", Nick: "bob", Addrs: [][]byte{addr.Bytes()}})
	arr, _ := proto.Marshal(&pb.HostMessage{Body: &pb.HostMessage_Arrivals{Arrivals: &pb.Arrivals{Seats: []*pb.Seat{{Peer: []byte(host)}, {Peer: []byte(guest), Nick: "bob"}}}}})
	f.Add(hello)
	f.Add(arr)
	f.Fuzz(func(t *testing.T, b []byte) {
		if seat, declined, err := m.checkHello(guest, b); err == nil && (seat.ID != guest || len(seat.Addrs) == 0 && !declined) {
			t.Fatalf("accepted hello %+v", seat)
		}
		var hm pb.HostMessage
		if proto.Unmarshal(b, &hm) == nil && hm.GetArrivals() != nil {
			if seats, err := checkArrivals(hm.GetArrivals(), host); err == nil && (len(seats) == 0 || len(seats) > 4 || seats[0].ID != host) {
				t.Fatalf("accepted arrivals %+v", seats)
			}
		}
	})
}
