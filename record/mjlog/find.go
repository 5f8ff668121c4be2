package mjlog

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// IsLogName reports whether a file name looks like an mjlog: *.xml or
// *.mjlog, optionally gzip-compressed (.gz), in any letter case.
func IsLogName(name string) bool {
	n := strings.TrimSuffix(strings.ToLower(name), ".gz")
	return strings.HasSuffix(n, ".xml") || strings.HasSuffix(n, ".mjlog")
}

// Find lists the logs named by paths, in order: a file is taken as it is;
// a directory is searched recursively, in lexical order, for regular files
// (or links) whose names satisfy IsLogName. A path that cannot be read is
// reported to bad (with the error naming it) and the search goes on; so is
// a directory holding no log (ErrNoLogs): checking nothing is not a pass.
func Find(paths []string, bad func(path string, err error)) []string {
	return FindNamed(paths, IsLogName, ErrNoLogs, bad)
}

// FindNamed is Find with another test of a file name: a directory is
// searched for files whose names satisfy match, and one holding none is
// reported to bad with the error none.
func FindNamed(paths []string, match func(name string) bool, none error, bad func(path string, err error)) []string {
	var files []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			bad(p, err)
			continue
		}
		if !info.IsDir() {
			files = append(files, p)
			continue
		}
		before := len(files)
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				bad(path, err)
				return nil
			}
			if !d.IsDir() && match(d.Name()) {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			bad(p, err)
		} else if len(files) == before {
			bad(p, none)
		}
	}
	return files
}

// ErrNoLogs is reported by Find for a directory with no file named like an
// mjlog (*.xml, *.mjlog, optionally .gz) anywhere below it.
var ErrNoLogs = errors.New("no mjlog files (*.xml, *.mjlog, optionally .gz) in this directory")
