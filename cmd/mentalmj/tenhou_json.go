package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/internal/tablerun"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/record/tenhou6"
)

func tenhouJSONCommand() *cobra.Command {
	var out string
	cmd := leaf(tenhouJSONHelp, "convert an mjlog to tenhou.net/6 JSON (mjai-reviewer, NAGA, the tenhou.net/6 viewer)", func(cmd *cobra.Command, args []string) int {
		return runTenhouJSON(cmd, args, out)
	})
	cmd.Flags().StringVar(&out, "out", "", "write the JSON to this file instead of stdout")
	return cmd
}

const tenhouJSONHelp = `json LOG [--out FILE]

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

func runTenhouJSON(cmd *cobra.Command, pos []string, out string) int {
	if len(pos) != 1 {
		return usageError(cmd, "want exactly one LOG argument, got %d", len(pos))
	}
	g, err := mjlog.Read(pos[0])
	if err != nil {
		return fail(cmd, 2, "%v", err)
	}
	l, err := tenhou6.Convert(g)
	if err != nil {
		return fail(cmd, 2, "%v", err)
	}
	if err := writeOutput(out, cmd.OutOrStdout(), l.Encode); err != nil {
		return fail(cmd, 2, "--out: %v", err)
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
