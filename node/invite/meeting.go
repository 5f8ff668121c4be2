package invite

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-msgio"
	"github.com/multiformats/go-multiaddr"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node/invite/pb"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/settings"
)

// ProtocolID is the libp2p protocol of the meeting stream a guest opens to
// the host.
const ProtocolID = "/mentalmj/invite/1"

const (
	// MaxMessageSize bounds every meeting message and seating list, in
	// bytes: four seats of MaxAddrs addresses fit with room to spare.
	MaxMessageSize = 32 << 10
	// HelloTimeout is how long the host waits for a guest's Hello after
	// the guest opened its stream.
	HelloTimeout = 10 * time.Second
	// WriteTimeout bounds one message written on a meeting stream.
	WriteTimeout = 10 * time.Second
	// maxReason bounds a refusal's text, in bytes.
	maxReason = 256
)

// Arrival reports a change at a meeting: Seat arrived (Left false) or left
// (Left true); Count players, the host included, are now there.
type Arrival struct {
	Seat  Seat
	Left  bool
	Count int
	// Declined is true when the guest came only to say it will not play
	// the invite's settings (Decline); it was never seated.
	Declined bool
}

// Meeting is the host's side of the meeting protocol: it serves
// ProtocolID on the libp2p host until the seating is fixed or Close. The
// caller's connection gater must admit strangers until then (node's
// Config.Meet); game streams stay closed to them. Its methods are safe
// for concurrent use.
type Meeting struct {
	h   host.Host
	key crypto.PrivKey
	inv Invite
	me  Seat
	log *slog.Logger

	sendMu    sync.Mutex // held while telling the guests, so messages keep their order
	announced bool       // guarded by sendMu: the seating was sent, streams are closed for writing
	// seatingMsg is the signed seating list as sent, set by Announce
	// (guarded by mu): a seated guest whose stream broke gets it again.
	seatingMsg []byte

	mu      sync.Mutex
	guests  []*guest  // in order of arrival
	events  []Arrival // every change, for Gather
	fixed   bool      // set by Gather: no more arrivals or departures
	closed  bool
	changed chan struct{} // closed and replaced on every change
}

// guest is one guest at a meeting, with its open stream.
type guest struct {
	seat Seat
	s    network.Stream
	wmu  sync.Mutex  // serializes writes to s
	sent atomic.Bool // the seating list went out on s
}

// RejoinWindow is how long Announce waits for a guest whose stream broke
// before it got the seating list to meet again and get it.
const RejoinWindow = 15 * time.Second

// NewMeeting opens a meeting for table on h, whose identity key is key,
// with the host's nickname nick and its dialable transport addresses addrs
// (each without /p2p/<host>; at most MaxAddrs are used, in order). It
// registers the ProtocolID handler and returns the meeting; Invite gives
// its invite string. It returns an error wrapping ErrMalformed for a bad
// table name or nickname, a key that is not h's, or addresses the invite
// cannot carry.
func NewMeeting(h host.Host, key crypto.PrivKey, table, nick string, addrs []multiaddr.Multiaddr, log *slog.Logger) (*Meeting, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if id, err := peer.IDFromPrivateKey(key); err != nil || id != h.ID() {
		return nil, fmt.Errorf("meeting: %w: key is not the host's", ErrMalformed)
	}
	if err := CheckNick(nick); err != nil {
		return nil, fmt.Errorf("meeting: %w", err)
	}
	if len(addrs) > MaxAddrs {
		addrs = addrs[:MaxAddrs]
	}
	inv := Invite{Table: table, Host: h.ID(), Addrs: addrs, Nick: nick}
	if err := inv.check(); err != nil {
		return nil, fmt.Errorf("meeting: %w", err)
	}
	m := &Meeting{h: h, key: key, inv: inv, me: Seat{ID: h.ID(), Addrs: addrs, Nick: nick}, log: log, changed: make(chan struct{})}
	h.SetStreamHandler(ProtocolID, m.handle)
	return m, nil
}

// Invite returns the meeting's invite.
func (m *Meeting) Invite() Invite {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.inv
}

// SetPlayers sets the number of players the meeting gathers, the host
// included: 4 (the default) or 3 for a three-player (sanma) table. The
// invite carries it, so call it before Invite. It returns an error for
// another count, or once a guest has arrived.
func (m *Meeting) SetPlayers(n int) error {
	if n != 3 && n != protocol.Players {
		return fmt.Errorf("meeting: %w: %d players, want 3 or %d", ErrMalformed, n, protocol.Players)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.events) > 0 || m.fixed {
		return errors.New("meeting: the player count is fixed once guests arrive")
	}
	m.inv.Players = n
	if n == protocol.Players {
		m.inv.Players = 0
	}
	if m.inv.Settings != nil && m.inv.Settings.Players != n {
		s := *m.inv.Settings
		s.Players = n
		m.inv.Settings = &s
	}
	return nil
}

// SetSettings sets the game the table plays, its player count included
// (as SetPlayers): the invite and the signed seating list carry it. Call
// it before Invite. It returns an error for settings that fail Check, or
// once a guest has arrived.
func (m *Meeting) SetSettings(st settings.Settings) error {
	if err := st.Check(); err != nil {
		return fmt.Errorf("meeting: %w", err)
	}
	if err := m.SetPlayers(st.Players); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.inv.Settings = &st
	return nil
}

// Gather waits until the invite's player count minus one (the host)
// guests are there, calling
// onArrival (if not nil) for every arrival and departure in order, from
// Gather's goroutine. It then fixes the seating: later guests are refused
// and guests no longer leave it. It returns the seating (the host first,
// then the guests in order of arrival); call SetPeers on the node, then
// Announce. It returns ctx's error if ctx is done first, or an error if
// the meeting is closed.
func (m *Meeting) Gather(ctx context.Context, onArrival func(Arrival)) (Seating, error) {
	next := 0
	for {
		m.mu.Lock()
		events := m.events[next:]
		next = len(m.events)
		full := len(m.guests) == m.inv.PlayerCount()-1
		if full {
			m.fixed = true
		}
		closed, changed := m.closed, m.changed
		m.mu.Unlock()
		if onArrival != nil {
			for _, e := range events {
				onArrival(e)
			}
		}
		if closed {
			return Seating{}, errors.New("meeting closed")
		}
		if full {
			return m.seating(), nil
		}
		select {
		case <-ctx.Done():
			return Seating{}, fmt.Errorf("waiting for %d players at table %q: %w", m.inv.PlayerCount(), m.inv.Table, ctx.Err())
		case <-changed:
		}
	}
}

func (m *Meeting) seating() Seating {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := Seating{Table: m.inv.Table, Host: m.inv.Host, Seats: []Seat{m.me}, Settings: m.inv.Settings}
	for _, g := range m.guests {
		s.Seats = append(s.Seats, g.seat)
	}
	return s
}

// Announce signs the seating Gather fixed (SignSeating) and sends it to
// every guest, in parallel, closing their streams for writing. A guest
// whose stream broke (a relay restarting, a dropped connection) before it
// got the list has RejoinWindow to meet again and get it; the meeting
// serves seated guests until Close. Announce returns an error naming each
// guest that got no list by then (that guest will be missing when the
// game connects), ctx's error, or an error if Gather has not fixed the
// seating.
func (m *Meeting) Announce(ctx context.Context) error {
	m.mu.Lock()
	fixed := m.fixed
	m.mu.Unlock()
	if !fixed {
		return errors.New("announce: the seating is not fixed yet (Gather)")
	}
	signed, err := signSeating(m.key, m.seating())
	if err != nil {
		return fmt.Errorf("announce: %w", err)
	}
	msg, err := proto.Marshal(&pb.HostMessage{Body: &pb.HostMessage_Seating{Seating: signed}})
	if err != nil {
		return fmt.Errorf("announce: %w", err)
	}
	m.sendMu.Lock()
	m.announced = true
	m.mu.Lock()
	m.seatingMsg = msg
	guests := append([]*guest(nil), m.guests...)
	m.changedLocked()
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, g := range guests {
		wg.Go(func() { m.sendSeating(ctx, g, msg) })
	}
	wg.Wait()
	m.sendMu.Unlock()

	window := time.NewTimer(RejoinWindow)
	defer window.Stop()
	for {
		m.mu.Lock()
		var missing []string
		for _, g := range m.guests {
			if !g.sent.Load() {
				missing = append(missing, g.seat.ID.String())
			}
		}
		changed := m.changed
		m.mu.Unlock()
		if len(missing) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("announce: guest %s got no seating list: %w", strings.Join(missing, ", "), ctx.Err())
		case <-window.C:
			return fmt.Errorf("announce: guest %s got no seating list: its stream broke and it did not come back within %s", strings.Join(missing, ", "), RejoinWindow)
		case <-changed:
		}
	}
}

// sendSeating writes the seating list msg to g once and closes g's stream
// for writing; a failed write resets the stream (the guest meets again).
func (m *Meeting) sendSeating(ctx context.Context, g *guest, msg []byte) {
	g.wmu.Lock()
	defer g.wmu.Unlock()
	if g.sent.Load() {
		return
	}
	if err := writeMsg(ctx, g.s, msg); err != nil {
		m.log.Info("meeting: cannot send the seating list, waiting for the guest to come back", "peer", g.seat.ID.String(), "err", err)
		_ = g.s.Reset()
		return
	}
	_ = g.s.CloseWrite()
	g.sent.Store(true)
	m.mu.Lock()
	m.changedLocked()
	m.mu.Unlock()
}

// Close stops serving ProtocolID and resets the streams of guests not yet
// sent the seating. It is safe to call more than once.
func (m *Meeting) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	m.closed = true
	m.h.RemoveStreamHandler(ProtocolID)
	if !m.fixed {
		for _, g := range m.guests {
			_ = g.s.Reset()
		}
	}
	m.changedLocked()
}

func (m *Meeting) changedLocked() {
	close(m.changed)
	m.changed = make(chan struct{})
}

// write sends one framed message on the guest's stream within
// WriteTimeout (or ctx's deadline, if earlier).
func (g *guest) write(ctx context.Context, msg []byte) error {
	g.wmu.Lock()
	defer g.wmu.Unlock()
	return writeMsg(ctx, g.s, msg)
}

func writeMsg(ctx context.Context, s network.Stream, msg []byte) error {
	deadline := time.Now().Add(WriteTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	_ = s.SetWriteDeadline(deadline)
	defer func() { _ = s.SetWriteDeadline(time.Time{}) }()
	return msgio.NewVarintWriter(s).WriteMsg(msg)
}

// readMsg reads one framed message of at most MaxMessageSize bytes.
func readMsg(s network.Stream) ([]byte, error) {
	r := msgio.NewVarintReaderSize(s, MaxMessageSize)
	size, err := r.NextMsgLen()
	if err != nil {
		return nil, err
	}
	if size < 0 || size > MaxMessageSize {
		return nil, fmt.Errorf("%w: %d bytes, at most %d", ErrTooLarge, size, MaxMessageSize)
	}
	buf := make([]byte, size)
	if _, err := r.Read(buf); err != nil {
		return nil, err
	}
	return buf, nil
}

// refuse tells a guest why it is not seated and closes its stream.
func refuse(s network.Stream, reason string) {
	if len(reason) > maxReason {
		reason = reason[:maxReason]
	}
	msg, err := proto.Marshal(&pb.HostMessage{Body: &pb.HostMessage_Refused{Refused: reason}})
	if err == nil {
		_ = writeMsg(context.Background(), s, msg)
	}
	_ = s.Close()
}

// handle serves one guest's meeting stream: it reads and checks its Hello,
// seats it if there is room, then waits until it leaves or the seating is
// fixed.
func (m *Meeting) handle(s network.Stream) {
	from := s.Conn().RemotePeer()
	log := m.log.With("peer", from.String(), "remote", s.Conn().RemoteMultiaddr().String())
	_ = s.SetReadDeadline(time.Now().Add(HelloTimeout))
	raw, err := readMsg(s)
	if err != nil {
		log.Info("meeting: no hello", "err", err)
		_ = s.Reset()
		return
	}
	_ = s.SetReadDeadline(time.Time{})
	seat, declined, err := m.checkHello(from, raw)
	if err != nil {
		log.Info("meeting: refused", "err", err)
		refuse(s, err.Error())
		return
	}
	if declined {
		m.mu.Lock()
		if !m.fixed && !m.closed {
			m.events = append(m.events, Arrival{Seat: seat, Declined: true, Count: len(m.guests) + 1})
			m.changedLocked()
		}
		m.mu.Unlock()
		log.Info("meeting: guest declined the settings", "nick", seat.Nick)
		_ = s.Close()
		return
	}
	g := &guest{seat: seat, s: s}
	m.mu.Lock()
	back := -1 // the guest's place if it is already here
	for i, o := range m.guests {
		if o.seat.ID == from {
			back = i
		}
	}
	if m.closed || back < 0 && (m.fixed || len(m.guests) >= m.inv.PlayerCount()-1) {
		m.mu.Unlock()
		reason := fmt.Sprintf("table %q is full", m.inv.Table)
		log.Info("meeting: refused", "reason", reason)
		refuse(s, reason)
		return
	}
	if back >= 0 {
		// The same authenticated peer again: its old stream broke
		// (a relay restarted, a connection dropped) before this end
		// noticed. It keeps its place and nickname; the new Hello's
		// addresses replace the old ones. Nobody left, so no event.
		old := m.guests[back]
		g.seat.Nick = old.seat.Nick
		if m.fixed {
			g.seat = old.seat // the seating is drawn: nothing of it changes
		}
		m.guests[back] = g
		fixed := m.fixed
		m.changedLocked()
		m.mu.Unlock()
		_ = old.s.Reset()
		log.Info("meeting: guest came back on a new stream", "nick", g.seat.Nick)
		if fixed {
			m.seatAgain(g)
			var b [1]byte
			_, _ = s.Read(b[:]) // until the guest, having read the list, closes
			_ = s.Close()
			return
		}
	} else {
		m.guests = append(m.guests, g)
		m.events = append(m.events, Arrival{Seat: seat, Count: len(m.guests) + 1})
		m.changedLocked()
		m.mu.Unlock()
		log.Info("meeting: guest arrived", "nick", seat.Nick)
	}
	m.sendArrivals()

	// A guest sends nothing after its Hello: a read returns when it
	// leaves (EOF, reset, lost connection), when it breaks the protocol,
	// or after Announce, when it closes the stream having read the list.
	var b [1]byte
	_, err = s.Read(b[:])
	m.mu.Lock()
	if m.fixed {
		m.mu.Unlock()
		_ = s.Close()
		return
	}
	gone := false
	for i, o := range m.guests {
		if o == g {
			m.guests = append(m.guests[:i], m.guests[i+1:]...)
			gone = true
			break
		}
	}
	if !gone {
		m.mu.Unlock() // replaced by the same guest on a new stream
		return
	}
	m.events = append(m.events, Arrival{Seat: seat, Left: true, Count: len(m.guests) + 1})
	m.changedLocked()
	m.mu.Unlock()
	log.Info("meeting: guest left", "err", err)
	_ = s.Reset()
	m.sendArrivals()
}

// seatAgain sends a seated guest that came back on a new stream (after
// Gather fixed the seating) the seating list, once Announce has signed it,
// and leaves the stream to the guest to close.
func (m *Meeting) seatAgain(g *guest) {
	for {
		m.mu.Lock()
		msg, closed, changed := m.seatingMsg, m.closed, m.changed
		m.mu.Unlock()
		if msg != nil {
			m.sendSeating(context.Background(), g, msg)
			return
		}
		if closed {
			_ = g.s.Reset()
			return
		}
		select {
		case <-changed:
		case <-time.After(RejoinWindow):
			_ = g.s.Reset()
			return
		}
	}
}

// checkHello decodes and validates a guest's Hello; the guest's peer ID is
// the one the connection authenticated.
// A declining guest's Hello (declined) needs no addresses.
func (m *Meeting) checkHello(from peer.ID, raw []byte) (seat Seat, declined bool, err error) {
	var h pb.Hello
	if err := proto.Unmarshal(raw, &h); err != nil {
		return Seat{}, false, fmt.Errorf("hello: %w: %v", ErrMalformed, err)
	}
	if h.Table != m.inv.Table {
		return Seat{}, false, fmt.Errorf("hello: %w: this host seats table %q, not %q", ErrOtherTable, m.inv.Table, h.Table)
	}
	if err := CheckNick(h.Nick); err != nil {
		return Seat{}, false, fmt.Errorf("hello: %w", err)
	}
	if h.Declined {
		return Seat{ID: from, Nick: h.Nick}, true, nil
	}
	addrs, err := decodeAddrs(h.Addrs)
	if err != nil {
		return Seat{}, false, fmt.Errorf("hello: %w", err)
	}
	if err := checkAddrs(from, addrs); err != nil {
		return Seat{}, false, fmt.Errorf("hello: %w", err)
	}
	return Seat{ID: from, Addrs: addrs, Nick: h.Nick}, false, nil
}

// sendArrivals tells every guest who is there now.
func (m *Meeting) sendArrivals() {
	m.sendMu.Lock()
	defer m.sendMu.Unlock()
	m.mu.Lock()
	if m.announced || m.closed {
		m.mu.Unlock()
		return
	}
	arr := &pb.Arrivals{Seats: []*pb.Seat{seatToPB(m.me, false)}}
	guests := append([]*guest(nil), m.guests...)
	for _, g := range guests {
		arr.Seats = append(arr.Seats, seatToPB(g.seat, false))
	}
	m.mu.Unlock()
	msg, err := proto.Marshal(&pb.HostMessage{Body: &pb.HostMessage_Arrivals{Arrivals: arr}})
	if err != nil {
		return
	}
	var wg sync.WaitGroup
	for _, g := range guests {
		wg.Go(func() {
			if err := g.write(context.Background(), msg); err != nil {
				m.log.Info("meeting: cannot tell a guest the arrivals", "peer", g.seat.ID.String(), "err", err)
				_ = g.s.Reset()
			}
		})
	}
	wg.Wait()
}
