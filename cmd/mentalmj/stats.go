package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/stats"
	"github.com/mentalmj/mentalmj/ui/statspage"
	"github.com/mentalmj/mentalmj/ui/web"
)

func statsCommand() *cobra.Command {
	var f statsFlags
	cmd := leaf(statsUsage, "Tenhou-style statistics per player over game records", func(cmd *cobra.Command, args []string) int {
		return runStats(cmd, args, f)
	})
	fs := cmd.Flags()
	fs.BoolVar(&f.asJSON, "json", false, "write the figures as JSON (keys listed above)")
	fs.BoolVar(&f.page, "ui", false, "serve the figures as a page with charts on 127.0.0.1")
	fs.BoolVar(&f.noOpen, "no-open", false, "with --ui: print the page's URL instead of opening the browser")
	fs.IntVar(&f.port, "port", 0, "with --ui: TCP port on 127.0.0.1 (0 picks a free one)")
	addLang(cmd, &f.lang)
	fs.StringVar(&f.player, "player", "", "show only the player with this `NAME` (the whole set's row stays)")
	fs.StringVar(&f.since, "since", "", "only games dated `YYYY-MM-DD` or later (see above)")
	fs.BoolVar(&f.skipBad, "skip-bad", false, "leave out files that are not readable records (warn) instead of exit 2")
	return cmd
}

const statsUsage = `stats [--json | --ui [--no-open] [--port N]] [--player NAME] [--since YYYY-MM-DD] [--skip-bad] FILE|DIR...

Statistics per player name over game records, in any mix: Tenhou's mjlog
logs (plain or .gz), the records mentalmj writes — the tenhou.net/6 JSON
join and local write by default (DATA-DIR/games/*.json), the --mjlog
record (*.mjlog.xml; a private-hands view too) — and mentalmj transcripts
(.mjt: each is audited offline first, a few seconds per game, and one that
proves a cheat is refused). mjai logs are not read. A directory is
searched for *.xml, *.mjlog, *.json and *.mjt files (each optionally .gz);
a file named as FILE is read whatever its name. Four- and three-player
games are kept apart.

The same game read twice counts once: every player's copy of one game,
and its transcript, mjlog and JSON side by side. Records are the same game
when they agree on what all three formats record: the names, every kyoku's
round, honba, riichi sticks, dealer, start scores and dora indicator, every
result's winner, payer and score changes, and the final scores.

tenhou.net/6 JSON says less than an mjlog: who was tenpai at a nagashi
mangan is not in it (they count as not tenpai), and a game cut short is
recognised by everyone's final game points being 0 (as mentalmj writes
it: no final result).

Each figure is over the kyoku the player played:
  games        games with a final result (owari)
  kyoku        the number of hands dealt (INIT tags)
  1st..4th     placements from the final scores, with Tenhou's tie order:
               the earlier seat in the first hand ranks higher
  avg          average placement
  bust         bust rate: games that ended with the player below 0
  win          win rate: kyoku in which the player won (each winner of a
               double ron counts)
  tsumo        tsumo share: the share of the player's wins that were tsumo
  deal-in      deal-in rate: kyoku in which the player paid a ron, counted
               once for a double ron
  riichi       riichi rate: kyoku in which the player declared riichi
               (REACH step 1)
  call         call rate: kyoku with at least one chi, pon, daiminkan or
               kakan; ankan and kita do not count
  win-pts      average points of a win: the hand's value, the second number
               of Tenhou's AGARI ten
  dealin-pts   average points lost in a deal-in: the same number, over every
               ron the player paid, each winner of a double ron counted
  tenpai@draw  tenpai rate at exhaustive draws: over kyoku that ended in an
               exhaustive draw (nagashi mangan included), those in which the
               player was tenpai
A game without a final result (cut short) counts for the kyoku figures
only. "-" (null in JSON) is a figure with nothing to count yet.

--since keeps games dated that day or later: the date of the Tenhou log id
that starts the file name (2019020120gm-…: 2019-02-01, as Tenhou writes
it, Japan time), else the file's modification date (UTC).

--json writes {"four_player": T, "three_player": T}, T null (no game of
that kind, or none of the --player) or
{"games", "unfinished", "kyoku", "players": [P…], "all": P}, each P with
exactly the keys name, games, kyoku, placements (four counts; the fourth 0
in sanma), avg_placement, bust_rate, win_rate, tsumo_share, deal_in_rate,
riichi_rate, call_rate, avg_win_points, avg_deal_in_points,
draw_tenpai_rate (rates as fractions 0..1, points in real points).

--ui serves the same figures as a page with charts (a placement histogram
and each rate against the whole set's average) on 127.0.0.1 until
interrupted, and opens it in the browser (--no-open prints its URL).

Exit status: 0 done (also when --since leaves no game: "no games"); 1 an
error writing the figures or serving the page; 2 bad usage, a --player
in none of the games, a directory with no record, or a file that is not
a readable record (each is named with what it looks like: cut short, an
empty mjlog with no kyoku, JSON that is not tenhou.net/6, an mjai log…;
--skip-bad leaves them out).`

// statsFlags are the options of "mentalmj stats".
type statsFlags struct {
	asJSON, page, noOpen, skipBad bool
	port                          int
	player, since                 string
	lang                          string // --lang of the --ui page
}

func runStats(cmd *cobra.Command, pos []string, f statsFlags) int {
	ctx, stdout, stderr := cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr()
	if len(pos) == 0 {
		return usageError(cmd, "want at least one FILE or DIR")
	}
	if f.asJSON && f.page {
		return usageError(cmd, "--json and --ui: choose one")
	}
	if code, ok := checkLang(cmd, f.lang); !ok {
		return code
	}
	since := 0
	if f.since != "" {
		t, err := time.Parse("2006-01-02", f.since)
		if err != nil {
			return usageError(cmd, "--since %q: want a date YYYY-MM-DD", f.since)
		}
		since = t.Year()*10000 + int(t.Month())*100 + t.Day()
	}
	bad := 0
	bar := &progressBar{} // inert until the files are listed
	report := func(path string, err error) {
		bad++
		bar.clear()
		if !strings.Contains(err.Error(), path) {
			err = fmt.Errorf("%s: %w", path, err)
		}
		fmt.Fprintf(stderr, "mentalmj stats: %v\n", err)
	}
	files := stats.Find(pos, report)
	bar = newProgress(stderr, len(files))
	set, older, err := stats.Load(ctx, files, stats.LoadOptions{Since: since, Bad: report, Progress: func(done, _ int) { bar.update(done) }})
	bar.clear()
	if err != nil {
		return fail(cmd, 1, "%v", err)
	}
	if bad > 0 && !f.skipBad {
		fmt.Fprintf(stderr, "mentalmj stats: %d of the files cannot be read (above); fix or remove them, or pass --skip-bad to leave them out\n", bad)
		return 2
	}
	if set.Duplicates > 0 || older > 0 {
		line := fmt.Sprintf("%d records read, %d left out as copies of a game already counted", len(files)-bad, set.Duplicates)
		if f.since != "" {
			line += fmt.Sprintf(", %d dated before --since %s", older, f.since)
		}
		fmt.Fprintf(stderr, "mentalmj stats: %s\n", line)
	}
	if f.player != "" && set.Four.Player(f.player) == nil && set.Three.Player(f.player) == nil {
		fmt.Fprintf(stderr, "mentalmj stats: --player %q: no such player in these games (names are matched exactly)\n", f.player)
		return 2
	}
	r := set.Report(f.player)
	switch {
	case f.asJSON:
		err = r.WriteJSON(stdout)
	case f.page:
		return serveStats(cmd, r, f)
	default:
		err = r.WriteText(stdout)
	}
	if err != nil {
		return fail(cmd, 1, "%v", err)
	}
	return 0
}

// serveStats serves r as a page until cmd's context ends.
func serveStats(cmd *cobra.Command, r stats.Report, f statsFlags) int {
	ctx, stdout := cmd.Context(), cmd.OutOrStdout()
	page, err := web.ListenPage(statspage.Handler(r, f.lang), f.port)
	if err != nil {
		return fail(cmd, 2, "--ui: %v", err)
	}
	fmt.Fprintf(stdout, "statistics page: %s\n(Ctrl-C stops it)\n", page.URL())
	if !f.noOpen {
		if err := web.OpenBrowser(ctx, page.URL()); err != nil {
			fmt.Fprintf(stdout, "open the URL above in your browser (%v)\n", err)
		}
	}
	if err := page.Serve(ctx); err != nil {
		return fail(cmd, 1, "%v", err)
	}
	return 0
}
