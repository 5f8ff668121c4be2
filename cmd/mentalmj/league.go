package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/stats/league"
	"github.com/mentalmj/mentalmj/ui/leaguepage"
	"github.com/mentalmj/mentalmj/ui/web"
)

func leagueCommand() *cobra.Command {
	var f leagueFlags
	cmd := leaf(leagueUsage, "standings from result certificates: games, points, Tenhou's R and dan", func(cmd *cobra.Command, args []string) int {
		return runLeague(cmd, args, f)
	})
	fs := cmd.Flags()
	fs.BoolVar(&f.asJSON, "json", false, "write the standings as JSON (keys listed above)")
	fs.BoolVar(&f.page, "ui", false, "serve the standings as a page on 127.0.0.1")
	fs.BoolVar(&f.noOpen, "no-open", false, "with --ui: print the page's URL instead of opening the browser")
	fs.IntVar(&f.port, "port", 0, "with --ui: TCP port on 127.0.0.1 (0 picks a free one)")
	addLang(cmd, &f.lang)
	fs.StringVar(&f.room, "room", "ippan", "Tenhou `ROOM` whose dan points four-player games earn: ippan, joukyuu, tokujou or houou")
	return cmd
}

const leagueUsage = `league [--json | --ui [--no-open] [--port N]] [--room ROOM] DIR|FILE...

Standings from result certificates: the .cert files every player of a
whole match keeps beside its records (DATA-DIR/games/NAME.cert), signed by
all the table's players (SPEC.md §23). A directory is searched for *.cert
files; a file named is read whatever its name. Every certificate is
verified; one that is forged (a signature that does not verify), partial
(a player's signature missing), malformed, or in conflict with another
(one game, two results: both are refused) is named on stderr and left
out. Copies of one certificate (each player's) count once.

Four- and three-player games are kept apart; players are keyed by peer
ID, shown with their latest nickname; games are taken in the order they
ended. Per player: games, placements, points (the certified game points,
uma and oka included), Tenhou's R (start 1500; change = adjustment ×
(placement base + (table average R − own R) / 40), base +30/+10/−10/−30,
three players +30/0/−30, adjustment 1 − 0.002 × games under 400 games,
0.2 after) and, four players only, Tenhou's dan and dan points in --room
(docs/league.md has the tables).

--json writes {"four_player": L, "three_player": L}, L null (no such
game) or {"games", "first", "last", "players": [P…]}, each P with name,
peer_id, games, placements, points, rate (R after the last game),
dan_points (null for three players) and dan.

The signatures prove that the games happened and who played them, not
that the identities are different people.

Exit status: 0 done; 1 a certificate refused (the standings of the
others are still written), or an error writing or serving; 2 bad usage
or a path that cannot be read.`

// leagueFlags are the options of "mentalmj league".
type leagueFlags struct {
	asJSON, page, noOpen bool
	port                 int
	room                 string
	lang                 string // --lang of the --ui page
}

func runLeague(cmd *cobra.Command, pos []string, f leagueFlags) int {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if len(pos) == 0 {
		return usageError(cmd, "want at least one DIR or FILE")
	}
	if f.asJSON && f.page {
		return usageError(cmd, "--json and --ui: choose one")
	}
	if code, ok := checkLang(cmd, f.lang); !ok {
		return code
	}
	room, err := league.ParseRoom(f.room)
	if err != nil {
		return usageError(cmd, "--room: %v", err)
	}
	games, err := league.Load(pos)
	code := 0
	if err != nil {
		var fe *league.FileError
		if !errors.As(err, &fe) {
			return fail(cmd, 2, "%v", err)
		}
		fmt.Fprintf(stderr, "mentalmj league: certificates refused:\n%v\n", err)
		code = 1
	}
	st := league.Compute(games, room)
	switch {
	case f.asJSON:
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(st)
	case f.page:
		if c := serveLeague(cmd, st, room, f); c != 0 {
			return c
		}
		return code
	default:
		err = league.WriteText(stdout, st, room)
	}
	if err != nil {
		return fail(cmd, 1, "%v", err)
	}
	return code
}

// serveLeague serves st as a page until cmd's context ends.
func serveLeague(cmd *cobra.Command, st league.Standings, room league.Room, f leagueFlags) int {
	ctx, stdout := cmd.Context(), cmd.OutOrStdout()
	page, err := web.ListenPage(leaguepage.Handler(st, room, f.lang), f.port)
	if err != nil {
		return fail(cmd, 2, "--ui: %v", err)
	}
	fmt.Fprintf(stdout, "league page: %s\n(Ctrl-C stops it)\n", page.URL())
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
