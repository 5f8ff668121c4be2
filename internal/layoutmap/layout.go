package main

import (
	"bytes"
	"fmt"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// A pkg is one directory holding a Go package.
type pkg struct {
	dir      string // slash-separated, relative to the root ("riichi/game")
	name     string // the package clause's name
	synopsis string // the first sentence of its package doc
	module   bool   // the directory has a go.mod of its own
}

// Generate returns docs/layout.md for the repository at root (the
// directory holding go.mod): a Markdown page with one section per
// top-level folder, in name order, and in it one table row per package
// directory, in path order: its path (linked, relative to docs/), and the
// first sentence of its package doc. It returns an error naming the
// directory of a package without a package doc, or of Go files that do not
// parse, or the error of reading root.
func Generate(root string) ([]byte, error) {
	pkgs, err := scan(root)
	if err != nil {
		return nil, err
	}
	return render(pkgs), nil
}

// scan walks root and returns every package directory, sorted by path.
func scan(root string) ([]pkg, error) {
	var pkgs []pkg
	var missing []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		k, ok, err := readPackage(p)
		if err != nil || !ok {
			return err
		}
		k.dir = filepath.ToSlash(rel)
		if k.synopsis == "" {
			missing = append(missing, k.dir)
			return nil
		}
		if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil && p != root {
			k.module = true
		}
		pkgs = append(pkgs, k)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("no package doc in %s: every package says what it is", strings.Join(missing, ", "))
	}
	slices.SortFunc(pkgs, func(a, b pkg) int { return strings.Compare(a.dir, b.dir) })
	return pkgs, nil
}

// readPackage reads the package clauses and doc comments of dir's Go
// files, leaving out tests; ok is false for a directory without one.
func readPackage(dir string) (k pkg, ok bool, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return pkg{}, false, err
	}
	fset := token.NewFileSet()
	var docs []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return pkg{}, false, err
		}
		if k.name == "" {
			k.name = f.Name.Name
		} else if k.name != f.Name.Name {
			return pkg{}, false, fmt.Errorf("%s: packages %s and %s in one directory", dir, k.name, f.Name.Name)
		}
		if f.Doc != nil {
			docs = append(docs, f.Doc.Text())
		}
		ok = true
	}
	if len(docs) > 1 {
		return pkg{}, false, fmt.Errorf("%s: %d files carry a package doc; keep one (doc.go)", dir, len(docs))
	}
	if len(docs) == 1 {
		k.synopsis = new(doc.Package).Synopsis(docs[0])
	}
	return k, ok, nil
}

// render writes the page.
func render(pkgs []pkg) []byte {
	var b bytes.Buffer
	b.WriteString(`# Layout

Every package of the repository, grouped by the folder at the top, with
the first sentence of its package documentation (` + "`go doc`" + ` gives the
rest). This page is generated from those docs by
` + "`go generate ./internal/layoutmap`" + `; do not edit it by hand (a test fails
when it is stale).
`)
	top := ""
	for _, k := range pkgs {
		t, _, _ := strings.Cut(k.dir, "/")
		if t != top {
			top = t
			fmt.Fprintf(&b, "\n## %s\n\n| package | what it is |\n|---|---|\n", t)
		}
		what := strings.ReplaceAll(k.synopsis, "|", `\|`)
		if !strings.HasSuffix(what, ".") {
			// The first sentence runs on into a formula or a list.
			what += " …"
		}
		if k.module {
			what += " (a module of its own)"
		}
		if k.name == "main" {
			what += " (command)"
		}
		fmt.Fprintf(&b, "| [`%s`](%s) | %s |\n", k.dir, path.Join("..", k.dir), what)
	}
	return b.Bytes()
}
