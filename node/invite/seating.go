package invite

import (
	"fmt"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node/invite/pb"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/settings"
)

// SeatingDomain prefixes the bytes the host signs, so that a seating
// signature can never be taken for a signature of anything else.
const SeatingDomain = "mentalmj/invite/seating/v1\n"

// Seat is one player: its peer ID, its dialable transport addresses (each
// without the final /p2p/<id>) and its nickname (may be empty).
type Seat struct {
	ID    peer.ID
	Addrs []multiaddr.Multiaddr
	Nick  string
}

// AddrInfo returns the seat's peer ID and addresses, as node.SetPeers
// takes them.
func (s Seat) AddrInfo() peer.AddrInfo {
	return peer.AddrInfo{ID: s.ID, Addrs: s.Addrs}
}

// Seating is the list of the players of a table, fixed and signed by its
// host: protocol.Players seats (or 3 at a three-player, sanma, table), the
// host's first, then the guests in order of arrival. The order does not seat anyone: the game draws seats
// by commit–reveal.
type Seating struct {
	Table string
	Host  peer.ID
	Seats []Seat
	// Settings are the game the players play, the invite's (nil from a
	// host before settings).
	Settings *settings.Settings
}

// Peers returns every seat but self's as node.SetPeers takes them.
func (s Seating) Peers(self peer.ID) []peer.AddrInfo {
	var out []peer.AddrInfo
	for _, st := range s.Seats {
		if st.ID != self {
			out = append(out, st.AddrInfo())
		}
	}
	return out
}

// check validates the shape of s: a table name, protocol.Players (or 3)
// distinct seats with valid IDs, nicknames and 1 to MaxAddrs addresses each, the
// host's among them. Errors wrap ErrMalformed.
func (s Seating) check() error {
	if err := CheckTable(s.Table); err != nil {
		return err
	}
	if err := checkHostID(s.Host); err != nil {
		return err
	}
	if len(s.Seats) != protocol.Players && len(s.Seats) != 3 {
		return fmt.Errorf("%w: %d seats, want 3 or %d", ErrMalformed, len(s.Seats), protocol.Players)
	}
	seen := make(map[peer.ID]bool, len(s.Seats))
	for i, st := range s.Seats {
		if err := st.ID.Validate(); err != nil {
			return fmt.Errorf("%w: seat %d: peer ID: %v", ErrMalformed, i+1, err)
		}
		if seen[st.ID] {
			return fmt.Errorf("%w: %s seated twice", ErrMalformed, st.ID)
		}
		seen[st.ID] = true
		if err := CheckNick(st.Nick); err != nil {
			return fmt.Errorf("seat %d: %w", i+1, err)
		}
		if err := checkAddrs(st.ID, st.Addrs); err != nil {
			return fmt.Errorf("seat %d (%s): %w", i+1, st.ID, err)
		}
	}
	if !seen[s.Host] {
		return fmt.Errorf("%w: the host %s has no seat", ErrMalformed, s.Host)
	}
	if s.Settings != nil && s.Settings.Players != len(s.Seats) {
		return fmt.Errorf("%w: settings for %d players, %d seats", ErrMalformed, s.Settings.Players, len(s.Seats))
	}
	return nil
}

func seatToPB(s Seat, withAddrs bool) *pb.Seat {
	m := &pb.Seat{Peer: []byte(s.ID), Nick: s.Nick}
	if withAddrs {
		for _, a := range s.Addrs {
			m.Addrs = append(m.Addrs, a.Bytes())
		}
	}
	return m
}

// seatFromPB decodes a seat's fields; the caller validates them.
func seatFromPB(m *pb.Seat) (Seat, error) {
	id, err := peer.IDFromBytes(m.GetPeer())
	if err != nil {
		return Seat{}, fmt.Errorf("%w: peer ID: %v", ErrMalformed, err)
	}
	addrs, err := decodeAddrs(m.GetAddrs())
	if err != nil {
		return Seat{}, fmt.Errorf("peer %s: %w", id, err)
	}
	return Seat{ID: id, Addrs: addrs, Nick: m.GetNick()}, nil
}

// SignSeating checks s (see Seating), checks that key is the key of
// s.Host, and returns the serialized SignedSeating (pb/invite.proto): the
// protobuf Seating and key's Ed25519 signature over SeatingDomain followed
// by it. It returns an error wrapping ErrMalformed for a bad seating, or
// if key is not the host's, or ErrTooLarge if the result exceeds
// MaxMessageSize.
func SignSeating(key crypto.PrivKey, s Seating) ([]byte, error) {
	signed, err := signSeating(key, s)
	if err != nil {
		return nil, err
	}
	out, err := proto.Marshal(signed)
	if err != nil {
		return nil, fmt.Errorf("seating list: encoding: %w", err)
	}
	return out, nil
}

func signSeating(key crypto.PrivKey, s Seating) (*pb.SignedSeating, error) {
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("seating list: %w", err)
	}
	if id, err := peer.IDFromPrivateKey(key); err != nil || id != s.Host {
		return nil, fmt.Errorf("seating list: %w: signing key is not the host %s's", ErrMalformed, s.Host)
	}
	m := &pb.Seating{Table: s.Table, Host: []byte(s.Host)}
	for _, st := range s.Seats {
		m.Seats = append(m.Seats, seatToPB(st, true))
	}
	if s.Settings != nil {
		m.Settings = s.Settings.Proto()
	}
	body, err := proto.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("seating list: encoding: %w", err)
	}
	sig, err := key.Sign(append([]byte(SeatingDomain), body...))
	if err != nil {
		return nil, fmt.Errorf("seating list: signing: %w", err)
	}
	out := &pb.SignedSeating{Seating: body, Signature: sig}
	// The HostMessage around it adds a few bytes; keep a margin.
	if size := proto.Size(out); size > MaxMessageSize-64 {
		return nil, fmt.Errorf("seating list: %w: %d bytes, at most %d", ErrTooLarge, size, MaxMessageSize-64)
	}
	return out, nil
}

// VerifySeating decodes a SignedSeating received from the host of an
// invite for table and host, and returns the seating once it has checked,
// in this order: size (ErrTooLarge beyond MaxMessageSize), decoding and
// shape (ErrMalformed; see Seating), that it names host as its host
// (ErrOtherHost: a second host claiming the table), the host's Ed25519
// signature over SeatingDomain and the list (ErrBadSignature), the table
// (ErrOtherTable), and that self has a seat (ErrNotSeated).
func VerifySeating(data []byte, table string, host, self peer.ID) (Seating, error) {
	if len(data) > MaxMessageSize {
		return Seating{}, fmt.Errorf("seating list: %w: %d bytes, at most %d", ErrTooLarge, len(data), MaxMessageSize)
	}
	var signed pb.SignedSeating
	if err := proto.Unmarshal(data, &signed); err != nil {
		return Seating{}, fmt.Errorf("seating list: %w: %v", ErrMalformed, err)
	}
	var m pb.Seating
	if err := proto.Unmarshal(signed.Seating, &m); err != nil {
		return Seating{}, fmt.Errorf("seating list: %w: %v", ErrMalformed, err)
	}
	s := Seating{Table: m.Table}
	var err error
	if s.Host, err = peer.IDFromBytes(m.Host); err != nil {
		return Seating{}, fmt.Errorf("seating list: %w: host peer ID: %v", ErrMalformed, err)
	}
	for i, ms := range m.Seats {
		if i >= protocol.Players {
			return Seating{}, fmt.Errorf("seating list: %w: more than %d seats", ErrMalformed, protocol.Players)
		}
		st, err := seatFromPB(ms)
		if err != nil {
			return Seating{}, fmt.Errorf("seating list: seat %d: %w", i+1, err)
		}
		s.Seats = append(s.Seats, st)
	}
	if m.Settings != nil {
		st, err := settings.FromProto(m.Settings)
		if err != nil {
			return Seating{}, fmt.Errorf("seating list: %w", err)
		}
		s.Settings = &st
	}
	if err := s.check(); err != nil {
		return Seating{}, fmt.Errorf("seating list: %w", err)
	}
	if s.Host != host {
		return Seating{}, fmt.Errorf("seating list for table %q: %w: it names host %s, the invite's host is %s", s.Table, ErrOtherHost, s.Host, host)
	}
	pub, err := host.ExtractPublicKey()
	if err != nil {
		return Seating{}, fmt.Errorf("seating list: %w: host %s: %v", ErrMalformed, host, err)
	}
	ok, err := pub.Verify(append([]byte(SeatingDomain), signed.Seating...), signed.Signature)
	if err != nil || !ok {
		return Seating{}, fmt.Errorf("seating list for table %q: %w %s", s.Table, ErrBadSignature, host)
	}
	if s.Table != table {
		return Seating{}, fmt.Errorf("seating list: %w: it seats table %q, the invite is for %q", ErrOtherTable, s.Table, table)
	}
	for _, st := range s.Seats {
		if st.ID == self {
			return s, nil
		}
	}
	return Seating{}, fmt.Errorf("seating list for table %q: %w (%s)", s.Table, ErrNotSeated, self)
}
