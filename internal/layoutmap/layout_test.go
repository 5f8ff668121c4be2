package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docs/layout.md is what the generator makes of the package docs as they
// are now: a package added, moved or re-documented without
// `go generate ./internal/layoutmap` fails here.
func TestLayoutIsCurrent(t *testing.T) {
	want, err := Generate("../..")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../docs/layout.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("docs/layout.md is stale: run go generate ./internal/layoutmap (first difference at byte %d)", firstDiff(got, want))
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// A tree written here, apart from the repository: every package with its
// synopsis under its top folder, tests, testdata and hidden directories
// left out, a command and a nested module marked; a package without a
// doc, or two package docs in one directory, is an error naming it.
func TestGenerate(t *testing.T) {
	root := t.TempDir()
	write := func(path, text string) {
		t.Helper()
		p := filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/x\n")
	write("a/doc.go", "// Package a is the first. It has more.\npackage a\n")
	write("a/a.go", "package a\n")
	write("a/b/doc.go", "// Package b does | pipes.\npackage b\n")
	write("a/b/b_test.go", "// Package b_test is a test and not listed.\npackage b_test\n")
	write("c/main.go", "// Command c runs.\npackage main\n")
	write("c/mod/go.mod", "module example.com/mod\n")
	write("c/mod/m.go", "// Package m is a module: x ≥ y with\n//\n//\tformula\npackage m\n")
	write("a/testdata/t.go", "package broken\n")
	write(".hidden/h.go", "package h\n")
	md, err := Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"## a\n\n| package | what it is |\n|---|---|\n| [`a`](../a) | Package a is the first. |\n| [`a/b`](../a/b) | Package b does \\| pipes. |\n",
		"## c\n\n| package | what it is |\n|---|---|\n| [`c`](../c) | Command c runs. (command) |\n| [`c/mod`](../c/mod) | Package m is a module: x ≥ y with … (a module of its own) |\n",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the map lacks\n%s\nit is:\n%s", want, md)
		}
	}
	for _, not := range []string{"b_test", "testdata", "hidden", "broken"} {
		if strings.Contains(string(md), not) {
			t.Errorf("the map lists %q:\n%s", not, md)
		}
	}

	write("d/d.go", "package d\n")
	if _, err := Generate(root); err == nil || !strings.Contains(err.Error(), "no package doc in d") {
		t.Errorf("a package without a doc: %v", err)
	}
	write("d/d.go", "// Package d one.\npackage d\n")
	write("d/e.go", "// Package d two.\npackage d\n")
	if _, err := Generate(root); err == nil || !strings.Contains(err.Error(), "2 files carry a package doc") {
		t.Errorf("two package docs: %v", err)
	}
}
