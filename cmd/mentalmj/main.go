// Command mentalmj is a peer-to-peer Mental Mahjong node and a verifier of
// published mahjong shuffles. Run "mentalmj help" for the commands.
//
// Each command is built in its own file (join.go, audit.go, …) by a
// function returning its cobra command; root.go assembles the tree, and
// cli.go runs it and maps its outcome to the exit code.
//
// Adding a command: write NAME.go with a nameCommand function that builds
// it with leaf(usage, summary, body) — usage's first line is the synopsis
// after "mentalmj" (starting with the name), the rest the help text; body
// gets the positional arguments and returns the exit code — defines its
// flags on cmd.Flags() (choices for a flag whose values are names from a
// list: presets, switches, languages), and add it to rootCommand's list.
// A command with subcommands is a group. A flag every command shares goes
// on the root's PersistentFlags. A bad command line is
// usageError(cmd, …) (exit 2, one line and a pointer to the help), any
// other failure fail(cmd, code, …).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
