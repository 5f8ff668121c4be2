// Command mentalmj is a peer-to-peer Mental Mahjong node and a verifier of
// published mahjong shuffles. Run "mentalmj help" for the commands.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// command is one subcommand of mentalmj. run returns the process exit code:
// 0 success, 1 a failed check (audit, verification), 2 bad usage or
// unreadable input.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		idCommand,
		joinCommand,
		hostCommand,
		localCommand,
		relayCommand,
		auditCommand,
		viewCommand,
		labCommand,
		tenhouCommand,
		majsoulCommand,
		sapikachuCommand,
		rulesCommand,
		scoreCommand,
		statsCommand,
		versionCommand,
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return dispatch(ctx, "mentalmj", commands(), usage, args, stdout, stderr)
}

// dispatch runs the command of cmds named by args[0] with the rest of
// args; "help" or -h prints usage to stdout (exit 0), no or an unknown
// command prints usage to stderr (exit 2).
func dispatch(ctx context.Context, prog string, cmds []command, usage func(io.Writer), args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			// help CMD: the command's own usage, on stdout.
			for _, c := range cmds {
				if c.name == args[1] {
					return c.run(ctx, []string{"-h"}, stdout, stdout)
				}
			}
			fmt.Fprintf(stderr, "%s: no command %q\n\n", prog, args[1])
			usage(stderr)
			return 2
		}
		usage(stdout)
		return 0
	case "--version", "-version":
		return runVersion(ctx, nil, stdout, stderr)
	}
	for _, c := range cmds {
		if c.name == args[0] {
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "%s: unknown command %q\n\n", prog, args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "mentalmj: peer-to-peer Mental Mahjong and shuffle verification\n\nUsage:\n  mentalmj <command> [flags] [args]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun \"mentalmj help <command>\" (or \"mentalmj <command> -h\") for a command's flags.\n")
}
