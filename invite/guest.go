package invite

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
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

	"github.com/mentalmj/mentalmj/invite/pb"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/settings"
)

// Dial pacing of Join: each attempt is bounded by DialAttemptTimeout, and
// failed attempts are retried (0.25 s doubling to 4 s) for DialWindow.
const (
	DialAttemptTimeout = 5 * time.Second
	DialWindow         = 60 * time.Second
)

// Join is the guest's side of the meeting protocol. It dials the host of
// inv with h (retrying for up to DialWindow while ctx lasts; h's
// connection gater must admit inv.Host, e.g. node's Config.Meet), opens a
// ProtocolID stream, says hello with nick and addrs (h's dialable
// transport addresses, each without /p2p/<self>), calls onArrivals (if not
// nil, from Join's goroutine) with the host's list of who is there each
// time it changes (host first; addresses left out), and returns the
// seating once the host sends it and VerifySeating accepts it. Errors
// name the host and wrap ErrRefused (with the host's reason), ErrTooLarge,
// ErrMalformed, VerifySeating's errors, ctx's error, or the network's.
func Join(ctx context.Context, h host.Host, inv Invite, nick string, addrs []multiaddr.Multiaddr, onArrivals func([]Seat)) (Seating, error) {
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
		st, err := meetOnce(ctx, h, inv, msg, onArrivals)
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
func meetOnce(ctx context.Context, h host.Host, inv Invite, msg []byte, onArrivals func([]Seat)) (Seating, error) {
	if err := dialHost(ctx, h, inv.AddrInfo()); err != nil {
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

// dialHost connects to the host, retrying while it is unreachable.
func dialHost(ctx context.Context, h host.Host, info peer.AddrInfo) error {
	wctx, cancel := context.WithTimeout(ctx, DialWindow)
	defer cancel()
	wait := 250 * time.Millisecond
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
		timer := time.NewTimer(wait + time.Duration(rand.Int64N(int64(wait)/2)))
		select {
		case <-wctx.Done():
			timer.Stop()
			return fmt.Errorf("cannot reach the host %s at %v after %d attempts (is it running, and the invite current?): %w", info.ID, info.Addrs, attempt, errors.Join(wctx.Err(), err))
		case <-timer.C:
		}
		wait = min(2*wait, 4*time.Second)
	}
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
// invite's settings: it dials the host (as Join, within ctx), sends a
// Hello with declined set, and closes the stream. The host reports it
// (Arrival.Declined) and seats nobody. Its errors name the host.
func Decline(ctx context.Context, h host.Host, inv Invite, nick string) error {
	if err := CheckNick(nick); err != nil {
		return fmt.Errorf("decline: %w", err)
	}
	msg, err := proto.Marshal(&pb.Hello{Table: inv.Table, Nick: nick, Declined: true})
	if err != nil {
		return fmt.Errorf("decline: %w", err)
	}
	if err := dialHost(ctx, h, inv.AddrInfo()); err != nil {
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
