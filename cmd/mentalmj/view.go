package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/mentalmj/mentalmj/ui/viewer"
	"github.com/mentalmj/mentalmj/ui/web"
)

var viewCommand = command{name: "view", summary: "replay a game record in the browser (transcript, mjlog, tenhou.net/6 JSON, mjai)", run: runView}

const viewUsage = `view [--no-open] [--port N] [--kyoku K] [--step A] [--check] FILE

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

An mjai dahai without the optional tsumogiri field, of the tile the
player just drew, is taken as that tile (in riichi it must be; otherwise
the record cannot tell it from another copy in the hand, and the drawn
one is shown).

Exit status: 0 when Ctrl-C stops the server, or after --check; 2 bad
usage, a --port that cannot be bound, or a file that cannot be shown (it
says what the file looks like), a record cut short inside a kyoku among
them (it names the kyoku, the phase it stops in and, for an mjai log, the
line).`

func runView(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("view", viewUsage, stderr)
	noOpen := fs.Bool("no-open", false, "only print the page's URL; do not open the browser")
	port := fs.Int("port", 0, "TCP port on 127.0.0.1 (0: a free one)")
	kyoku := fs.Int("kyoku", -1, "open at this kyoku (index from 0, as in the URL's k=; -1: the first, at its deal)")
	step := fs.Int("step", 0, "open at this step of --kyoku's kyoku, or of the first (0: the deal; as in the URL's a=)")
	check := fs.Bool("check", false, "read the record, print its kyoku and their verification, and exit without serving")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return usageError(fs, stderr, "give one record file (got %d arguments)", fs.NArg())
	}
	if *kyoku < 0 && *step != 0 {
		*kyoku = 0 // --step alone: a step of the first kyoku
	}
	if *port < 0 || *port > 65535 {
		return usageError(fs, stderr, "--port %d: want 0..65535", *port)
	}
	if info, err := os.Stat(fs.Arg(0)); err == nil && info.Size() > 1<<20 {
		// A transcript is audited first: every proof is checked again.
		fmt.Fprintf(stderr, "reading %s (%d MiB)…\n", fs.Arg(0), info.Size()>>20)
	}
	rec, err := viewer.Load(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj view: %v\n", err)
		return 2
	}
	if *check {
		viewer.WriteSummary(stdout, rec)
		return 0
	}
	srv, err := viewer.Listen(rec, *port, nil)
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj view: %v\n", err)
		return 2
	}
	url := srv.URL(*kyoku, *step)
	fmt.Fprintf(stdout, "replay of %s (%s, %d kyoku): %s\n(served on 127.0.0.1 only; the token in the URL is the key; Ctrl-C to stop)\n", fs.Arg(0), rec.Format, len(rec.Kyoku), url)
	if !*noOpen {
		if err := web.OpenBrowser(ctx, url); err != nil {
			fmt.Fprintf(stdout, "could not open a browser (%v); open the URL above yourself\n", err)
		}
	}
	if err := srv.Serve(ctx); err != nil {
		fmt.Fprintf(stderr, "mentalmj view: %v\n", err)
		return 2
	}
	return 0
}
