package web

import (
	"context"
	"time"
)

// A clock runs only when a decision is on a screen the player can see:
// the node waits for the page before the game (WaitPage), so that a
// human seat whose page has not connected is never acted for on the
// clock.
//
// A page that drops mid-game (a closed tab, a reload, a lost connection)
// is not waited for: as on Tenhou, where a disconnected player's turns
// go on as tsumogiri, the clock keeps running and, when it runs out, the
// node acts for the player (Player.Act: tsumogiri, pass), so the others
// wait no longer than for any silent player. What the page gets back is
// the table: it reconnects by itself every second, and every connection
// starts with the whole current Snapshot (the hand, rivers, scores, the
// open decision with its deadline, the feed saying what the node chose
// on the clock), and the page sends a click made while it was
// disconnected once it is connected again (app.js pending), which
// Player.Act takes if its decision is still open.

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

// pagesChanged wakes WatchPages; it never blocks.
func (s *Server) pagesChanged() {
	select {
	case s.pageChange <- struct{}{}:
	default:
	}
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
