package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// tenhouCommand reproduces and verifies Tenhou walls. It dispatches to the
// sub-subcommands listed by tenhouSubcommands, each a command value defined
// in its own tenhou_*.go file.
var tenhouCommand = command{name: "tenhou", summary: "reproduce and verify Tenhou walls and logs", run: runTenhou}

// tenhouSubcommands lists the "mentalmj tenhou" subcommands in help order.
// A new subcommand is a command var in its own tenhou_<name>.go file plus
// one entry here.
func tenhouSubcommands() []command {
	return []command{
		tenhouVerifyCommand,
		tenhouWallCommand,
		tenhouSeatHashCommand,
		tenhouReplayCommand,
		tenhouJSONCommand,
		tenhouMjaiCommand,
	}
}

func runTenhou(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return dispatch(ctx, "mentalmj tenhou", tenhouSubcommands(), tenhouUsage, args, stdout, stderr)
}

func tenhouUsage(w io.Writer) {
	fmt.Fprintf(w, "mentalmj tenhou: reproduce Tenhou (tenhou.net) walls from the <SHUFFLE> seed of a log\nand verify logs against them (docs/wall-layout.md).\n\nUsage:\n  mentalmj tenhou <subcommand> [flags] [args]\n\nSubcommands:\n")
	for _, c := range tenhouSubcommands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun \"mentalmj tenhou <subcommand> -h\" for its flags.\n")
}

// parseTenhouFlags parses args with fs, allowing flags after positional
// arguments ("verify logs/ --json"); "--" ends flag parsing. It returns the
// positional arguments. On -h it prints usage to stdout and returns
// done = true with code 0; on a bad flag it prints the error and usage to
// stderr and returns done = true with code 2.
func parseTenhouFlags(fs *flag.FlagSet, args []string, usage func(io.Writer), stdout, stderr io.Writer) (pos []string, code int, done bool) {
	return parseInterleaved("mentalmj tenhou", fs, args, usage, stdout, stderr)
}

// tenhouUsageFunc returns a usage printer that writes text and then fs's flag
// defaults.
func tenhouUsageFunc(fs *flag.FlagSet, text string) func(io.Writer) {
	return func(w io.Writer) {
		fmt.Fprint(w, text)
		fs.SetOutput(w)
		fmt.Fprintf(w, "\nFlags:\n")
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
}

// logGCPercent is the GOGC used by verify and replay unless the user sets
// GOGC: they allocate a parsed log at a time and drop it, so a larger heap
// goal (a few MB) saves most of the collector's work.
const logGCPercent = 400

// tuneGCForLogs applies logGCPercent when GOGC is not set.
func tuneGCForLogs() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(logGCPercent)
	}
}
