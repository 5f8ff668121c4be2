package replay

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mentalmj/mentalmj/mjlog"
)

// FileError is a log that could not be read or parsed.
type FileError struct {
	File  string `json:"file"`
	Error string `json:"error"`
}

// isLog reports whether a file name looks like an mjlog: *.xml or *.mjlog,
// optionally gzip-compressed (.gz).
func isLog(name string) bool {
	name = strings.TrimSuffix(name, ".gz")
	return strings.HasSuffix(name, ".xml") || strings.HasSuffix(name, ".mjlog")
}

// Files replays every log named by paths: a file is read as an mjlog
// (plain or gzip); a directory is searched recursively for *.xml and
// *.mjlog files (optionally .gz), in lexical order. Logs that cannot be
// read or parsed are listed in Result.Errors (naming the file) and the
// others are still replayed. The error is non-nil only when ctx is
// cancelled (ctx.Err()).
func Files(ctx context.Context, paths []string) (Result, error) {
	res := Result{Checks: map[string]int{}}
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			res.Errors = append(res.Errors, FileError{File: p, Error: err.Error()})
			continue
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				res.Errors = append(res.Errors, FileError{File: path, Error: err.Error()})
				return nil
			}
			if d.Type().IsRegular() && isLog(d.Name()) {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			res.Errors = append(res.Errors, FileError{File: p, Error: err.Error()})
		}
		slices.Sort(found)
		files = append(files, found...)
	}
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		g, err := mjlog.Read(f)
		if err != nil {
			res.Errors = append(res.Errors, FileError{File: f, Error: err.Error()})
			continue
		}
		res.Merge(Game(g))
	}
	return res, nil
}
