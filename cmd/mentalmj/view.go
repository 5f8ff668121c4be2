package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/ui/viewer"
	"github.com/mentalmj/mentalmj/ui/web"
)

// viewFlags are the options of "mentalmj view".
type viewFlags struct {
	noOpen, check bool
	port          int
	kyoku, step   int
	lang          string // --lang
	seat          int    // --seat, -1 when not given
	me            string // --me
}

func viewCommand() *cobra.Command {
	var f viewFlags
	cmd := leaf(viewUsage, "replay a game record in the browser (transcript, mjlog, tenhou.net/6 JSON, mjai)", func(cmd *cobra.Command, args []string) int {
		return runView(cmd, args, f)
	})
	fs := cmd.Flags()
	fs.BoolVar(&f.noOpen, "no-open", false, "only print the page's URL; do not open the browser")
	fs.IntVar(&f.port, "port", 0, "TCP port on 127.0.0.1 (0: a free one)")
	fs.IntVar(&f.kyoku, "kyoku", -1, "open at this kyoku (index from 0, as in the URL's k=; -1: the first, at its deal)")
	fs.IntVar(&f.step, "step", 0, "open at this step of --kyoku's kyoku, or of the first (0: the deal; as in the URL's a=)")
	fs.IntVar(&f.seat, "seat", -1, "draw this seat (0 the first East) at the bottom, as you sat; for records that do not say who wrote them (mjlog, tenhou.net/6, mjai)")
	fs.StringVar(&f.me, "me", "", "draw the player of this nickname at the bottom (as --seat)")
	addLang(cmd, &f.lang)
	fs.BoolVar(&f.check, "check", false, "read the record, print its kyoku and their verification, and exit without serving")
	return cmd
}

const viewUsage = `view [--no-open] [--port N] [--kyoku K] [--step A] [--seat N | --me NAME] [--check] FILE

Replays a finished game in the browser, as the table showed it: step by
action (← →) and by kyoku (↑ ↓) or with the buttons, with every hand open
or one seat's view, the dora and ura indicators, the end-of-hand screens
and the final standings.

FILE is a mentalmj transcript (.mjt, audited offline: each hand's verdict
is shown), a Tenhou mjlog (Tenhou's or a mentalmj record, four or three
players, plain or gzip; with a SHUFFLE seed each kyoku says "wall verified
from Tenhou's seed" or the mismatch), tenhou.net/6 JSON or an mjai log. The
format is read from the content, not the name. A private-hands record
shows only what its owner saw.

The page is served on 127.0.0.1 only, behind a random token in its URL,
and needs no network: everything is inside the binary. The URL's fragment
is the position (#k=3&a=41: kyoku index 3 from 0, step 41 from the deal),
so a moment can be shared with someone who has the same file. The server
runs until Ctrl-C.

A transcript knows who wrote it and draws that player at the bottom, as
they sat. An mjlog, tenhou.net/6 JSON or mjai log does not say: it shows
seat 0 there, or the seat --seat N (0 the first East) or --me NAME (a
nickname of the record) names.

An mjai dahai without the optional tsumogiri field, of the tile the
player just drew, is taken as that tile (in riichi it must be; otherwise
the record cannot tell it from another copy in the hand, and the drawn
one is shown).

Exit status: 0 when Ctrl-C stops the server, or after --check; 2 bad
usage, a --port that cannot be bound, or a file that cannot be shown (it
says what the file looks like), a record cut short inside a kyoku among
them (it names the kyoku, the phase it stops in and, for an mjai log, the
line).`

func runView(cmd *cobra.Command, args []string, f viewFlags) int {
	ctx, stdout, stderr := cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr()
	if len(args) != 1 {
		return usageError(cmd, "give one record file (got %d arguments)", len(args))
	}
	if f.kyoku < 0 && f.step != 0 {
		f.kyoku = 0 // --step alone: a step of the first kyoku
	}
	if code, ok := checkLang(cmd, f.lang); !ok {
		return code
	}
	if f.port < 0 || f.port > 65535 {
		return usageError(cmd, "--port %d: want 0..65535", f.port)
	}
	if info, err := os.Stat(args[0]); err == nil && info.Size() > 1<<20 {
		// A transcript is audited first: every proof is checked again.
		fmt.Fprintf(stderr, "reading %s (%d MiB)…\n", args[0], info.Size()>>20)
	}
	rec, err := viewer.Load(args[0])
	if err != nil {
		return fail(cmd, 2, "%v", err)
	}
	if code, ok := f.setMe(cmd, rec); !ok {
		return code
	}
	if f.check {
		viewer.WriteSummary(stdout, rec)
		return 0
	}
	srv, err := viewer.Listen(rec, f.port, nil, f.lang)
	if err != nil {
		return fail(cmd, 2, "%v", err)
	}
	url := srv.URL(f.kyoku, f.step)
	fmt.Fprintf(stdout, "replay of %s (%s, %d kyoku): %s\n(served on 127.0.0.1 only; the token in the URL is the key; Ctrl-C to stop)\n", args[0], rec.Format, len(rec.Kyoku), url)
	if !f.noOpen {
		if err := web.OpenBrowser(ctx, url); err != nil {
			fmt.Fprintf(stdout, "could not open a browser (%v); open the URL above yourself\n", err)
		}
	}
	if err := srv.Serve(ctx); err != nil {
		return fail(cmd, 2, "%v", err)
	}
	return 0
}

// setMe applies --seat or --me to rec (viewer.Record.SetMe): a bad or
// conflicting one is a usage error (ok false, exit code 2).
func (f viewFlags) setMe(cmd *cobra.Command, rec *viewer.Record) (code int, ok bool) {
	seat := f.seat
	switch {
	case f.me != "" && cmd.Flags().Changed("seat"):
		return usageError(cmd, "give --seat or --me, not both"), false
	case f.me != "":
		s, err := rec.SeatOf(f.me)
		if err != nil {
			return usageError(cmd, "--me: %v", err), false
		}
		seat = s
	case !cmd.Flags().Changed("seat"):
		return 0, true
	}
	if err := rec.SetMe(seat); err != nil {
		flag := "--seat"
		if f.me != "" {
			flag = "--me"
		}
		return usageError(cmd, "%s: %v", flag, err), false
	}
	return 0, true
}
