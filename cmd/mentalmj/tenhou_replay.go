package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/riichi/replay"
)

func tenhouReplayCommand() *cobra.Command {
	var asJSON, quiet bool
	cmd := leaf(tenhouReplayHelp, "replay Tenhou logs through the rules engine and check every result", func(cmd *cobra.Command, args []string) int {
		return runTenhouReplay(cmd, args, asJSON, quiet)
	})
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document instead of text")
	cmd.Flags().BoolVar(&quiet, "quiet", false, "print only mismatches, errors and the totals")
	return cmd
}

const tenhouReplayHelp = `replay [--json] [--quiet] PATH...

Plays every log, four- or three-player (sanma: kita, tsumo loss, 200 per
honba, 2000-point tenpai payments, 35000/40000 with uma 20/0/-20), through
the riichi rules engine (riichi/game): every draw, discard, call, kita,
riichi and kan-dora must be legal and timed as the engine says; every AGARI
must reproduce its yaku (id and han), fu, points and score changes (sc=);
every RYUUKYOKU its kind, the hands shown and payments; and the last kyoku
the final scores and points (owari=). Draw tiles are taken from the log (no
seed needed). Logs under special rules (GO type bits above 0xFF: chip
games, custom lobby rules) are skipped, the reason naming each rule.

PATH is an mjlog file, or a directory searched recursively for *.xml and
*.mjlog (optionally .gz); files may be plain XML or gzip. A directory
holding no log is an error.

Output: every mismatch (file, round, tag, expected from the log, actual
from the engine), the logs skipped (with the rule the engine does not
play), the checks left out of replayed games (unchecked: e.g. the owari of
a private lobby; their rounds are counted), then totals per check kind;
--quiet prints only mismatches, errors and the totals. --json prints
instead {"games", "rounds", "sanma_games", "sanma_rounds", "agari",
"checks": {kind: n}, "mismatches":
[{"file", "round", "tag", "expected", "actual"}], "skipped": [{"file",
"reason"}], "unchecked": [{"file", "reason"}], "errors": [{"file",
"error"}]}.

Exit status: 0 every check matches; 1 some mismatch (this outranks 2);
2 bad usage or some input unreadable (the other files are still replayed).
`

func runTenhouReplay(cmd *cobra.Command, paths []string, asJSON, quiet bool) int {
	ctx, stdout, stderr := cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr()
	tuneGCForLogs()
	if len(paths) == 0 {
		return usageError(cmd, "no PATH given")
	}
	res, err := replay.Files(ctx, paths)
	if err != nil {
		return fail(cmd, 2, "%v", err)
	}
	// Empty lists print as [] rather than null.
	if res.Mismatches == nil {
		res.Mismatches = []replay.Mismatch{}
	}
	if res.Skipped == nil {
		res.Skipped = []replay.Skipped{}
	}
	if res.Errors == nil {
		res.Errors = []replay.FileError{}
	}
	if res.Unchecked == nil {
		res.Unchecked = []replay.Skipped{}
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return fail(cmd, 2, "%v", err)
		}
	} else {
		printReplay(stdout, stderr, res, quiet)
	}
	switch {
	case len(res.Mismatches) > 0:
		return 1
	case len(res.Errors) > 0:
		return 2
	}
	return 0
}

func printReplay(stdout, stderr io.Writer, res replay.Result, quiet bool) {
	for _, m := range res.Mismatches {
		fmt.Fprintf(stdout, "mismatch %s [%s] %s\n  expected (log):    %s\n  actual (engine):   %s\n", m.File, m.Round, m.Tag, m.Expected, m.Actual)
	}
	if !quiet {
		for _, s := range res.Skipped {
			fmt.Fprintf(stdout, "skipped  %s: %s\n", s.File, s.Reason)
		}
		for _, s := range res.Unchecked {
			fmt.Fprintf(stdout, "unchecked %s: %s\n", s.File, s.Reason)
		}
	}
	for _, e := range res.Errors {
		fmt.Fprintf(stderr, "error    %s: %s\n", e.File, e.Error)
	}
	fmt.Fprintf(stdout, "games %d (%d three-player), rounds %d (%d three-player), agari %d, mismatches %d, skipped %d, unchecked %d, unreadable %d\n",
		res.Games, res.SanmaGames, res.Rounds, res.SanmaRounds, res.Agari, len(res.Mismatches), len(res.Skipped), len(res.Unchecked), len(res.Errors))
	for _, k := range res.CheckKinds() {
		fmt.Fprintf(stdout, "  %-14s %d\n", k, res.Checks[k])
	}
}
