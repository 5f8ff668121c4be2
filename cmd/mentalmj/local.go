package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/internal/latency"
	"github.com/mentalmj/mentalmj/internal/localgame"
	"github.com/mentalmj/mentalmj/riichi/rules"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
)

// localFlags are the options of "mentalmj local".
type localFlags struct {
	hands, players                           int
	tonpuu, noProofs, noPipeline, privateHds bool
	dir                                      string
	timeout, rtt, jitter                     time.Duration
	play, useUI, noOpen, verbose             bool
	timeControl, preset, proofs              string
	lang                                     string // --lang of player-0's table (--play, --ui)
	switches, mjaiBots                       listFlag
}

func localCommand() *cobra.Command {
	var f localFlags
	cmd := leaf(localUsage, "run four (or three: --players 3) bot nodes as processes on this machine", func(cmd *cobra.Command, args []string) int {
		return runLocal(cmd, args, f)
	})
	fs := cmd.Flags()
	fs.IntVar(&f.hands, "hands", 0, "number of hands to play; 0 plays a whole hanchan")
	fs.IntVar(&f.players, "players", 4, "number of players: 4, or 3 for three-player (sanma) rules")
	fs.BoolVar(&f.tonpuu, "tonpuu", false, "play an east-only match instead of a hanchan")
	fs.BoolVar(&f.noProofs, "no-proofs", false, "pass --no-proofs to the nodes: no zero-knowledge proofs of the shuffle and rekey passes")
	fs.StringVar(&f.proofs, "proofs", "", "pass --proofs to the nodes: the proof system, log (the default) or tw (the first release's Terelius–Wikström and Chaum–Pedersen arguments)")
	fs.BoolVar(&f.noPipeline, "no-pipeline", false, "pass --no-pipeline to the nodes: each hand runs its whole setup after the hand before (by default its passes are prepared during the hand before)")
	fs.BoolVar(&f.privateHds, "private-hands", false, "pass --private-hands to the nodes: only the keys the rules need are revealed at the end of a hand; each node's record is its own view")
	fs.StringVar(&f.dir, "data-dir", "", "directory for identities and transcripts (must be empty or absent; default a new temporary directory)")
	alias(fs, "data-dir", "dir")
	fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "per-message timeout passed to each node")
	fs.BoolVar(&f.play, "play", false, "play seat player-0 yourself on this terminal; the three others are bots")
	fs.BoolVar(&f.useUI, "ui", false, "serve player-0's table in the browser: with --play you play there, without it you watch player-0's bot")
	fs.BoolVar(&f.noOpen, "no-open", false, "with --ui, only print the table's URL; do not open the browser")
	addLang(cmd, &f.lang)
	fs.BoolVarP(&f.verbose, "verbose", "v", false, "pass -v to the nodes (protocol steps on stderr)")
	fs.StringVar(&f.timeControl, "time", timecontrol.Default.String(), "time control of your seat with --play, BASE+BANK seconds or off (see join --time); passed to every node")
	fs.StringVar(&f.preset, "rules", rules.Default().Preset, "house rules preset, passed to every node: "+strings.Join(rules.PresetNames(), ", "))
	fs.Var(&f.switches, "rule", "a house rule switch NAME=VALUE on top of --rules, repeatable, passed to every node")
	fs.DurationVar(&f.rtt, "rtt", 0, "emulated round-trip time between every two nodes (e.g. 100ms): their connections run through delaying relays in this process")
	fs.DurationVar(&f.jitter, "jitter", 0, "with --rtt, each one-way delay varies by up to ± this much (e.g. 20ms); bytes are never reordered")
	fs.Var(&f.mjaiBots, "mjai-bot", "N=COMMAND: an external mjai bot plays player-N (0..3, 0..2 with --players 3) instead of the built-in bot; repeatable (see join --mjai-bot)")
	choices(cmd, "rules", "preset", "presets", rules.PresetNames()...)
	choices(cmd, "rule", "switch", "switches", rules.Names()...)
	return cmd
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

func runLocal(cmd *cobra.Command, args []string, f localFlags) int {
	ctx, stdout, stderr := cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr()
	botCommands, err := parseMjaiBots(f.mjaiBots, f.play)
	if err != nil {
		return usageError(cmd, "--mjai-bot: %v", err)
	}
	if len(args) > 0 {
		return usageError(cmd, "unexpected argument %q", args[0])
	}
	if f.hands < 0 {
		return usageError(cmd, "--hands must be 0 (a whole hanchan) or more, got %d", f.hands)
	}
	if f.players != 3 && f.players != 4 {
		return usageError(cmd, "--players must be 3 or 4, got %d", f.players)
	}
	if code, ok := checkLang(cmd, f.lang); !ok {
		return code
	}
	if f.privateHds && f.noProofs {
		return usageError(cmd, "--private-hands needs the zero-knowledge proofs: it cannot be combined with --no-proofs")
	}
	if _, err := timecontrol.Parse(f.timeControl); err != nil {
		return usageError(cmd, "--time: %v", err)
	}
	if _, err := rules.Parse(f.preset, f.switches); err != nil {
		return usageError(cmd, "--rules, --rule: %v", err)
	}
	link, err := latency.FromRTT(f.rtt, f.jitter)
	if err != nil {
		return usageError(cmd, "--rtt/--jitter: %v", err)
	}
	for n := range botCommands {
		if n >= f.players {
			return usageError(cmd, "--mjai-bot %d=…: there are only players 0..%d", n, f.players-1)
		}
	}

	if f.dir == "" {
		d, err := os.MkdirTemp("", "mentalmj-local-")
		if err != nil {
			return fail(cmd, 2, "%v", err)
		}
		f.dir = d
	} else if entries, err := os.ReadDir(f.dir); err == nil && len(entries) > 0 {
		return usageError(cmd, "--data-dir %s is not empty; give a new directory", f.dir)
	}
	if err := os.MkdirAll(f.dir, 0o755); err != nil {
		return usageError(cmd, "--data-dir: %v", err)
	}
	fmt.Fprintf(stdout, "directory: %s\n", f.dir)
	self, err := os.Executable()
	if err != nil {
		return fail(cmd, 2, "cannot find own executable: %v", err)
	}

	if err := localgame.Run(ctx, localgame.Config{
		Executable: self, Dir: f.dir, Players: f.players, Hands: f.hands, Tonpuu: f.tonpuu,
		NoProofs: f.noProofs, PrivateHands: f.privateHds, NoPipeline: f.noPipeline, Proofs: f.proofs, Timeout: f.timeout,
		Play: f.play, UI: f.useUI, NoOpen: f.noOpen, Verbose: f.verbose, Lang: f.lang,
		Time: f.timeControl, Rules: f.preset, Switches: f.switches,
		Link: link, RTT: f.rtt, MjaiBots: botCommands,
	}, stdout, stderr); errors.Is(err, localgame.ErrFailed) {
		return 1
	} else if err != nil {
		return fail(cmd, 2, "%v", err)
	}
	return 0
}
