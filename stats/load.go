package stats

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"

	"github.com/mentalmj/mentalmj/record/mjlog"
)

// LoadOptions select the games Load adds and how it reads them.
type LoadOptions struct {
	// Since, when not 0, leaves out games whose Stamp (YYYYMMDD) is
	// earlier.
	Since int
	// Workers is the number of files read at once; 0 means GOMAXPROCS.
	Workers int
	// Bad is called, from Load's goroutine and in file order, for each
	// file that cannot be read; nil ignores them.
	Bad func(path string, err error)
	// Progress, when not nil, is called from Load's goroutine after each
	// file with the number of files done and the total.
	Progress func(done, total int)
}

// IsRecordName reports whether a file name is one a directory scan
// reads: an mjlog (*.xml, *.mjlog), tenhou.net/6 JSON (*.json) or a
// mentalmj transcript (*.mjt), each also gzip-compressed (.gz), in any
// letter case.
func IsRecordName(name string) bool {
	n := strings.TrimSuffix(strings.ToLower(name), ".gz")
	return mjlog.IsLogName(n) || strings.HasSuffix(n, ".json") || strings.HasSuffix(n, ".mjt")
}

// ErrNoRecords is reported by Find for a directory with no file named
// like a record (IsRecordName) anywhere below it.
var ErrNoRecords = errors.New("no game records (*.xml, *.mjlog, *.json, *.mjt, optionally .gz) in this directory")

// Find lists the records named by paths, in order: a file is taken as it
// is (whatever its name); a directory is searched recursively, in lexical
// order, for files satisfying IsRecordName. A path that cannot be read,
// and a directory holding no record (ErrNoRecords), is reported to bad
// with an error naming it, and the search goes on.
func Find(paths []string, bad func(path string, err error)) []string {
	return mjlog.FindNamed(paths, IsRecordName, ErrNoRecords, bad)
}

// Load reads files (ReadFile) with opt.Workers at once and adds their
// games to a new Set in file order. It returns the Set and the number of
// games left out by opt.Since, or ctx's error when ctx ends first.
func Load(ctx context.Context, files []string, opt LoadOptions) (*Set, int, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type result struct {
		g   *Game
		err error
	}
	results := make([]chan result, len(files))
	for i := range results {
		results[i] = make(chan result, 1)
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, max(len(files), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				g, err := ReadFile(files[i])
				results[i] <- result{g, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range files {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	defer wg.Wait()
	set := NewSet()
	older := 0
	for i := range files {
		var r result
		select {
		case r = <-results[i]:
		case <-ctx.Done():
			return nil, 0, ctx.Err()
		}
		switch {
		case r.err != nil:
			if opt.Bad != nil {
				opt.Bad(files[i], r.err)
			}
		case opt.Since != 0 && r.g.Stamp < opt.Since:
			older++
		default:
			set.Add(r.g)
		}
		if opt.Progress != nil {
			opt.Progress(i+1, len(files))
		}
	}
	return set, older, nil
}
