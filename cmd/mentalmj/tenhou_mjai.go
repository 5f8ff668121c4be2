package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/record/mjai"
	"github.com/mentalmj/mentalmj/record/mjlog"
)

func tenhouMjaiCommand() *cobra.Command {
	var (
		seat int
		out  string
	)
	cmd := leaf(tenhouMjaiHelp, "convert an mjlog to mjai JSON Lines (the event stream of Mortal, akochan, mjai-manue)", func(cmd *cobra.Command, args []string) int {
		return runTenhouMjai(cmd, args, seat, out)
	})
	cmd.Flags().IntVar(&seat, "seat", -1, "write seat N's view (0..3); default every tile")
	cmd.Flags().StringVar(&out, "out", "", "write to this file instead of stdout")
	return cmd
}

const tenhouMjaiHelp = `mjai LOG [--seat N] [--out FILE]

Converts one mjlog (a Tenhou log or a mentalmj game record, plain or gzip)
to mjai JSON Lines: start_game, then per kyoku start_kyoku with tehais,
tsumo, dahai with tsumogiri, chi/pon/daiminkan/kakan/ankan with consumed,
dora, reach, reach_accepted, hora with deltas and ura_markers or ryukyoku
with deltas, end_kyoku; end_game last (see package mjai). Tiles are in mjai
notation (5mr for a red five, E S W N P F C for honours).

A three-player (sanma) log keeps four seats, as the three-player forks of
Mortal's libriichi read them: the fourth named "", with 0 points, 13 "?"
tiles and 0 deltas; kita is {"type":"nukidora","actor":A,"pai":"N"}
followed by A's replacement tsumo.

Without --seat every tile is shown. --seat N (0..3, 0 = the first East)
writes what seat N saw: start_game has "id": N, and the other players'
haipai and draws are "?".

Exit status: 0 converted; 2 bad usage, or a log that cannot be read or
converted (the message names the file, the kyoku, the tag and its line).
`

func runTenhouMjai(cmd *cobra.Command, pos []string, seat int, out string) int {
	if len(pos) != 1 {
		return usageError(cmd, "want exactly one LOG argument, got %d", len(pos))
	}
	if seat < -1 || seat > 3 {
		return usageError(cmd, "--seat %d: want 0..3", seat)
	}
	g, err := mjlog.Read(pos[0])
	if err != nil {
		return fail(cmd, 2, "%v", err)
	}
	if seat >= g.Go.Players() {
		return fail(cmd, 2, "--seat %d: the game has %d players", seat, g.Go.Players())
	}
	// Converted once to check it, then streamed.
	if err := mjai.WriteMjlog(io.Discard, g, seat); err != nil {
		return fail(cmd, 2, "%v", err)
	}
	if err := writeOutput(out, cmd.OutOrStdout(), func(w io.Writer) error { return mjai.WriteMjlog(w, g, seat) }); err != nil {
		return fail(cmd, 2, "--out: %v", err)
	}
	return 0
}
