package tablerun

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/screen"
	"github.com/mentalmj/mentalmj/ui/terminal"
	"github.com/mentalmj/mentalmj/ui/web"
)

// frontend is where a person sees the table: the browser (--ui), the
// terminal, or nothing (a bot without --ui).
type frontend struct {
	model  *screen.Model
	term   *terminal.Table
	srv    *web.Server
	player protocol.Player // nil: the caller's bot plays
}

// newFrontend builds the table for join: with useUI a browser table on
// 127.0.0.1 (the human plays through it unless bot), else, for a human,
// the terminal table on in/out. downloads are the records the page
// offers.
// lang is the language asked for (Table.Lang).
func newFrontend(useUI, bot bool, lang string, in io.Reader, out io.Writer, downloads map[string]web.Download) (*frontend, error) {
	links := map[string]string{}
	for name := range downloads {
		links[name] = "/download/" + name
	}
	f := &frontend{model: screen.NewModel(links)}
	switch {
	case useUI:
		var p *web.Player
		if !bot {
			p = web.NewPlayer(f.model)
			f.player = p
		}
		srv, err := web.Listen(web.Config{Model: f.model, Player: p, Downloads: downloads, Lang: lang})
		if err != nil {
			return nil, err
		}
		f.srv = srv
	case !bot:
		f.term = terminal.New(in, out, f.model)
		f.term.SetLang(i18n.PickSystem(lang, os.Getenv))
		f.player = f.term
	}
	return f, nil
}

// Observe feeds the table (protocol.Observer).
func (f *frontend) Observe(o protocol.Observation) {
	if f.term != nil {
		f.term.Observe(o)
		return
	}
	f.model.Observe(o)
}

// Paused shows that the table waits for a peer to reconnect, or (the zero
// Pause) plays on.
func (f *frontend) Paused(p protocol.Pause) {
	if f.term != nil {
		f.term.Pause(p)
		return
	}
	f.model.PauseFor(p)
}

// HandDone feeds the table a hand's result.
func (f *frontend) HandDone(r protocol.HandResult) {
	if f.term != nil {
		f.term.HandDone(r)
		return
	}
	f.model.HandDone(r)
}

// Finish shows the end of the game: the standings end every game that
// ended normally, the match finished or its fixed number of hands
// (--hands N) played.
func (f *frontend) Finish(g *protocol.Game, err error) {
	var st *game.Standings
	if err == nil {
		s := g.Standings()
		st = &s
	}
	if f.term != nil {
		f.term.Finish(st, err)
		return
	}
	f.model.Finish(st, err)
}

// serve starts the browser table (if any): it prints the URL on out and
// opens the browser unless noOpen. The server stops when ctx ends.
func (f *frontend) serve(ctx context.Context, noOpen bool, out io.Writer) {
	if f.srv == nil {
		return
	}
	go f.srv.Serve(ctx)
	fmt.Fprintf(out, "table: %s (served on 127.0.0.1 only; the token in the URL is your key)\n", f.srv.URL())
	if !noOpen {
		if err := web.OpenBrowser(ctx, f.srv.URL()); err != nil {
			fmt.Fprintf(out, "could not open a browser (%v); open the URL above yourself\n", err)
		}
	}
}

// linger keeps the browser table up for d after the game so the player
// can read the last hand and the standings; an interrupt ends it sooner.
func (f *frontend) linger(ctx context.Context, d time.Duration, out io.Writer) {
	if f.srv == nil || d <= 0 {
		return
	}
	fmt.Fprintf(out, "the table stays open for %s at %s (Ctrl-C to quit)\n", d, f.srv.URL())
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// joinObserver is join's protocol.PauseObserver: observations go to
// observe; pauses go to the table and, when no terminal table prints
// them, to the progress output (when the pause starts, every 15 s with the
// time left, and when play resumes).
type joinObserver struct {
	out        *progress.Reporter
	front      *frontend
	observe    func(protocol.Observation)
	paused     bool
	pauseShown time.Time
}

// Observe implements protocol.Observer.
func (j *joinObserver) Observe(o protocol.Observation) { j.observe(o) }

// Paused implements protocol.PauseObserver.
func (j *joinObserver) Paused(p protocol.Pause) {
	j.front.Paused(p)
	if j.front.term != nil {
		return
	}
	switch text := p.Text(); {
	case text == "" && j.paused:
		j.paused = false
		j.out.Event(progress.Resumed{}, "everyone is back: playing on")
	case text != "" && (!j.paused || time.Since(j.pauseShown) >= 15*time.Second):
		j.paused, j.pauseShown = true, time.Now()
		j.out.Event(progress.Paused{Peer: p.Peer.String(), Nick: p.Nick, LeftMs: p.Left.Milliseconds()}, "%s", text)
	}
}

// setClock shows the human seat's time control, c, at the table: the
// countdown of each decision and the bank left.
func (f *frontend) setClock(c *timecontrol.Clock) {
	f.model.SetClock(c)
}
