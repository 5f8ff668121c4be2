package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/mentalmj/mentalmj/node/invite"
	"github.com/mentalmj/mentalmj/protocol"
)

var versionCommand = command{
	name:    "version",
	summary: "print the program's, the protocol's and Go's versions",
	run:     runVersion,
}

// runVersion prints the module version (and the VCS revision the binary
// was built from, when the build recorded it), the protocol and invite
// versions, and the Go version, from runtime/debug.ReadBuildInfo.
func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "mentalmj version: takes no arguments, got %q\n", args[0])
		return 2
	}
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
	return 0
}
