package tablerun

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/mentalmj/mentalmj/node/invite"
	"github.com/mentalmj/mentalmj/ui/i18n"
	uiscreen "github.com/mentalmj/mentalmj/ui/screen"
	"github.com/mentalmj/mentalmj/ui/terminal"
	"github.com/mentalmj/mentalmj/ui/web"
)

// Confirm asks the guest to play the host's game, game (InviteMsg: the
// invite's table and settings as a message), before the table is set. With f.UI it starts the
// browser table now (printing its URL on screen and opening the browser
// unless f.NoOpen; Play then goes on with the same page) and shows game
// there with Accept and Decline, while the terminal asks "play this
// game? [y/N]" on in and screen: the first answer decides. The end of in
// is no answer when the page can still give one. Without f.UI only the
// terminal asks. It returns false for a decline, and an error if the
// browser table cannot be started or ctx ends first. After a true answer
// the caller must call Play (which stops the page), else StopUI.
func (f *Table) Confirm(ctx context.Context, game i18n.Msg, in io.Reader, screen io.Writer) (bool, error) {
	if !f.UI {
		return terminal.Confirm(in, screen, i18n.PickSystem(f.Lang, os.Getenv).T("term.confirm")), nil
	}
	front, err := f.startPage(ctx, screen)
	if err != nil {
		return false, err
	}

	qctx, cancel := context.WithCancel(ctx)
	defer cancel()
	term := make(chan bool, 1)
	go func() {
		term <- terminal.Confirm(eofWaits{in, qctx.Done()}, screen, i18n.PickSystem(f.Lang, os.Getenv).T("term.confirm_page"))
	}()
	var yes bool
	select {
	case yes = <-term:
	case yes = <-answer(qctx, front.srv, game):
		fmt.Fprintf(screen, "\n%s\n", i18n.PickSystem(f.Lang, os.Getenv).T(map[bool]string{true: "term.answered_accept", false: "term.answered_decline"}[yes]))
	case <-ctx.Done():
		return false, ctx.Err()
	}
	if yes {
		front.model.Answered(i18n.M("status.accepted"))
	} else {
		front.model.Answered(i18n.M("status.declined"))
	}
	return yes, nil
}

// startPage starts the browser table before the game (Play then goes on
// with the same page): it prints its URL on screen and opens the
// browser unless f.NoOpen, and shows the game's settings.
func (f *Table) startPage(ctx context.Context, screen io.Writer) (*frontend, error) {
	front, err := newFrontend(true, f.Bot || f.MjaiBot != "", f.Lang, os.Stdin, screen, nil)
	if err != nil {
		return nil, fmt.Errorf("--ui: %w", err)
	}
	uiCtx, stop := context.WithCancel(ctx)
	f.front, f.stopUI = front, stop
	front.serve(uiCtx, f.NoOpen, screen)
	front.model.SetGameMsg(gameMsg(f.Name, f.Play))
	return front, nil
}

// OpenRoom opens the host's browser table at once (with f.UI; nothing
// otherwise), as a waiting room: who is here (Room) and the game's
// settings, until the table is complete and Play takes the page over.
// It returns an error if the browser table cannot be started. Unless
// Play follows, the caller must call StopUI.
func (f *Table) OpenRoom(ctx context.Context, screen io.Writer) error {
	if !f.UI {
		return nil
	}
	_, err := f.startPage(ctx, screen)
	return err
}

// Room shows who is at the table so far, players (their names, this
// player's own first), of total seats, in the waiting room OpenRoom
// opened; nothing without one.
func (f *Table) Room(players []string, total int) {
	if f.front != nil {
		f.front.model.SetRoom(players, total)
	}
}

// answer runs the page's Confirm of game on srv in the background.
func answer(ctx context.Context, srv *web.Server, game i18n.Msg) <-chan bool {
	ch := make(chan bool, 1)
	go func() {
		if yes, err := srv.Confirm(ctx, game); err == nil {
			ch <- yes
		}
	}()
	return ch
}

// StopUI stops a browser table Confirm started and Play did not take
// over (a declined game); it does nothing otherwise.
func (f *Table) StopUI() {
	if f.stopUI != nil {
		f.stopUI()
	}
}

// eofWaits is an io.Reader whose end waits for done: the end of the
// terminal's input is no answer while the page may still give one.
type eofWaits struct {
	r    io.Reader
	done <-chan struct{}
}

func (e eofWaits) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if n == 0 && err == io.EOF {
		<-e.done
	}
	return n, err
}

// InviteMsg is inv.Describe as a message (i18n.Msg) for the page's
// language: "bob's table friday: 4 players, hanchan, …" (the settings as
// screen.SettingsMsg), "bobの卓 friday: 4人打ち、半荘戦、…".
func InviteMsg(inv invite.Invite) i18n.Msg {
	who := i18n.M("game.table_name", inv.Table)
	if inv.Nick != "" {
		who = i18n.M("game.host_table", inv.Nick, inv.Table)
	}
	if inv.Settings == nil {
		return i18n.M("game.no_settings", who, inv.PlayerCount())
	}
	return i18n.M("game.invite", who, uiscreen.SettingsMsg(*inv.Settings))
}
