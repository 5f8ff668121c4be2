// Command mentalmj is a peer-to-peer Mental Mahjong node and a verifier of
// published mahjong shuffles. Run "mentalmj help" for the commands.
//
// Each command is built in its own file (join.go, audit.go, …) by a
// function returning its cobra command; root.go assembles the tree, and
// cli.go runs it and maps its outcome to the exit code.
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
