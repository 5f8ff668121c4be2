package web

import "context"

// A clock runs only when a decision is on a screen the player can see:
// the node waits for the page before the game (WaitPage), so that a
// human seat whose page has not connected is never acted for on the
// clock.

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
