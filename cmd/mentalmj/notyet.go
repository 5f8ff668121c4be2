package main

import (
	"context"
	"fmt"
	"io"
)

// notYet is a placeholder for commands under construction; it is removed
// once every command is implemented.
func notYet(name string) func(context.Context, []string, io.Writer, io.Writer) int {
	return func(_ context.Context, _ []string, _, stderr io.Writer) int {
		fmt.Fprintf(stderr, "mentalmj %s: not implemented yet\n", name)
		return 2
	}
}
