package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/internal/lab"
	"github.com/mentalmj/mentalmj/internal/latency"
	"github.com/mentalmj/mentalmj/player/cheat"
	"github.com/mentalmj/mentalmj/riichi/rules"
)

// labFlags are the options of "mentalmj lab".
type labFlags struct {
	asJSON, list, coalition, noPipeline bool
	names, dir, preset                  string
	runs                                int
	timeout, rtt, jitter                time.Duration
	switches                            listFlag
}

func labCommand() *cobra.Command {
	var f labFlags
	cmd := leaf(labUsage, "pit cheating nodes against honest ones and print who is caught, when", func(cmd *cobra.Command, args []string) int {
		return runLab(cmd, args, f)
	})
	fs := cmd.Flags()
	fs.BoolVar(&f.asJSON, "json", false, `print the matrix as JSON: {"strategies": [{"strategy", "cheaters", "caught", "blamed", "faults", "false_blames", "runs", …}], "control": {…}}`)
	fs.StringVar(&f.names, "strategies", "", "comma-separated strategies to run (default: all; see --list)")
	fs.IntVar(&f.runs, "runs", 1, "tables per strategy")
	fs.StringVar(&f.dir, "dir", "", "directory for the tables' transcripts and logs (default: a new temporary directory, printed)")
	fs.DurationVar(&f.timeout, "timeout", 3*time.Second, "each node's per-message timeout: how long silence takes to be named")
	fs.BoolVar(&f.list, "list", false, "list the strategies and exit")
	fs.BoolVar(&f.coalition, "coalition", true, "also run two cheaters at one table")
	fs.BoolVar(&f.noPipeline, "no-pipeline", false, "run every table without the pipelined setup (join --no-pipeline); by default each hand's passes are prepared during the hand before")
	fs.DurationVar(&f.rtt, "rtt", 0, "emulated round-trip time between every two nodes of a table (e.g. 100ms)")
	fs.DurationVar(&f.jitter, "jitter", 0, "with --rtt, each one-way delay varies by up to ± this much (e.g. 60ms); bytes are never reordered")
	fs.StringVar(&f.preset, "rules", "", "house rules preset of every node: "+strings.Join(rules.PresetNames(), ", ")+" (default tenhou)")
	fs.Var(&f.switches, "rule", "a house rule switch NAME=VALUE on top of --rules for every node, repeatable")
	choices(cmd, "rules", "preset", "presets", rules.PresetNames()...)
	choices(cmd, "rule", "switch", "switches", rules.Names()...)
	return cmd
}

const labUsage = `lab [--json] [--strategies NAME,...] [--runs N] [--dir DIR] [--list] [--rtt 100ms [--jitter 60ms]] [--rules PRESET] [--rule NAME=VALUE ...]

Protocol research: runs tables of four "mentalmj join" processes on
127.0.0.1 in which player-1 cheats with a strategy of its own (two players
in the coalition run), plus an honest control table, and prints a matrix:
for each strategy the step at which an honest node or the offline audit of
the four transcripts caught the cheater (at once, end of hand, transcript
comparison, or not caught), the peers blamed, the faults raised, and how
many verdicts named an honest player (always 0, or the protocol is wrong).
The default matrix takes a few minutes. With --rtt (and --jitter) every
connection between two nodes of a table runs through a relay in this
process that delays each direction by half the round-trip time, ± the
jitter (see "mentalmj local -h"). --rules and --rule choose the house
rules of every node of every table, as for "mentalmj join" ("mentalmj
rules" lists them); the kuikae strategy cheats against the kuikae switch.
Exit status 0 when every cheater is named as its strategy expects and no
honest player is; 1 otherwise.`

func runLab(cmd *cobra.Command, args []string, f labFlags) int {
	ctx, stdout, stderr := cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr()
	if _, err := rules.Parse(f.preset, f.switches); err != nil {
		return usageError(cmd, "--rules/--rule: %v", err)
	}
	link, err := latency.FromRTT(f.rtt, f.jitter)
	if err != nil {
		return usageError(cmd, "--rtt/--jitter: %v", err)
	}
	if f.list {
		for _, s := range cheat.All() {
			fmt.Fprintf(stdout, "%-22s %-6s %-22s %s\n", s.Name, s.Expect, s.When, s.Doc)
		}
		return 0
	}
	if len(args) > 0 {
		return usageError(cmd, "unexpected argument %q", args[0])
	}
	if f.runs < 1 {
		return usageError(cmd, "--runs must be 1 or more, got %d", f.runs)
	}
	var strategies []cheat.Strategy
	if f.names != "" {
		for _, n := range strings.Split(f.names, ",") {
			s, err := cheat.Lookup(strings.TrimSpace(n))
			if err != nil {
				return usageError(cmd, "--strategies: %v", err)
			}
			strategies = append(strategies, s)
		}
	}
	if f.dir == "" {
		d, err := os.MkdirTemp("", "mentalmj-lab-")
		if err != nil {
			return fail(cmd, 2, "%v", err)
		}
		f.dir = d
	} else if err := os.MkdirAll(f.dir, 0o755); err != nil {
		return usageError(cmd, "--dir: %v", err)
	}
	fmt.Fprintf(stderr, "mentalmj lab: tables in %s\n", f.dir)
	bin, err := os.Executable()
	if err != nil {
		return fail(cmd, 2, "cannot find own executable: %v", err)
	}
	m, err := lab.Run(ctx, lab.Config{Binary: bin, Dir: f.dir, Strategies: strategies, Coalition: f.coalition && f.names == "", Runs: f.runs, Timeout: f.timeout, Link: link, Progress: stderr, NoPipeline: f.noPipeline, Rules: lab.Flags(f.preset, f.switches)})
	if err != nil {
		return fail(cmd, 2, "%v", err)
	}
	if f.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(m)
	} else {
		m.WriteText(stdout)
	}
	if !m.OK() {
		return 1
	}
	return 0
}
