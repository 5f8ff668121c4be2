package main

import (
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// tenhouCommand reproduces and verifies Tenhou walls. Its subcommands are
// built each in its own tenhou_<name>.go file, listed here in help order.
func tenhouCommand() *cobra.Command {
	return group("tenhou", "reproduce and verify Tenhou walls and logs",
		"Reproduces Tenhou (tenhou.net) walls from the <SHUFFLE> seed of a log\nand verifies logs against them (docs/wall-layout.md).",
		tenhouVerifyCommand(),
		tenhouWallCommand(),
		tenhouSeatHashCommand(),
		tenhouReplayCommand(),
		tenhouJSONCommand(),
		tenhouMjaiCommand(),
	)
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
