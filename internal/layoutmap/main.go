// Command layoutmap writes docs/layout.md, the map of the repository's
// packages: every directory that holds a Go package (its _test.go files
// aside), grouped by the folder at the top of the repository, each with
// the first sentence of its package documentation.
//
// The model: the package docs are the truth about what each package is,
// and the map is derived from them, never written by hand. Run by
// `go generate ./internal/layoutmap` (the //go:generate line below);
// TestLayoutIsCurrent builds the map in memory and fails when
// docs/layout.md differs, so a package added, moved or re-documented
// without regenerating is caught by `go test`. A package without a
// package doc is an error naming its directory: every package must say
// what it is. Directories named testdata, or starting with "." or "_", are
// skipped (as the go tool does); a directory with a go.mod of its own is
// listed and marked as a separate module.
package main

//go:generate go run . -root ../.. -out ../../docs/layout.md

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	root := flag.String("root", ".", "the repository's root (the directory holding go.mod)")
	out := flag.String("out", "docs/layout.md", "the file to write")
	flag.Parse()
	md, err := Generate(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "layoutmap:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, md, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "layoutmap:", err)
		os.Exit(1)
	}
}
