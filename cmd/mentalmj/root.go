package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// rootCommand returns the whole command tree, reading stdin and writing
// stdout and stderr.
func rootCommand(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var version bool
	root := &cobra.Command{
		Use:   "mentalmj",
		Short: "peer-to-peer Mental Mahjong and shuffle verification",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case version:
				return runVersionCommand(cmd, args)
			case len(args) == 0:
				writeHelp(cmd.ErrOrStderr(), cmd)
				return exitStatus(2)
			}
			return unknownCommand(cmd, args[0])
		},
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.Flags().BoolVar(&version, "version", false, "print the versions (as \"mentalmj version\")")
	root.AddCommand(
		idCommand(),
		joinCommand(),
		hostCommand(),
		localCommand(),
		relayCommand(),
		netcheckCommand(),
		auditCommand(),
		viewCommand(),
		labCommand(),
		tenhouCommand(),
		majsoulCommand(),
		sapikachuCommand(),
		rulesCommand(),
		scoreCommand(),
		statsCommand(),
		leagueCommand(),
		lobbyCommand(),
		watchCommand(),
		versionCommand(),
	)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	// cobra's completion command, made now (it keeps the stdout it finds)
	// to give it this help's shape.
	root.InitDefaultCompletionCmd()
	if c, _, err := root.Find([]string{"completion"}); err == nil && c != root {
		c.Short = "print a shell's completion script: completion bash|zsh|fish|powershell"
		c.Args, c.RunE = cobra.ArbitraryArgs, runGroup
	}
	root.SetHelpCommand(helpCommand())
	root.SetHelpFunc(func(cmd *cobra.Command, _ []string) { writeHelp(cmd.OutOrStdout(), cmd) })
	root.SetFlagErrorFunc(flagError)
	root.PersistentPreRunE = checkChoices
	return root
}

// helpCommand is "mentalmj help [COMMAND [SUBCOMMAND]]": the help of the
// command named, on stdout, the same as COMMAND -h.
func helpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND]",
		Short: "print the help of mentalmj or of a command (the same as COMMAND -h)",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			root := cmd.Root()
			target, rest, err := root.Find(args)
			switch {
			case err != nil:
				return &usageErr{err.Error()}
			case len(rest) > 0:
				return unknownCommand(target, rest[0])
			}
			writeHelp(cmd.OutOrStdout(), target)
			return nil
		},
		ValidArgsFunction: func(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			target, _, err := cmd.Root().Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []cobra.Completion
			for _, c := range target.Commands() {
				if c.IsAvailableCommand() {
					names = append(names, cobra.CompletionWithDesc(c.Name(), c.Short))
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
	}
}

// writeHelp writes cmd's help: its synopsis, description and subcommands
// or flags. Every command's help has this one shape.
func writeHelp(w io.Writer, cmd *cobra.Command) {
	if !cmd.HasParent() {
		fmt.Fprintf(w, "mentalmj: %s\n\nUsage:\n  mentalmj COMMAND [flags] [args]\n\nCommands:\n", cmd.Short)
		writeCommands(w, cmd)
		fmt.Fprintf(w, "\nRun \"mentalmj help COMMAND\" (or \"mentalmj COMMAND -h\") for a command's flags.\n")
		return
	}
	fmt.Fprintf(w, "Usage: %s %s\n", cmd.Parent().CommandPath(), cmd.Use)
	switch long := strings.TrimRight(cmd.Long, "\n"); {
	case strings.HasPrefix(long, " "):
		// The synopsis goes on ("  or: …", more flags): no blank line.
		fmt.Fprintf(w, "%s\n", long)
	case long != "":
		fmt.Fprintf(w, "\n%s\n", long)
	case cmd.Short != "":
		fmt.Fprintf(w, "\n%s.\n", upperFirst(cmd.Short))
	}
	if cmd.HasAvailableSubCommands() {
		fmt.Fprintf(w, "\nSubcommands:\n")
		writeCommands(w, cmd)
		fmt.Fprintf(w, "\nRun \"%s SUBCOMMAND\" for its flags.\n", helpCommandLine(cmd))
		return
	}
	cmd.InitDefaultHelpFlag()
	cmd.Flags().Lookup("help").Usage = "print this help"
	if flags := cmd.LocalNonPersistentFlags().FlagUsagesWrapped(helpWidth); flags != "" {
		fmt.Fprintf(w, "\nFlags:\n%s", flags)
	}
	if flags := cmd.InheritedFlags().FlagUsagesWrapped(helpWidth); flags != "" {
		fmt.Fprintf(w, "\nFlags of every command:\n%s", flags)
	}
	fmt.Fprintf(w, "\nFlags may come before or after the arguments.\n")
}

// writeCommands lists cmd's subcommands with their summaries.
func writeCommands(w io.Writer, cmd *cobra.Command) {
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() || c.Name() == "help" {
			fmt.Fprintf(w, "  %-10s %s\n", c.Name(), c.Short)
		}
	}
}

// upperFirst is s with its first letter upper-case.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// helpWidth is the width the flags' help is wrapped to.
const helpWidth = 100
