package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/mentalmj/mentalmj/internal/tablerun"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/record/tenhou6"
)

var tenhouJSONCommand = command{name: "json", summary: "convert an mjlog to tenhou.net/6 JSON (mjai-reviewer, NAGA, the tenhou.net/6 viewer)", run: runTenhouJSON}

const tenhouJSONHelp = `Usage: mentalmj tenhou json LOG [--out FILE]

Converts one mjlog (a Tenhou log or a mentalmj game record, plain or gzip)
to tenhou.net/6 JSON, the format mjai-reviewer (Mortal, akochan), NAGA and
the tenhou.net/6 viewer read, as Tenhou itself serves it for the same game
(see package tenhou6). Three-player logs keep Tenhou's four-seat layout.

Output goes to stdout, or to FILE with --out. Open it with:

  mjai-reviewer -e mortal -i FILE -a SEAT      (SEAT 0..3, 0 = first East)
  https://tenhou.net/6/#json=<the JSON, URL-encoded>

Exit status: 0 converted; 2 bad usage, or a log that cannot be read or
converted (the message names the file, the kyoku, the tag and its line).
`

func runTenhouJSON(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("json", flag.ContinueOnError)
	out := fs.String("out", "", "write the JSON to this file instead of stdout")
	usage := tenhouUsageFunc(fs, tenhouJSONHelp)
	pos, code, done := parseTenhouFlags(fs, args, usage, stdout, stderr)
	if done {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "mentalmj tenhou json: want exactly one LOG argument, got %d\n\n", len(pos))
		usage(stderr)
		return 2
	}
	g, err := mjlog.Read(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj tenhou json: %v\n", err)
		return 2
	}
	l, err := tenhou6.Convert(g)
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj tenhou json: %v\n", err)
		return 2
	}
	if err := writeOutput(*out, stdout, l.Encode); err != nil {
		fmt.Fprintf(stderr, "mentalmj tenhou json: --out: %v\n", err)
		return 2
	}
	return 0
}

// writeOutput writes with write to path (atomically: a temporary file
// renamed into place), or to stdout when path is "" or "-".
func writeOutput(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(stdout)
	}
	return tablerun.WriteFile(path, write)
}
