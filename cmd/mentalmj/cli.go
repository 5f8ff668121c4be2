package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

// The command line is a tree of cobra commands (github.com/spf13/cobra)
// with pflag flags: flags may come before or after positional arguments,
// "--" ends them, -h/--help and "mentalmj help COMMAND" print the same
// help, and "mentalmj completion bash|zsh|fish" prints shell completion.
//
// A command's body returns its exit code: 0 success, 1 a failed check
// (audit, verification), 2 bad usage or unreadable input, 3 audit's
// faults only. A usage error prints one line naming what is wrong and
// one line pointing to "mentalmj help COMMAND", never the whole help.

// exitStatus is the error a command returns to exit with a nonzero code
// whose reason it has already printed.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// usageErr is a usage error found while parsing the command line (a bad
// flag or value, an unknown command): run prints it with the pointer to
// the command's help and exits 2.
type usageErr struct{ msg string }

func (e *usageErr) Error() string { return e.msg }

// run runs the command line args (without the program name) with os.Stdin
// as standard input, and returns the process exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runIO(ctx, args, os.Stdin, stdout, stderr)
}

// runIO is run with stdin given.
func runIO(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := rootCommand(stdin, stdout, stderr)
	root.SetArgs(longFlags(root, args))
	cmd, err := root.ExecuteContextC(ctx)
	var code exitStatus
	var usage *usageErr
	switch {
	case err == nil:
		return 0
	case errors.As(err, &code):
		return int(code)
	case errors.As(err, &usage):
		return usageError(cmd, "%s", usage.msg)
	}
	// cobra's own errors are about the command line too.
	return usageError(cmd, "%v", err)
}

// body is what a command does with its positional arguments (its flags
// are already parsed into the variables its constructor bound); it
// returns the exit code.
type body func(cmd *cobra.Command, args []string) int

// leaf returns a command with no subcommands. usage is its help text: the
// first line is the synopsis after "mentalmj" (starting with the command's
// name), the rest the description. The caller defines its flags on
// cmd.Flags().
func leaf(usage, summary string, do body) *cobra.Command {
	use, long, _ := strings.Cut(usage, "\n")
	return &cobra.Command{
		Use:   use,
		Short: summary,
		Long:  strings.TrimLeft(long, "\n"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if code := do(cmd, args); code != 0 {
				return exitStatus(code)
			}
			return nil
		},
	}
}

// group returns a command that only holds subcommands (tenhou, majsoul,
// sapikachu): alone it prints its help on stderr and exits 2; with an
// unknown subcommand it says so, with the nearest names.
func group(name, summary, long string, subs ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:   name + " SUBCOMMAND [flags] [args]",
		Short: summary,
		Long:  long,
		Args:  cobra.ArbitraryArgs,
		RunE:  runGroup,
	}
	cmd.AddCommand(subs...)
	return cmd
}

// runGroup runs a command that only holds subcommands, given none or an
// unknown one (see group).
func runGroup(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		writeHelp(cmd.ErrOrStderr(), cmd)
		return exitStatus(2)
	}
	return unknownCommand(cmd, args[0])
}

// unknownCommand is the usage error for a mistyped subcommand name of
// parent, with the names it resembles.
func unknownCommand(parent *cobra.Command, name string) error {
	what := "command"
	if parent.HasParent() {
		what = "subcommand"
	}
	msg := fmt.Sprintf("unknown %s %q", what, name)
	var names []string
	for _, c := range parent.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	if s := similar(name, names); len(s) > 0 {
		msg += fmt.Sprintf("; did you mean %s?", orList(s, ""))
	}
	return &usageErr{msg}
}

// usageError prints a usage error of cmd: "mentalmj CMD: MESSAGE" and a
// line pointing to the command's help, on cmd's stderr. It returns exit
// code 2.
func usageError(cmd *cobra.Command, format string, args ...any) int {
	w := cmd.ErrOrStderr()
	fmt.Fprintf(w, "%s: %s\n", cmd.CommandPath(), fmt.Sprintf(format, args...))
	if cmd.HasParent() {
		fmt.Fprintf(w, "Run '%s' for usage.\n", helpCommandLine(cmd))
	} else {
		fmt.Fprintf(w, "Run 'mentalmj help' for the commands.\n")
	}
	return 2
}

// helpCommandLine is the command line that prints cmd's help:
// "mentalmj help tenhou verify".
func helpCommandLine(cmd *cobra.Command) string {
	path := strings.Fields(cmd.CommandPath())
	return strings.Join(append([]string{path[0], "help"}, path[1:]...), " ")
}

// fail prints "mentalmj CMD: MESSAGE" on cmd's stderr, for an error that
// is not about the command line (a file that cannot be read, a network
// failure), and returns code.
func fail(cmd *cobra.Command, code int, format string, args ...any) int {
	fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s\n", cmd.CommandPath(), fmt.Sprintf(format, args...))
	return code
}

// orList is names quoted with prefix and joined with "or": "--table",
// "--table or --tables".
func orList(names []string, prefix string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = prefix + n
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
