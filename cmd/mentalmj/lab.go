package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mentalmj/mentalmj/internal/lab"
	"github.com/mentalmj/mentalmj/internal/latency"
	"github.com/mentalmj/mentalmj/player/cheat"
	"github.com/mentalmj/mentalmj/riichi/rules"
)

var labCommand = command{
	name:    "lab",
	summary: "pit cheating nodes against honest ones and print who is caught, when",
	run:     runLab,
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

func runLab(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("lab", labUsage, stderr)
	asJSON := fs.Bool("json", false, `print the matrix as JSON: {"strategies": [{"strategy", "cheaters", "caught", "blamed", "faults", "false_blames", "runs", …}], "control": {…}}`)
	names := fs.String("strategies", "", "comma-separated strategies to run (default: all; see --list)")
	runs := fs.Int("runs", 1, "tables per strategy")
	dir := fs.String("dir", "", "directory for the tables' transcripts and logs (default: a new temporary directory, printed)")
	timeout := fs.Duration("timeout", 3*time.Second, "each node's per-message timeout: how long silence takes to be named")
	list := fs.Bool("list", false, "list the strategies and exit")
	coalition := fs.Bool("coalition", true, "also run two cheaters at one table")
	noPipeline := fs.Bool("no-pipeline", false, "run every table without the pipelined setup (join --no-pipeline); by default each hand's passes are prepared during the hand before")
	rtt := fs.Duration("rtt", 0, "emulated round-trip time between every two nodes of a table (e.g. 100ms)")
	jitter := fs.Duration("jitter", 0, "with --rtt, each one-way delay varies by up to ± this much (e.g. 60ms); bytes are never reordered")
	preset := fs.String("rules", "", "house rules preset of every node: "+strings.Join(rules.PresetNames(), ", ")+" (default tenhou)")
	var switches listFlag
	fs.Var(&switches, "rule", "a house rule switch NAME=VALUE on top of --rules for every node, repeatable")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if _, err := rules.Parse(*preset, switches); err != nil {
		return usageError(fs, stderr, "--rules/--rule: %v", err)
	}
	link, err := latency.FromRTT(*rtt, *jitter)
	if err != nil {
		return usageError(fs, stderr, "--rtt/--jitter: %v", err)
	}
	if *list {
		for _, s := range cheat.All() {
			fmt.Fprintf(stdout, "%-22s %-6s %-22s %s\n", s.Name, s.Expect, s.When, s.Doc)
		}
		return 0
	}
	if fs.NArg() > 0 {
		return usageError(fs, stderr, "unexpected argument %q", fs.Arg(0))
	}
	if *runs < 1 {
		return usageError(fs, stderr, "--runs must be 1 or more, got %d", *runs)
	}
	var strategies []cheat.Strategy
	if *names != "" {
		for _, n := range strings.Split(*names, ",") {
			s, err := cheat.Lookup(strings.TrimSpace(n))
			if err != nil {
				return usageError(fs, stderr, "--strategies: %v", err)
			}
			strategies = append(strategies, s)
		}
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "mentalmj-lab-")
		if err != nil {
			fmt.Fprintf(stderr, "mentalmj lab: %v\n", err)
			return 2
		}
		*dir = d
	} else if err := os.MkdirAll(*dir, 0o755); err != nil {
		return usageError(fs, stderr, "--dir: %v", err)
	}
	fmt.Fprintf(stderr, "mentalmj lab: tables in %s\n", *dir)
	bin, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj lab: cannot find own executable: %v\n", err)
		return 2
	}
	m, err := lab.Run(ctx, lab.Config{Binary: bin, Dir: *dir, Strategies: strategies, Coalition: *coalition && *names == "", Runs: *runs, Timeout: *timeout, Link: link, Progress: stderr, NoPipeline: *noPipeline, Rules: lab.Flags(*preset, switches)})
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj lab: %v\n", err)
		return 2
	}
	if *asJSON {
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
