package replay

import (
	"context"

	"github.com/mentalmj/mentalmj/record/mjlog"
)

// FileError is a log that could not be read or parsed.
type FileError struct {
	File  string `json:"file"`
	Error string `json:"error"`
}

// Files replays every log named by paths: a file is read as an mjlog
// (plain or gzip); a directory is searched recursively for *.xml and
// *.mjlog files (optionally .gz), in lexical order. Logs that cannot be
// read or parsed are listed in Result.Errors (naming the file) and the
// others are still replayed. The error is non-nil only when ctx is
// cancelled (ctx.Err()).
func Files(ctx context.Context, paths []string) (Result, error) {
	res := Result{Checks: map[string]int{}}
	files := mjlog.Find(paths, func(path string, err error) {
		res.Errors = append(res.Errors, FileError{File: path, Error: err.Error()})
	})
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
