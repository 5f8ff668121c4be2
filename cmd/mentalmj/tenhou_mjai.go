package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/mentalmj/mentalmj/record/mjai"
	"github.com/mentalmj/mentalmj/record/mjlog"
)

var tenhouMjaiCommand = command{name: "mjai", summary: "convert an mjlog to mjai JSON Lines (the event stream of Mortal, akochan, mjai-manue)", run: runTenhouMjai}

const tenhouMjaiHelp = `Usage: mentalmj tenhou mjai LOG [--seat N] [--out FILE]

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

func runTenhouMjai(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mjai", flag.ContinueOnError)
	seat := fs.Int("seat", -1, "write seat N's view (0..3); default every tile")
	out := fs.String("out", "", "write to this file instead of stdout")
	usage := tenhouUsageFunc(fs, tenhouMjaiHelp)
	pos, code, done := parseTenhouFlags(fs, args, usage, stdout, stderr)
	if done {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "mentalmj tenhou mjai: want exactly one LOG argument, got %d\n\n", len(pos))
		usage(stderr)
		return 2
	}
	if *seat < -1 || *seat > 3 {
		fmt.Fprintf(stderr, "mentalmj tenhou mjai: --seat %d: want 0..3\n", *seat)
		return 2
	}
	g, err := mjlog.Read(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj tenhou mjai: %v\n", err)
		return 2
	}
	if *seat >= g.Go.Players() {
		fmt.Fprintf(stderr, "mentalmj tenhou mjai: --seat %d: the game has %d players\n", *seat, g.Go.Players())
		return 2
	}
	// Converted once to check it, then streamed.
	if err := mjai.WriteMjlog(io.Discard, g, *seat); err != nil {
		fmt.Fprintf(stderr, "mentalmj tenhou mjai: %v\n", err)
		return 2
	}
	if err := writeOutput(*out, stdout, func(w io.Writer) error { return mjai.WriteMjlog(w, g, *seat) }); err != nil {
		fmt.Fprintf(stderr, "mentalmj tenhou mjai: --out: %v\n", err)
		return 2
	}
	return 0
}
