package web

import (
	"context"

	"github.com/mentalmj/mentalmj/ui/i18n"
)

// Confirm shows game (the invite's table and settings as a message,
// said in the page's language) on the page with
// Accept and Decline buttons and waits for a click: it returns true for
// Accept, false for Decline, or ctx's error if ctx ends first. The answer
// comes over the page's WebSocket, so the token and Origin rules of the
// table's actions hold for it; an answer when nothing is asked gets a
// notice and is dropped. The question stays on the page until the caller
// calls the model's Answered.
func (s *Server) Confirm(ctx context.Context, game i18n.Msg) (bool, error) {
	// Drop an answer left over from an earlier question.
	select {
	case <-s.answers:
	default:
	}
	s.model.Ask(game)
	select {
	case a := <-s.answers:
		return a, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// SetDownloads replaces the records the page offers (Config.Downloads)
// and the model's links to them, /download/NAME. A table served before
// its records exist (a guest confirming the host's game) gets them so.
func (s *Server) SetDownloads(downloads map[string]Download) {
	links := map[string]string{}
	for name := range downloads {
		links[name] = "/download/" + name
	}
	s.mu.Lock()
	s.downloads = downloads
	s.mu.Unlock()
	s.model.SetLinks(links)
}
