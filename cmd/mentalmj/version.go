package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/node/invite"
	"github.com/mentalmj/mentalmj/protocol"
)

const versionUsage = `version

Prints the module version (and the VCS revision the binary was built from,
with "(modified)" when the working tree had uncommitted changes, when the
build recorded them), the protocol and invite versions, and the Go
version, from runtime/debug.ReadBuildInfo. "mentalmj --version" prints the
same.`

func versionCommand() *cobra.Command {
	return leaf(versionUsage, "print the program's, the protocol's and Go's versions", func(cmd *cobra.Command, args []string) int {
		if len(args) > 0 {
			return usageError(cmd, "takes no arguments, got %q", args[0])
		}
		writeVersion(cmd.OutOrStdout())
		return 0
	})
}

// runVersionCommand is mentalmj --version.
func runVersionCommand(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return &usageErr{fmt.Sprintf("--version takes no arguments, got %q", args[0])}
	}
	writeVersion(cmd.OutOrStdout())
	return nil
}

// writeVersion writes the versions to stdout.
func writeVersion(stdout io.Writer) {
	module, goVersion := "(unknown)", runtime.Version()
	var revision, modified string
	if bi, ok := debug.ReadBuildInfo(); ok {
		module, goVersion = bi.Main.Path+" "+bi.Main.Version, bi.GoVersion
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = " (modified)"
				}
			}
		}
	}
	fmt.Fprintf(stdout, "mentalmj: %s\n", module)
	if revision != "" {
		fmt.Fprintf(stdout, "revision: %s%s\n", revision, modified)
	}
	fmt.Fprintf(stdout, "protocol: %s\ninvite:   %s%d\ngo:       %s\n", protocol.Version, invite.Prefix, invite.Version, goVersion)
}
