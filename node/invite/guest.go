package invite

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	"github.com/multiformats/go-multiaddr"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node/invite/pb"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/settings"
)

// Dial pacing of Join: each attempt is bounded by DialAttemptTimeout, and
// failed attempts are retried (0.25 s doubling to 4 s) for DialWindow.
const (
	DialAttemptTimeout = 5 * time.Second
	DialWindow         = 60 * time.Second
)

// Join is the guest's side of the meeting protocol. It dials the host of
// inv with h (retrying for up to DialWindow while ctx lasts; h's
// connection gater must admit inv.Host, e.g. node's Config.Meet; when the
// invite's addresses do not answer and find is not nil, it looks the host
// up with find after the first failed dial and after every fourth one,
// and dials what it finds too), opens a
// ProtocolID stream, says hello with nick and addrs (h's dialable
// transport addresses, each without /p2p/<self>), calls onArrivals (if not
// nil, from Join's goroutine) with the host's list of who is there each
// time it changes (host first; addresses left out), and returns the
// seating once the host sends it and VerifySeating accepts it. Errors
// name the host and wrap ErrRefused (with the host's reason), ErrTooLarge,
// ErrMalformed, VerifySeating's errors, ctx's error, or the network's; one
// that never reached the host says what the player can do (ask for a new
// invite; be on the public network, where the host can be looked up) and
// why the last look-up failed.
func Join(ctx context.Context, h host.Host, inv Invite, nick string, addrs []multiaddr.Multiaddr, onArrivals func([]Seat), find *Finder) (Seating, error) {
	if err := CheckNick(nick); err != nil {
		return Seating{}, fmt.Errorf("join: %w", err)
	}
	if len(addrs) > MaxAddrs {
		addrs = addrs[:MaxAddrs]
	}
	if err := checkAddrs(h.ID(), addrs); err != nil {
		return Seating{}, fmt.Errorf("join: own addresses: %w", err)
	}
	hello := &pb.Hello{Table: inv.Table, Nick: nick}
	for _, a := range addrs {
		hello.Addrs = append(hello.Addrs, a.Bytes())
	}
	msg, err := proto.Marshal(hello)
	if err != nil {
		return Seating{}, fmt.Errorf("join: %w", err)
	}
	window := time.Now().Add(DialWindow)
	for attempt := 1; ; attempt++ {
		st, err := meetOnce(ctx, h, inv, msg, onArrivals, find)
		var broken *brokenError
		if !errors.As(err, &broken) {
			return st, err
		}
		// The stream broke on the way (a relay restarting, a dropped
		// connection): meet again, keeping our place at the host.
		if ctx.Err() != nil || time.Now().After(window) {
			return Seating{}, fmt.Errorf("host %s: %w (after %d attempts)", inv.Host, broken.err, attempt)
		}
		timer := time.NewTimer(time.Duration(attempt) * 250 * time.Millisecond)
		select {
		case <-ctx.Done():
			timer.Stop()
			return Seating{}, fmt.Errorf("host %s: %w", inv.Host, errors.Join(ctx.Err(), broken.err))
		case <-timer.C:
		}
	}
}

// brokenError is a meeting stream that failed on the network (not a
// refusal or a malformed message): Join meets again.
type brokenError struct{ err error }

func (e *brokenError) Error() string { return e.err.Error() }
func (e *brokenError) Unwrap() error { return e.err }

// meetOnce dials the host, says hello (msg) on a new stream and reads
// until the seating list; a network failure after the dial is a
// *brokenError.
func meetOnce(ctx context.Context, h host.Host, inv Invite, msg []byte, onArrivals func([]Seat), find *Finder) (Seating, error) {
	if err := dialHost(ctx, h, inv.AddrInfo(), find); err != nil {
		return Seating{}, err
	}
	sctx := network.WithAllowLimitedConn(ctx, "mentalmj invite")
	s, err := h.NewStream(sctx, inv.Host, ProtocolID)
	if err != nil {
		if ctx.Err() == nil {
			return Seating{}, &brokenError{fmt.Errorf("open %s: %w", ProtocolID, err)}
		}
		return Seating{}, fmt.Errorf("host %s: open %s: %w", inv.Host, ProtocolID, err)
	}
	stop := context.AfterFunc(ctx, func() { _ = s.Reset() })
	defer stop()
	if err := writeMsg(ctx, s, msg); err != nil {
		_ = s.Reset()
		if ctx.Err() == nil {
			return Seating{}, &brokenError{fmt.Errorf("hello: %w", err)}
		}
		return Seating{}, fmt.Errorf("host %s: hello: %w", inv.Host, err)
	}
	for {
		raw, err := readMsg(s)
		if err != nil {
			_ = s.Reset()
			if ctx.Err() != nil {
				err = ctx.Err()
			} else if !errors.Is(err, ErrTooLarge) {
				return Seating{}, &brokenError{fmt.Errorf("waiting for the seating list: %w", err)}
			}
			return Seating{}, fmt.Errorf("host %s: waiting for the seating list: %w", inv.Host, err)
		}
		var hm pb.HostMessage
		if err := proto.Unmarshal(raw, &hm); err != nil {
			_ = s.Reset()
			return Seating{}, fmt.Errorf("host %s: %w: %v", inv.Host, ErrMalformed, err)
		}
		switch b := hm.Body.(type) {
		case *pb.HostMessage_Arrivals:
			seats, err := checkArrivals(b.Arrivals, inv.Host)
			if err != nil {
				_ = s.Reset()
				return Seating{}, fmt.Errorf("host %s: arrivals: %w", inv.Host, err)
			}
			if onArrivals != nil {
				onArrivals(seats)
			}
		case *pb.HostMessage_Refused:
			_ = s.Reset()
			return Seating{}, fmt.Errorf("host %s: %w: %s", inv.Host, ErrRefused, printable(b.Refused, maxReason))
		case *pb.HostMessage_Seating:
			data, err := proto.Marshal(b.Seating)
			if err != nil {
				_ = s.Reset()
				return Seating{}, fmt.Errorf("host %s: %w", inv.Host, err)
			}
			st, err := VerifySeating(data, inv.Table, inv.Host, h.ID())
			if err == nil && len(st.Seats) != inv.PlayerCount() {
				err = fmt.Errorf("seating list: %w: %d seats, the invite is for %d players", ErrMalformed, len(st.Seats), inv.PlayerCount())
			}
			if err == nil {
				err = sameSettings(inv.Settings, st.Settings)
			}
			if err != nil {
				_ = s.Reset()
				return Seating{}, fmt.Errorf("host %s: %w", inv.Host, err)
			}
			_ = s.Close()
			return st, nil
		default:
			_ = s.Reset()
			return Seating{}, fmt.Errorf("host %s: %w: empty message", inv.Host, ErrMalformed)
		}
	}
}

// Finder looks the host up when the invite's addresses do not answer: an
// invite whose host restarted on another port, or reserved on other
// relays, still names the host's peer ID, and peer routing on the public
// DHT (node.Node.FindPeer) finds its current addresses. Join and Decline
// dial what it finds as they dial the invite's: the handshake checks the
// host's key, and the guest's connection gater still decides who may
// connect (strangers never reach the game protocol).
type Finder struct {
	// Find returns the current addresses of the peer id, e.g.
	// node.Node.FindPeer, or an error. Required.
	Find func(ctx context.Context, id peer.ID) (peer.AddrInfo, error)
	// Wait bounds each look-up; FindWait when zero.
	Wait time.Duration
	// Looking, if not nil, is called from the dialling goroutine before
	// each look-up with its bound, so that the screen can say what the
	// guest waits for.
	Looking func(wait time.Duration)
	// Found, if not nil, is called after each look-up with the
	// addresses found (none on an error) and Find's error.
	Found func(addrs []multiaddr.Multiaddr, err error)
}

// FindWait is a Finder's default bound on one look-up: a Kademlia lookup
// on the public DHT takes a few seconds.
const FindWait = 20 * time.Second

// findEvery is how many failed dials of the host's known addresses come
// between two look-ups: the first look-up follows the first failure.
const findEvery = 4

// dialHost connects to the host, retrying while it is unreachable and,
// with a Finder, looking the host up when its addresses fail.
func dialHost(ctx context.Context, h host.Host, info peer.AddrInfo, find *Finder) error {
	wctx, cancel := context.WithTimeout(ctx, DialWindow)
	defer cancel()
	wait := 250 * time.Millisecond
	var findErr error
	for attempt := 1; ; attempt++ {
		if sw, ok := h.Network().(*swarm.Swarm); ok {
			sw.Backoff().Clear(info.ID)
		}
		dctx, dcancel := context.WithTimeout(wctx, DialAttemptTimeout)
		err := h.Connect(dctx, info)
		dcancel()
		if err == nil {
			return nil
		}
		if find != nil && attempt%findEvery == 1 && wctx.Err() == nil {
			var found []multiaddr.Multiaddr
			found, findErr = lookUp(wctx, find, info.ID)
			if findErr == nil {
				info.Addrs = mergeAddrs(info.Addrs, found)
				continue // dial at once what was found
			}
		}
		timer := time.NewTimer(wait + time.Duration(rand.Int64N(int64(wait)/2)))
		select {
		case <-wctx.Done():
			timer.Stop()
			return unreachableError(info, attempt, find != nil, findErr, errors.Join(wctx.Err(), err))
		case <-timer.C:
		}
		wait = min(2*wait, 4*time.Second)
	}
}

// lookUp runs one bounded look-up of id with find and reports it.
func lookUp(ctx context.Context, find *Finder, id peer.ID) ([]multiaddr.Multiaddr, error) {
	wait := find.Wait
	if wait <= 0 {
		wait = FindWait
	}
	if find.Looking != nil {
		find.Looking(wait)
	}
	fctx, cancel := context.WithTimeout(ctx, wait)
	info, err := find.Find(fctx, id)
	cancel()
	if err == nil && info.ID != id {
		err = fmt.Errorf("the look-up answered for %s, not %s", info.ID, id)
	}
	if err == nil && len(info.Addrs) == 0 {
		err = fmt.Errorf("the look-up found %s without any address", id)
	}
	if err != nil {
		info.Addrs = nil
	}
	if find.Found != nil {
		find.Found(info.Addrs, err)
	}
	return info.Addrs, err
}

// mergeAddrs returns known followed by those of found it lacks.
func mergeAddrs(known, found []multiaddr.Multiaddr) []multiaddr.Multiaddr {
	out := slices.Clone(known)
	for _, a := range found {
		if !slices.ContainsFunc(out, a.Equal) {
			out = append(out, a)
		}
	}
	return out
}

// unreachableError (ErrUnreachable) says that the host could not be reached and what the
// player can do about it: with a Finder (findErr is the last look-up's
// error, nil if it found addresses that did not answer either), without
// one (off the public network, nobody could look the host up).
func unreachableError(info peer.AddrInfo, attempts int, finding bool, findErr, err error) error {
	var hint string
	switch {
	case !finding:
		hint = "is the host still running? If it restarted or moved, ask for its new invite; " +
			"off the public network (--no-public) nobody can look the host up by its peer ID"
	case findErr != nil:
		hint = fmt.Sprintf("the public DHT did not find it either (%v); is the host still running? If so, ask for its new invite", findErr)
	default:
		hint = "the addresses the public DHT gave did not answer either; is the host still running? If so, ask for its new invite"
	}
	return unreachable{fmt.Errorf("cannot reach the host %s at %v after %d attempts (%s): %w", info.ID, info.Addrs, attempts, hint, err)}
}

// checkArrivals validates the host's list of who is there: 1 to
// protocol.Players distinct seats, the host's first, valid nicknames.
func checkArrivals(a *pb.Arrivals, host peer.ID) ([]Seat, error) {
	if len(a.Seats) == 0 || len(a.Seats) > protocol.Players {
		return nil, fmt.Errorf("%w: %d players, want 1 to %d", ErrMalformed, len(a.Seats), protocol.Players)
	}
	seen := map[peer.ID]bool{}
	var out []Seat
	for i, m := range a.Seats {
		id, err := peer.IDFromBytes(m.GetPeer())
		if err != nil {
			return nil, fmt.Errorf("%w: player %d: %v", ErrMalformed, i+1, err)
		}
		if seen[id] || (i == 0) != (id == host) {
			return nil, fmt.Errorf("%w: player %d (%s) repeated or out of place", ErrMalformed, i+1, id)
		}
		seen[id] = true
		if err := CheckNick(m.GetNick()); err != nil {
			return nil, fmt.Errorf("player %d: %w", i+1, err)
		}
		out = append(out, Seat{ID: id, Nick: m.GetNick()})
	}
	return out, nil
}

// printable returns at most n bytes of s with every character that is not
// graphic (control characters, escapes) replaced by U+FFFD, safe to print.
func printable(s string, n int) string {
	if len(s) > n {
		s = s[:n]
	}
	return strings.Map(func(r rune) rune {
		if r == ' ' || unicode.IsGraphic(r) {
			return r
		}
		return utf8.RuneError
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// sameSettings returns nil if the seating list's settings are the
// invite's (or neither has any), else an error wrapping ErrMalformed: the
// host may not change the game after the guest accepted it.
func sameSettings(inv, list *settings.Settings) error {
	switch {
	case inv == nil && list == nil:
		return nil
	case inv == nil || list == nil:
		return fmt.Errorf("seating list: %w: it has settings and the invite none, or the other way round", ErrMalformed)
	}
	if err := list.Diff(*inv); err != nil {
		return fmt.Errorf("seating list: %w: its game is not the invite's: it %v", ErrMalformed, err)
	}
	return nil
}

// Decline tells the host of inv that the guest nick will not play the
// invite's settings: it dials the host (as Join, within ctx, looking it
// up with find when that is not nil), sends a
// Hello with declined set, and closes the stream. The host reports it
// (Arrival.Declined) and seats nobody. Its errors name the host.
func Decline(ctx context.Context, h host.Host, inv Invite, nick string, find *Finder) error {
	if err := CheckNick(nick); err != nil {
		return fmt.Errorf("decline: %w", err)
	}
	msg, err := proto.Marshal(&pb.Hello{Table: inv.Table, Nick: nick, Declined: true})
	if err != nil {
		return fmt.Errorf("decline: %w", err)
	}
	if err := dialHost(ctx, h, inv.AddrInfo(), find); err != nil {
		return err
	}
	s, err := h.NewStream(network.WithAllowLimitedConn(ctx, "mentalmj invite"), inv.Host, ProtocolID)
	if err != nil {
		return fmt.Errorf("host %s: open %s: %w", inv.Host, ProtocolID, err)
	}
	if err := writeMsg(ctx, s, msg); err != nil {
		_ = s.Reset()
		return fmt.Errorf("host %s: %w", inv.Host, err)
	}
	// Wait for the host to close its side, so the Hello is read before
	// this node goes away.
	_ = s.CloseWrite()
	_ = s.SetReadDeadline(time.Now().Add(WriteTimeout))
	var b [1]byte
	_, _ = s.Read(b[:])
	return s.Close()
}
