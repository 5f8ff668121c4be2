package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
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
		fs.PrintDefaults()
	}
	return fs
}

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

// usageError prints a one-line error naming the flag or argument, then
// the usage, and returns exit code 2.
func usageError(fs *flag.FlagSet, stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "%s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.Usage()
	return 2
}
