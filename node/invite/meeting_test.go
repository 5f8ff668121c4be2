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

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-msgio"
	"github.com/multiformats/go-multiaddr"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/node/invite/pb"
)

// player is a node on 127.0.0.1 with its key.
type player struct {
	key crypto.PrivKey
	n   *node.Node
}

func startPlayer(t *testing.T, meet func(peer.ID) bool) player {
	t.Helper()
	key, err := node.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	n, err := node.New(context.Background(), node.Config{Identity: key, Meet: meet,
		Listen: []multiaddr.Multiaddr{multiaddr.StringCast("/ip4/127.0.0.1/tcp/0")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = n.Close() })
	return player{key, n}
}

// addrs returns the player's transport addresses, as a hello carries them.
func (p player) addrs() []multiaddr.Multiaddr {
	var out []multiaddr.Multiaddr
	for _, a := range node.Dialable(p.n.Addrs()) {
		t, _ := peer.SplitAddr(a)
		out = append(out, t)
	}
	return out
}

func openMeeting(t *testing.T) (player, *Meeting) {
	t.Helper()
	h := startPlayer(t, func(peer.ID) bool { return true })
	m, err := NewMeeting(h.n.Host(), h.key, "friday", "alice", h.addrs(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return h, m
}

func guestOf(t *testing.T, inv Invite) player {
	return startPlayer(t, func(p peer.ID) bool { return p == inv.Host })
}

func ctxFor(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// A host and three guests meet through the invite string, every guest
// gets the same signed list, sees the arrivals, and the four nodes then
// connect as a table and exchange game messages.
func TestMeeting(t *testing.T) {
	t.Parallel()
	ctx := ctxFor(t, 30*time.Second)
	h, m := openMeeting(t)
	s, err := m.Invite().Encode()
	if err != nil {
		t.Fatal(err)
	}
	inv, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	guests := make([]player, 3)
	seatings := make([]Seating, 3)
	seen := make([][]int, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range guests {
		guests[i] = guestOf(t, inv)
		wg.Go(func() {
			seatings[i], errs[i] = Join(ctx, guests[i].n.Host(), inv, fmt.Sprintf("guest%d", i), guests[i].addrs(), func(ss []Seat) {
				seen[i] = append(seen[i], len(ss))
			}, nil)
			if errs[i] == nil {
				errs[i] = guests[i].n.SetPeers(seatings[i].Peers(guests[i].n.ID()))
			}
		})
		time.Sleep(50 * time.Millisecond) // arrive in order
	}
	var arrivals []Arrival
	seating, err := m.Gather(ctx, func(a Arrival) { arrivals = append(arrivals, a) })
	if err != nil {
		t.Fatal(err)
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
	}
	if len(arrivals) != 3 || arrivals[2].Count != 4 || arrivals[0].Left {
		t.Errorf("host saw arrivals %+v", arrivals)
	}
	for i, s := range seatings {
		if len(s.Seats) != 4 || s.Seats[0].ID != h.n.ID() || s.Seats[0].Nick != "alice" {
			t.Fatalf("guest %d seating %+v", i, s)
		}
		for j := range s.Seats {
			if s.Seats[j].ID != seating.Seats[j].ID {
				t.Errorf("guest %d: seat %d is %s, host has %s", i, j, s.Seats[j].ID, seating.Seats[j].ID)
			}
		}
		if got := seen[i]; len(got) == 0 || got[0] != i+2 {
			t.Errorf("guest %d saw arrivals %v", i, got)
		}
	}
	// The table plays: every node connects and hears from every other.
	all := append([]player{h}, guests...)
	cerrs := make([]error, 4)
	for i, p := range all {
		wg.Go(func() { cerrs[i] = p.n.Connect(ctx) })
	}
	wg.Wait()
	for i, err := range cerrs {
		if err != nil {
			t.Fatalf("node %d connect: %v", i, err)
		}
	}
	for _, p := range all {
		for _, q := range all {
			if p.n != q.n {
				if err := p.n.Send(ctx, q.n.ID(), []byte("hi")); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for _, p := range all {
		for _, q := range all {
			if p.n != q.n {
				if msg, err := p.n.Recv(ctx, q.n.ID()); err != nil || string(msg) != "hi" {
					t.Fatalf("recv: %q %v", msg, err)
				}
			}
		}
	}
}

// A guest whose connection to the host drops while it waits for the table
// to fill meets again on a new stream and is seated. (Here the host sees
// the drop at once and reports a departure, then the return; through a
// relay the new Hello can come first, and the guest keeps its place.)
func TestMeetingGuestComesBack(t *testing.T) {
	t.Parallel()
	ctx := ctxFor(t, 30*time.Second)
	h, m := openMeeting(t)
	if err := m.SetPlayers(3); err != nil {
		t.Fatal(err)
	}
	inv := m.Invite()
	first := guestOf(t, inv)
	var seating Seating
	var joinErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		seating, joinErr = Join(ctx, first.n.Host(), inv, "first", first.addrs(), nil, nil)
	}()
	// back reports whether the host holds the first guest on another
	// stream than was.
	back := func(was *guest) bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		for _, g := range m.guests {
			if g.seat.ID == first.n.ID() && g != was {
				return true
			}
		}
		return false
	}
	var events []Arrival
	gctx, stop := context.WithCancel(ctx)
	dropped := false
	second := guestOf(t, inv)
	seated, err := m.Gather(gctx, func(a Arrival) {
		events = append(events, a)
		if !dropped {
			// The first guest is here: cut every connection
			// between it and the host, then let a second guest
			// come once the first is back.
			dropped = true
			var was *guest // the stream the host holds now
			m.mu.Lock()
			if len(m.guests) > 0 {
				was = m.guests[0]
			}
			m.mu.Unlock()
			_ = h.n.Host().Network().ClosePeer(first.n.ID())
			go func() {
				for !back(was) {
					if ctx.Err() != nil {
						stop()
						return
					}
					time.Sleep(20 * time.Millisecond)
				}
				_, _ = Join(ctx, second.n.Host(), inv, "second", second.addrs(), nil, nil)
			}()
		}
	})
	if err != nil {
		t.Fatalf("gather: %v (events %+v)", err, events)
	}
	if err := m.Announce(ctx); err != nil {
		t.Fatal(err)
	}
	<-done
	if joinErr != nil {
		t.Fatalf("the guest that lost its connection: %v", joinErr)
	}
	if len(seated.Seats) != 3 || seated.Seats[1].ID != first.n.ID() || seated.Seats[1].Nick != "first" || seated.Seats[2].ID != second.n.ID() {
		t.Errorf("seating %+v: want host, first, second", seated.Seats)
	}
	if len(seating.Seats) != 3 || seating.Seats[1].ID != first.n.ID() {
		t.Errorf("the returning guest got seating %+v", seating.Seats)
	}
}

// Guests of another table, a fourth guest, and a guest already there are
// refused with the host's reason; a guest that leaves is reported gone.
func TestMeetingRefusals(t *testing.T) {
	t.Parallel()
	ctx := ctxFor(t, 30*time.Second)
	_, m := openMeeting(t)
	inv := m.Invite()

	wrong := inv
	wrong.Table = "saturday"
	g := guestOf(t, inv)
	_, err := Join(ctx, g.n.Host(), wrong, "eve", g.addrs(), nil, nil)
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "friday") {
		t.Errorf("another table: %v, want ErrRefused naming the host's table", err)
	}

	// A guest that arrives and leaves.
	leaver := guestOf(t, inv)
	lctx, leave := context.WithCancel(ctx)
	go func() {
		_, _ = Join(lctx, leaver.n.Host(), inv, "leaver", leaver.addrs(), func([]Seat) { leave() }, nil)
	}()
	gctx, stop := context.WithCancel(ctx)
	var events []Arrival
	_, err = m.Gather(gctx, func(a Arrival) {
		events = append(events, a)
		if a.Left {
			stop()
		}
	})
	if !errors.Is(err, context.Canceled) || len(events) != 2 || events[0].Count != 2 || !events[1].Left || events[1].Count != 1 {
		t.Fatalf("leaving guest: %v, events %+v", err, events)
	}

	// Three guests fill the table (Gather not yet called); a fourth is
	// refused.
	jctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for i := range 3 {
		g := guestOf(t, inv)
		go func() { _, _ = Join(jctx, g.n.Host(), inv, fmt.Sprintf("g%d", i), g.addrs(), nil, nil) }()
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		m.mu.Lock()
		n := len(m.guests)
		m.mu.Unlock()
		if n == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d guests arrived, want 3", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	fourth := guestOf(t, inv)
	if _, err := Join(ctx, fourth.n.Host(), inv, "late", fourth.addrs(), nil, nil); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "full") {
		t.Errorf("fourth guest: %v, want ErrRefused: full", err)
	}
}

// A seated guest whose connection drops after the table filled, before
// the host sent the seating list, meets again and gets the list: Announce
// waits for it and succeeds, and both guests get the same seating.
func TestMeetingSeatedGuestComesBackForTheList(t *testing.T) {
	t.Parallel()
	ctx := ctxFor(t, 30*time.Second)
	h, m := openMeeting(t)
	if err := m.SetPlayers(3); err != nil {
		t.Fatal(err)
	}
	inv := m.Invite()
	guests := []player{guestOf(t, inv), guestOf(t, inv)}
	seatings := make([]Seating, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i, g := range guests {
		wg.Go(func() {
			seatings[i], errs[i] = Join(ctx, g.n.Host(), inv, fmt.Sprintf("g%d", i), g.addrs(), nil, nil)
		})
		time.Sleep(50 * time.Millisecond)
	}
	seating, err := m.Gather(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The first guest's connection drops between the full table and
	// the list.
	_ = h.n.Host().Network().ClosePeer(guests[0].n.ID())
	if err := m.Announce(ctx); err != nil {
		t.Fatalf("announce: %v", err)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("guest %d: %v", i, err)
		}
		if len(seatings[i].Seats) != 3 {
			t.Fatalf("guest %d: seating %+v", i, seatings[i])
		}
		for j, s := range seatings[i].Seats {
			if s.ID != seating.Seats[j].ID || s.Nick != seating.Seats[j].Nick {
				t.Errorf("guest %d: seat %d is %s %q, the host's %s %q", i, j, s.ID, s.Nick, seating.Seats[j].ID, seating.Seats[j].Nick)
			}
		}
	}
}

// A second Hello from a guest already at the meeting, before the host has
// seen its first stream break, takes over its place: the old stream is
// reset, no arrival or departure is reported, and the nickname stays the
// first one.
func TestMeetingHelloAgainReplaces(t *testing.T) {
	t.Parallel()
	ctx := ctxFor(t, 30*time.Second)
	_, m := openMeeting(t)
	inv := m.Invite()
	g := guestOf(t, inv)
	if err := g.n.Host().Connect(ctx, inv.AddrInfo()); err != nil {
		t.Fatal(err)
	}
	hello := func(nick string) (network.Stream, *pb.Arrivals) {
		s, err := g.n.Host().NewStream(ctx, inv.Host, ProtocolID)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Reset() })
		if err := msgio.NewVarintWriter(s).WriteMsg(mustMarshal(t, &pb.Hello{Table: "friday", Nick: nick, Addrs: [][]byte{g.addrs()[0].Bytes()}})); err != nil {
			t.Fatal(err)
		}
		_ = s.SetReadDeadline(time.Now().Add(5 * time.Second))
		raw, err := readMsg(s)
		if err != nil {
			t.Fatalf("hello %q: %v", nick, err)
		}
		var hm pb.HostMessage
		if err := proto.Unmarshal(raw, &hm); err != nil || hm.GetArrivals() == nil {
			t.Fatalf("hello %q: got %v (%v), want arrivals", nick, &hm, err)
		}
		return s, hm.GetArrivals()
	}
	old, first := hello("bob")
	_, again := hello("mallory")
	if len(first.Seats) != 2 || len(again.Seats) != 2 || again.Seats[1].Nick != "bob" {
		t.Fatalf("arrivals %v then %v: want the host and bob both times", first.Seats, again.Seats)
	}
	_ = old.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := old.Read(make([]byte, 1)); err == nil {
		t.Error("the replaced stream is still open")
	}
	m.mu.Lock()
	events := append([]Arrival(nil), m.events...)
	m.mu.Unlock()
	if len(events) != 1 || events[0].Left || events[0].Count != 2 {
		t.Errorf("events %+v: want one arrival", events)
	}
}

// rawStream opens a meeting stream to the host from a fresh node.
func rawStream(t *testing.T, ctx context.Context, inv Invite) network.Stream {
	t.Helper()
	g := guestOf(t, inv)
	if err := g.n.Host().Connect(ctx, inv.AddrInfo()); err != nil {
		t.Fatal(err)
	}
	s, err := g.n.Host().NewStream(ctx, inv.Host, ProtocolID)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Reset() })
	return s
}

// Bad hellos: an oversized frame resets the stream; garbage, a bad
// nickname or an address of another peer is refused with a reason; none
// seats anyone.
func TestMeetingBadHello(t *testing.T) {
	t.Parallel()
	ctx := ctxFor(t, 30*time.Second)
	h, m := openMeeting(t)
	inv := m.Invite()

	s := rawStream(t, ctx, inv)
	w := msgio.NewVarintWriter(s)
	if err := w.WriteMsg(make([]byte, MaxMessageSize+1)); err == nil {
		_ = s.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := s.Read(make([]byte, 1)); err == nil {
			t.Error("oversized hello: stream still open")
		}
	}
	other := h.addrs()[0].Encapsulate(multiaddr.StringCast("/p2p/" + inv.Host.String()))
	for name, hello := range map[string][]byte{
		"garbage":        {0xff, 0xff, 0xff},
		"bad nickname":   mustMarshal(t, &pb.Hello{Table: "friday", Nick: "a\x00b", Addrs: [][]byte{h.addrs()[0].Bytes()}}),
		"no address":     mustMarshal(t, &pb.Hello{Table: "friday"}),
		"another peer's": mustMarshal(t, &pb.Hello{Table: "friday", Addrs: [][]byte{other.Bytes()}}),
	} {
		s := rawStream(t, ctx, inv)
		if err := msgio.NewVarintWriter(s).WriteMsg(hello); err != nil {
			t.Fatal(err)
		}
		raw, err := readMsg(s)
		var hm pb.HostMessage
		if err != nil || proto.Unmarshal(raw, &hm) != nil || hm.GetRefused() == "" {
			t.Errorf("%s: got %v %v, want a refusal", name, &hm, err)
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.guests) != 0 {
		t.Errorf("%d guests seated after bad hellos", len(m.guests))
	}
}

func mustMarshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A stranger admitted to the meeting cannot play on a game stream: the
// stream it opens gets nothing (a stream before the table is fixed waits
// for it) and is cut, with the stranger's connection, once the host fixes
// its table without it.
func TestMeetingStrangerKeptFromGame(t *testing.T) {
	t.Parallel()
	ctx := ctxFor(t, 30*time.Second)
	h, m := openMeeting(t)
	inv := m.Invite()
	stranger := guestOf(t, inv)
	if err := stranger.n.Host().Connect(ctx, inv.AddrInfo()); err != nil {
		t.Fatal(err)
	}
	read := make(chan error, 1)
	if s, err := stranger.n.Host().NewStream(ctx, inv.Host, node.ProtocolID); err != nil {
		read <- err
	} else {
		_ = msgio.NewVarintWriter(s).WriteMsg([]byte("hello"))
		_ = s.SetReadDeadline(time.Now().Add(10 * time.Second))
		go func() {
			_, err := s.Read(make([]byte, 1))
			read <- err
		}()
	}
	// The host seats three others: the stranger is cut off.
	var table []peer.AddrInfo
	for range 3 {
		g := startPlayer(t, nil)
		table = append(table, peer.AddrInfo{ID: g.n.ID(), Addrs: g.addrs()})
	}
	if err := h.n.SetPeers(table); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); h.n.Host().Network().Connectedness(stranger.n.ID()) == network.Connected; {
		if time.Now().After(deadline) {
			t.Fatal("stranger still connected after the table was set")
		}
		time.Sleep(20 * time.Millisecond)
	}
	var timeout net.Error
	if err := <-read; err == nil || errors.As(err, &timeout) && timeout.Timeout() || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("game stream from a stranger: read %v, want it cut when the table was set", err)
	}
}
