package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/multiformats/go-multiaddr"

	"github.com/mentalmj/mentalmj/node"
)

// listFlag collects a repeatable string flag such as --peer.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// newFlagSet returns a FlagSet that reports errors to stderr with the
// command's usage, and does not exit the process.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("mentalmj "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: mentalmj %s\n\n", usage)
		visible := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
		visible.SetOutput(stderr)
		fs.VisitAll(func(f *flag.Flag) {
			if f.Usage != aliasUsage {
				visible.Var(f.Value, f.Name, f.Usage)
				visible.Lookup(f.Name).DefValue = f.DefValue
			}
		})
		visible.PrintDefaults()
	}
	return fs
}

// aliasUsage is the usage text of a flag kept as an old name of another
// (local --dir for --data-dir): it works, and usage leaves it out.
const aliasUsage = "(old name)"

// parseFlags parses args; it returns (code, false) when the command should
// exit: 0 for -h, 2 for a bad flag (the flag package already printed why).
func parseFlags(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0, false
		}
		return 2, false
	}
	return 0, true
}

// defaultListen is where a node listens without --listen: TCP and QUIC on
// port 4001 of every interface.
func defaultListen() listFlag {
	return listFlag{"/ip4/0.0.0.0/tcp/4001", "/ip4/0.0.0.0/udp/4001/quic-v1"}
}

// parseListen parses the --listen values (defaultListen when there are
// none). On a bad one it prints a usage error naming it and returns
// ok = false with exit code 2.
func parseListen(fs *flag.FlagSet, stderr io.Writer, listen listFlag) (addrs []multiaddr.Multiaddr, code int, ok bool) {
	if len(listen) == 0 {
		listen = defaultListen()
	}
	for _, s := range listen {
		a, err := node.ParseListen(s)
		if err != nil {
			return nil, usageError(fs, stderr, "--listen: %v", err), false
		}
		addrs = append(addrs, a)
	}
	return addrs, 0, true
}

// newLogger returns a text logger on stderr: warnings, or everything with
// verbose (-v).
func newLogger(stderr io.Writer, verbose bool) *slog.Logger {
	level := slog.LevelWarn
	if verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
}

// usageError prints a one-line error naming the flag or argument, then
// the usage, and returns exit code 2.
func usageError(fs *flag.FlagSet, stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "%s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.Usage()
	return 2
}
