package lobby

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node/lobby/pb"
	"github.com/mentalmj/mentalmj/riichi/settings"
)

// validate is the topic validator: Reject for what proves the delivering
// peer misbehaves (oversized, malformed, another author than the host
// field, the author itself sending too often), Ignore for what an
// honest relay may pass on (an author's announcement arriving too soon
// through a relay; settings of a newer release), Accept otherwise, with
// the Table as the message's ValidatorData.
func (l *Lobby) validate(_ context.Context, from peer.ID, m *pubsub.Message) pubsub.ValidationResult {
	author := m.GetFrom()
	if len(m.Data) > MaxAnnouncementSize {
		l.opt.Logger.Debug("lobby: oversized announcement", "from", from, "bytes", len(m.Data))
		return pubsub.ValidationReject
	}
	var a pb.Announcement
	if err := proto.Unmarshal(m.Data, &a); err != nil {
		l.opt.Logger.Debug("lobby: malformed announcement", "from", from, "err", err)
		return pubsub.ValidationReject
	}
	t, err := check(&a, author)
	switch {
	case errors.Is(err, settings.ErrUnknown):
		return pubsub.ValidationIgnore
	case err != nil:
		l.opt.Logger.Debug("lobby: announcement refused", "from", from, "author", author, "err", err)
		return pubsub.ValidationReject
	}
	if author != l.h.ID() && !l.lim.allowed(author) {
		if from == author {
			return pubsub.ValidationReject
		}
		return pubsub.ValidationIgnore
	}
	t.Seen = l.opt.Now()
	m.ValidatorData = t
	return pubsub.ValidationAccept
}

// check checks an announcement's fields (author the message's author)
// and returns its Table. Settings this build does not know give an error
// wrapping settings.ErrUnknown.
func check(a *pb.Announcement, author peer.ID) (Table, error) {
	if a.Version != Version {
		return Table{}, fmt.Errorf("version %q, want %q", a.Version, Version)
	}
	host, err := peer.IDFromBytes(a.Host)
	if err != nil {
		return Table{}, fmt.Errorf("host: %w", err)
	}
	if host != author {
		return Table{}, fmt.Errorf("announces %s's table but comes from %s", host, author)
	}
	s, err := settings.FromProto(a.Settings)
	if err != nil {
		return Table{}, fmt.Errorf("settings: %w", err)
	}
	switch {
	case len(a.Nick) > 64 || len(a.Table) > 64:
		return Table{}, errors.New("nick or table name over 64 bytes")
	case len(a.Invite) > 1024:
		return Table{}, errors.New("invite over 1024 bytes")
	case !a.Withdrawn && (a.FreeSeats < 1 || int(a.FreeSeats) >= s.Players):
		return Table{}, fmt.Errorf("%d free seats at a %d-player table", a.FreeSeats, s.Players)
	case a.Spectators > 1000:
		return Table{}, fmt.Errorf("%d spectators", a.Spectators)
	case a.League != nil && len(a.League.Dan) > 16:
		return Table{}, errors.New("dan name over 16 bytes")
	case a.TimeMs <= 0:
		return Table{}, errors.New("no time")
	}
	return Table{Announcement: a, Host: host, Settings: s}, nil
}

// limiter allows one announcement per author per interval.
type limiter struct {
	interval time.Duration
	now      func() time.Time
	mu       sync.Mutex
	last     map[peer.ID]time.Time
}

func newLimiter(interval time.Duration, now func() time.Time) *limiter {
	return &limiter{interval: interval, now: now, last: map[peer.ID]time.Time{}}
}

// allowed reports whether an announcement of author may pass now, and
// if so counts it. Entries older than the interval are swept as it goes.
func (l *limiter) allowed(author peer.ID) bool {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if t, ok := l.last[author]; ok && now.Sub(t) < l.interval {
		return false
	}
	if len(l.last) > 4096 {
		for p, t := range l.last {
			if now.Sub(t) >= l.interval {
				delete(l.last, p)
			}
		}
	}
	l.last[author] = now
	return true
}
