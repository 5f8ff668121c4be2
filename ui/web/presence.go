package web

import (
	"context"
	"time"
)

// A clock runs only when a decision is on a screen the player can see:
// the node waits for the page before the game (WaitPage), so that a
// human seat whose page has not connected is never acted for on the
// clock, and mid-game the Player is a protocol.Attended whose screen is
// away while no page is connected (Away): the protocol then stands the
// player's clock still, and acts for the player only when the decision
// timeout passes, which is shorter than the others' wait for any silent
// player, so a closed tab holds the table no longer than a silent player
// would; after that the player counts as gone and the clock runs again
// until a page connects (Player.Away), so a closed tab holds the table up
// once, not at every decision. When a page is back, the decision on it
// counts down again from where the clock stopped.
//
// What the page gets back is the table: it reconnects by itself every
// second, and every connection starts with the whole current Snapshot
// (the hand, rivers, scores, the open decision with its deadline, the
// feed saying what the node chose for the player), and the page sends a
// click made while it was disconnected once it is connected again (app.js
// pending), which Player.Act takes if its decision is still open.

// pageOpen registers a page's WebSocket: the returned context ends when
// the request's does or when dropPages closes it; done unregisters it.
func (s *Server) pageOpen(parent context.Context) (ctx context.Context, done func()) {
	ctx, cancel := context.WithCancel(parent)
	s.mu.Lock()
	if s.pages == nil {
		s.pages = map[int]context.CancelFunc{}
	}
	id := s.nextPage
	s.nextPage++
	s.pages[id] = cancel
	s.mu.Unlock()
	s.pageSeen()
	s.pagesChanged()
	return ctx, func() {
		cancel()
		s.mu.Lock()
		delete(s.pages, id)
		s.mu.Unlock()
		s.pagesChanged()
	}
}

// pagesChanged wakes WatchPages and the Away watchers; it never blocks.
func (s *Server) pagesChanged() {
	select {
	case s.pageChange <- struct{}{}:
	default:
	}
	s.mu.Lock()
	close(s.awayChange)
	s.awayChange = make(chan struct{})
	s.mu.Unlock()
}

// Away reports whether no page is connected to the table now, and returns
// a channel closed when a page next connects or leaves.
func (s *Server) Away() (away bool, changed <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.pages) == 0, s.awayChange
}

// WatchPages tells, until ctx ends, when the player's table has gone
// and when it is back: gone is called once no page has been connected
// for quiet (a reload, back within about a second, says nothing), back
// when a page connects after a gone. A node calls it for the game, so
// that its terminal says the node now acts for the player on the clock
// and where the table is. One WatchPages per Server.
func (s *Server) WatchPages(ctx context.Context, quiet time.Duration, gone, back func()) {
	var wait <-chan time.Time
	away := false
	for {
		switch n := s.Pages(); {
		case n > 0:
			wait = nil
			if away {
				away = false
				back()
			}
		case !away && wait == nil:
			wait = time.After(quiet)
		}
		select {
		case <-ctx.Done():
			return
		case <-s.pageChange:
		case <-wait:
			wait = nil
			if s.Pages() == 0 {
				away = true
				gone()
			}
		}
	}
}

// Pages returns how many pages are connected to the table now.
func (s *Server) Pages() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.pages)
}

// dropPages closes every connected page's WebSocket, as a lost
// connection would (the pages reconnect by themselves).
func (s *Server) dropPages() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, cancel := range s.pages {
		cancel()
	}
}

// pageSeen marks that a page has connected to the table's WebSocket; the
// first call closes s.seen.
func (s *Server) pageSeen() {
	s.seenOnce.Do(func() { close(s.seen) })
}

// WaitPage returns nil once a page has connected to the table (now or
// before), or ctx's error if ctx ends first.
func (s *Server) WaitPage(ctx context.Context) error {
	select {
	case <-s.seen:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
