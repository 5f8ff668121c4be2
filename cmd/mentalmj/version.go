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

// writeVersion writes the versions of this binary (debug.ReadBuildInfo)
// to stdout.
func writeVersion(stdout io.Writer) {
	bi, _ := debug.ReadBuildInfo()
	writeBuildInfo(stdout, bi)
}

// writeBuildInfo writes the versions bi records (nil: none recorded):
//
//	mentalmj: github.com/mentalmj/mentalmj v1.0.0
//	revision: 0123…cdef (modified)
//	commit time: 2026-11-28T15:00:00Z
//	protocol: mentalmj/4
//	invite:   mmj1
//	go:       go1.26.8
//
// The module version is the tag go install or a release built (a
// pseudo-version or "(devel)" otherwise); the revision, "(modified)" (the
// tree had uncommitted changes) and the commit time are the VCS settings
// go build records (-buildvcs), left out when absent.
func writeBuildInfo(stdout io.Writer, bi *debug.BuildInfo) {
	module, goVersion := "(unknown)", runtime.Version()
	var revision, modified, commitTime string
	if bi != nil {
		module, goVersion = bi.Main.Path+" "+bi.Main.Version, bi.GoVersion
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.time":
				commitTime = s.Value
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
	if commitTime != "" {
		fmt.Fprintf(stdout, "commit time: %s\n", commitTime)
	}
	fmt.Fprintf(stdout, "protocol: %s\ninvite:   %s%d\ngo:       %s\n", protocol.Version, invite.Prefix, invite.Version, goVersion)
}
