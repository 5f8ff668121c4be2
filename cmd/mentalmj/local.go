package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mentalmj/mentalmj/internal/latency"
	"github.com/mentalmj/mentalmj/internal/localgame"
	"github.com/mentalmj/mentalmj/riichi/rules"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
)

var localCommand = command{
	name:    "local",
	summary: "run four (or three: --players 3) bot nodes as processes on this machine",
	run:     runLocal,
}

const localUsage = `local [--players 3|4] [--hands N] [--data-dir DIR] [--play] [--mjai-bot N=COMMAND]... [--rtt 100ms [--jitter 20ms]]

Starts four "mentalmj join --bot" processes on 127.0.0.1 with fresh
identities; they play a whole hanchan of riichi mahjong under the mental
protocol (or --hands N hands). With --players 3 it starts three, who play
Tenhou's three-player rules (sanma: the 108-tile wall without 2m-8m, kita,
35000 start). It relays their progress, prints a line per hand (result,
scores, dealer, dora indicator, audit, time) and the final standings, and
exits 0 only if every node exits 0 and their audits agree.
Identities and transcripts go to DIR (default: a new temporary directory,
printed). It prints where each player sits once hand 1 has drawn the
seats. With --play you are player-0 and the three others are bots: you
play on this terminal, or in the browser with --ui (the page's URL is
printed; --no-open keeps the browser closed). --ui without --play shows
player-0's bot playing. --mjai-bot N=COMMAND (repeatable) seats an
external mjai bot (Mortal, akochan, mjai-manue…) as player-N instead of
the built-in bot; see "mentalmj join -h". The game is also written as
tenhou.net/6 JSON, with the command that reviews it and the viewer link
printed at the end. --rtt 100ms runs every connection between the nodes
through a relay inside this process that delays each direction by half
the round-trip time (--jitter 20ms: ± up to 20 ms, never reordering a
stream), to show how a table feels between players far apart.`

func runLocal(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("local", localUsage, stderr)
	hands := fs.Int("hands", 0, "number of hands to play; 0 plays a whole hanchan")
	nPlayers := fs.Int("players", 4, "number of players: 4, or 3 for three-player (sanma) rules")
	tonpuu := fs.Bool("tonpuu", false, "play an east-only match instead of a hanchan")
	noProofs := fs.Bool("no-proofs", false, "pass --no-proofs to the nodes: no zero-knowledge proofs of the shuffle and rekey passes")
	noPipeline := fs.Bool("no-pipeline", false, "pass --no-pipeline to the nodes: each hand runs its whole setup after the hand before (by default its passes are prepared during the hand before)")
	privateHands := fs.Bool("private-hands", false, "pass --private-hands to the nodes: only the keys the rules need are revealed at the end of a hand; each node's record is its own view")
	dir := fs.String("data-dir", "", "directory for identities and transcripts (must be empty or absent; default a new temporary directory)")
	fs.StringVar(dir, "dir", "", aliasUsage)
	timeout := fs.Duration("timeout", 30*time.Second, "per-message timeout passed to each node")
	play := fs.Bool("play", false, "play seat player-0 yourself on this terminal; the three others are bots")
	useUI := fs.Bool("ui", false, "serve player-0's table in the browser: with --play you play there, without it you watch player-0's bot")
	noOpen := fs.Bool("no-open", false, "with --ui, only print the table's URL; do not open the browser")
	verbose := fs.Bool("v", false, "pass -v to the nodes (protocol steps on stderr)")
	timeControl := fs.String("time", timecontrol.Default.String(), "time control of your seat with --play, BASE+BANK seconds or off (see join --time); passed to every node")
	preset := fs.String("rules", rules.Default().Preset, "house rules preset, passed to every node: "+strings.Join(rules.PresetNames(), ", "))
	var switches listFlag
	fs.Var(&switches, "rule", "a house rule switch NAME=VALUE on top of --rules, repeatable, passed to every node")
	rtt := fs.Duration("rtt", 0, "emulated round-trip time between every two nodes (e.g. 100ms): their connections run through delaying relays in this process")
	jitter := fs.Duration("jitter", 0, "with --rtt, each one-way delay varies by up to ± this much (e.g. 20ms); bytes are never reordered")
	var mjaiBots listFlag
	fs.Var(&mjaiBots, "mjai-bot", "N=COMMAND: an external mjai bot plays player-N (0..3, 0..2 with --players 3) instead of the built-in bot; repeatable (see join --mjai-bot)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	botCommands, err := parseMjaiBots(mjaiBots, *play)
	if err != nil {
		return usageError(fs, stderr, "--mjai-bot: %v", err)
	}
	if fs.NArg() > 0 {
		return usageError(fs, stderr, "unexpected argument %q", fs.Arg(0))
	}
	if *hands < 0 {
		return usageError(fs, stderr, "--hands must be 0 (a whole hanchan) or more, got %d", *hands)
	}
	if *nPlayers != 3 && *nPlayers != 4 {
		return usageError(fs, stderr, "--players must be 3 or 4, got %d", *nPlayers)
	}
	if *privateHands && *noProofs {
		return usageError(fs, stderr, "--private-hands needs the zero-knowledge proofs: it cannot be combined with --no-proofs")
	}
	if _, err := timecontrol.Parse(*timeControl); err != nil {
		return usageError(fs, stderr, "--time: %v", err)
	}
	if _, err := rules.Parse(*preset, switches); err != nil {
		return usageError(fs, stderr, "--rules, --rule: %v", err)
	}
	link, err := latency.FromRTT(*rtt, *jitter)
	if err != nil {
		return usageError(fs, stderr, "--rtt/--jitter: %v", err)
	}
	for n := range botCommands {
		if n >= *nPlayers {
			return usageError(fs, stderr, "--mjai-bot %d=…: there are only players 0..%d", n, *nPlayers-1)
		}
	}

	if *dir == "" {
		d, err := os.MkdirTemp("", "mentalmj-local-")
		if err != nil {
			fmt.Fprintf(stderr, "mentalmj local: %v\n", err)
			return 2
		}
		*dir = d
	} else if entries, err := os.ReadDir(*dir); err == nil && len(entries) > 0 {
		return usageError(fs, stderr, "--data-dir %s is not empty; give a new directory", *dir)
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return usageError(fs, stderr, "--data-dir: %v", err)
	}
	fmt.Fprintf(stdout, "directory: %s\n", *dir)
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj local: cannot find own executable: %v\n", err)
		return 2
	}

	if err := localgame.Run(ctx, localgame.Config{
		Executable: self, Dir: *dir, Players: *nPlayers, Hands: *hands, Tonpuu: *tonpuu,
		NoProofs: *noProofs, PrivateHands: *privateHands, NoPipeline: *noPipeline, Timeout: *timeout,
		Play: *play, UI: *useUI, NoOpen: *noOpen, Verbose: *verbose,
		Time: *timeControl, Rules: *preset, Switches: switches,
		Link: link, RTT: *rtt, MjaiBots: botCommands,
	}, stdout, stderr); errors.Is(err, localgame.ErrFailed) {
		return 1
	} else if err != nil {
		fmt.Fprintf(stderr, "mentalmj local: %v\n", err)
		return 2
	}
	return 0
}
