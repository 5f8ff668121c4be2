package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/wall/tenhou"
)

// tenhouVerifyFlags are the options of "mentalmj tenhou verify".
type tenhouVerifyFlags struct {
	asJSON, quiet bool
	jobs          int
}

func tenhouVerifyCommand() *cobra.Command {
	var f tenhouVerifyFlags
	cmd := leaf(tenhouVerifyHelp, "check Tenhou logs against the walls their seed produces", func(cmd *cobra.Command, args []string) int {
		return runTenhouVerify(cmd, args, f)
	})
	cmd.Flags().BoolVar(&f.asJSON, "json", false, "print one JSON document instead of text")
	cmd.Flags().IntVar(&f.jobs, "jobs", runtime.GOMAXPROCS(0), "number of logs verified in parallel (output order is unchanged)")
	cmd.Flags().BoolVar(&f.quiet, "quiet", false, "print only mismatches, errors and the totals")
	return cmd
}

const tenhouVerifyHelp = `verify [--json] [--quiet] [--jobs N] PATH...

Regenerates every kyoku's wall from each log's <SHUFFLE> seed and checks the
log against it (docs/wall-layout.md): INIT dice and dora indicator, hai0..hai3 in
deal order, every draw including rinshan draws, every DORA tag, AGARI
doraHai/doraHaiUra, and the tile count at each exhaustive draw.

PATH is an mjlog file, or a directory searched recursively for *.xml and
*.mjlog (optionally .gz); files may be plain XML or gzip. Logs without a
<SHUFFLE> seed are reported as skipped (not passed); a directory holding no
log is an error.

Output: one line per file (ok, mismatch, skipped, error), each mismatch with
file, round, tag, expected and actual, then totals; --quiet leaves out the
ok and skipped lines. --json prints instead
{"games", "rounds", "checks": {kind: n}, "mismatches": [{"file", "round",
"tag", "expected", "actual"}], "skipped": [{"file", "reason"}],
"errors": [{"file", "error"}]}.

Exit status: 0 every checked log matches; 1 some log mismatches (this
outranks 2: it is the finding the command exists for); 2 bad usage or some
input unreadable or not a known seed variant (the other files are still
verified).
`

// progressMin is the number of files from which a progress bar is drawn
// (when stderr is a terminal).
const progressMin = 20

// verifySummary is the outcome over all files, also the --json document.
type verifySummary struct {
	Games      int               `json:"games"`
	Rounds     int               `json:"rounds"`
	Checks     map[string]int    `json:"checks"`
	Mismatches []tenhou.Mismatch `json:"mismatches"`
	Skipped    []skippedFile     `json:"skipped"`
	Errors     []fileError       `json:"errors"`
}

type skippedFile struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

type fileError struct {
	File  string `json:"file"`
	Error string `json:"error"`
}

func runTenhouVerify(cmd *cobra.Command, paths []string, opt tenhouVerifyFlags) int {
	ctx, stdout, stderr := cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr()
	tuneGCForLogs()
	if len(paths) == 0 {
		return usageError(cmd, "no PATH given")
	}
	if opt.jobs < 1 {
		return usageError(cmd, "--jobs %d: want at least 1", opt.jobs)
	}

	sum := verifySummary{Mismatches: []tenhou.Mismatch{}, Skipped: []skippedFile{}, Errors: []fileError{}}
	files := mjlog.Find(paths, func(path string, err error) {
		sum.Errors = append(sum.Errors, fileError{File: path, Error: err.Error()})
		if !opt.asJSON {
			fmt.Fprintf(stdout, "error    %s: %v\n", path, err)
		}
	})
	bar := newProgress(stderr, len(files))
	var checks tenhou.Counts
	outcomes := verifyFiles(ctx, files, opt.jobs)
	for i, f := range files {
		o, ok := <-outcomes[i]
		if !ok {
			bar.clear()
			return fail(cmd, 2, "interrupted after %d of %d files", i, len(files))
		}
		bar.clear()
		res, err := o.res, o.err
		switch {
		case err != nil:
			sum.Errors = append(sum.Errors, fileError{File: f, Error: err.Error()})
			if !opt.asJSON {
				fmt.Fprintf(stdout, "error    %s: %v\n", f, err)
			}
		case res.Skipped != "":
			sum.Skipped = append(sum.Skipped, skippedFile{File: f, Reason: res.Skipped})
			if !opt.asJSON && !opt.quiet {
				fmt.Fprintf(stdout, "skipped  %s: %s\n", f, res.Skipped)
			}
		default:
			sum.Games++
			sum.Rounds += res.Rounds
			checks.Add(res.Checks)
			sum.Mismatches = append(sum.Mismatches, res.Mismatches...)
			if opt.asJSON {
				break
			}
			if res.OK() {
				if opt.quiet {
					break
				}
				fmt.Fprintf(stdout, "ok       %s (%dp, %d rounds, %d checks)\n", f, res.Players, res.Rounds, res.Checks.Total())
				break
			}
			fmt.Fprintf(stdout, "mismatch %s (%d of %d checks)\n", f, len(res.Mismatches), res.Checks.Total())
			for _, m := range res.Mismatches {
				fmt.Fprintf(stdout, "  %s %s: expected %s, log has %s\n", m.Round, m.Tag, m.Expected, m.Actual)
			}
		}
		bar.update(i + 1)
	}
	bar.clear()
	sum.Checks = checks.Map()

	if opt.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sum); err != nil {
			return fail(cmd, 2, "%v", err)
		}
	} else {
		fmt.Fprintf(stdout, "\ngames %d verified, %d rounds; %d mismatches; %d skipped; %d errors\nchecks:", sum.Games, sum.Rounds, len(sum.Mismatches), len(sum.Skipped), len(sum.Errors))
		for k := range tenhou.NumCheckKinds {
			fmt.Fprintf(stdout, " %s=%d", k, checks[k])
		}
		fmt.Fprintln(stdout)
		for _, m := range sum.Mismatches {
			fmt.Fprintf(stdout, "MISMATCH %s\n", m)
		}
	}
	switch {
	case len(sum.Mismatches) > 0:
		return 1
	case len(sum.Errors) > 0:
		return 2
	}
	return 0
}

func verifyFile(path string) (tenhou.Result, error) {
	g, err := mjlog.Read(path)
	if err != nil {
		return tenhou.Result{}, err
	}
	return tenhou.Verify(g)
}

// outcome is the result of verifying one file.
type outcome struct {
	res tenhou.Result
	err error
}

// verifyFiles verifies files with the given number of worker goroutines.
// It returns one channel per file, in file order, that receives that file's
// outcome, or is closed without a value if ctx is cancelled first.
func verifyFiles(ctx context.Context, files []string, jobs int) []chan outcome {
	out := make([]chan outcome, len(files))
	for i := range out {
		out[i] = make(chan outcome, 1)
	}
	next := make(chan int)
	go func() {
		defer close(next)
		for i := range files {
			select {
			case next <- i:
			case <-ctx.Done():
				for _, c := range out[i:] {
					close(c)
				}
				return
			}
		}
	}()
	for range min(jobs, len(files)) {
		go func() {
			for i := range next {
				if ctx.Err() != nil {
					close(out[i])
					continue
				}
				res, err := verifyFile(files[i])
				out[i] <- outcome{res, err}
			}
		}()
	}
	return out
}

// progressBar draws a one-line bar on a terminal stderr; it is inert when
// stderr is not a terminal or there are few files.
type progressBar struct {
	w     io.Writer
	total int
	drawn bool
}

func newProgress(stderr io.Writer, total int) *progressBar {
	f, ok := stderr.(*os.File)
	if !ok || total < progressMin {
		return &progressBar{}
	}
	info, err := f.Stat()
	if err != nil || info.Mode()&os.ModeCharDevice == 0 {
		return &progressBar{}
	}
	return &progressBar{w: stderr, total: total}
}

func (p *progressBar) update(done int) {
	if p.w == nil {
		return
	}
	const width = 40
	n := done * width / p.total
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d", strings.Repeat("=", n), strings.Repeat(" ", width-n), done, p.total)
	p.drawn = true
}

// clear erases the bar so that a normal output line can be written.
func (p *progressBar) clear() {
	if p.w == nil || !p.drawn {
		return
	}
	fmt.Fprint(p.w, "\r\033[K")
	p.drawn = false
}
