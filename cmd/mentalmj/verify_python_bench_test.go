package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
)

// refcheckPy is the plain Python reference checker (stdlib only) that does
// the checks of tenhou verify.
const refcheckPy = "../../wall/tenhou/testdata/refcheck.py"

// BenchmarkVerifyVsPython runs, in one benchmark, the whole of `mentalmj
// tenhou verify --quiet --jobs 1` (a built binary, one worker) and the
// Python reference checker over the shared logs, alternately, and reports
// each one's wall and CPU time (user + system, from the child process) per
// run and their ratios. Both must report the 3250 rounds with no mismatch.
// Sub-benchmarks: the Python checker with genrand_int32 in Python as in
// mt19937ar.c (mt=python) and with the random module's C generator
// (mt=stdlib).
func BenchmarkVerifyVsPython(b *testing.B) {
	// The Python checker reads plain XML and its expected check count is
	// the whole corpus's.
	corpus, err := tenhoucorpus.Find()
	if err != nil || !corpus.Full {
		b.Skip("needs the whole corpus, ../shared/tenhou/logs beside the clone")
	}
	sharedLogs := corpus.Dir
	py, err := exec.LookPath("python3")
	if err != nil {
		b.Skip("python3 not found")
	}
	bin := filepath.Join(b.TempDir(), "mentalmj")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	run := func(b *testing.B, want string, name string, args ...string) (wall, cpu time.Duration) {
		b.Helper()
		cmd := exec.Command(name, args...)
		start := time.Now()
		out, err := cmd.Output()
		wall = time.Since(start)
		if err != nil {
			b.Fatalf("%s: %v\n%s", name, err, out)
		}
		if !strings.Contains(string(out), want) {
			b.Fatalf("%s: output lacks %q:\n%s", name, want, out)
		}
		return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	for _, mt := range []string{"python", "stdlib"} {
		b.Run("mt="+mt, func(b *testing.B) {
			var goWall, goCPU, pyWall, pyCPU time.Duration
			for b.Loop() {
				w, c := run(b, "games 342 verified, 3250 rounds; 0 mismatches", bin, "tenhou", "verify", "--quiet", "--jobs", "1", sharedLogs)
				goWall, goCPU = goWall+w, goCPU+c
				w, c = run(b, "games 342 rounds 3250 checks 162760 mismatches 0", py, refcheckPy, "--mt", mt, sharedLogs)
				pyWall, pyCPU = pyWall+w, pyCPU+c
			}
			n := float64(b.N)
			b.ReportMetric(goWall.Seconds()*1000/n, "go-wall-ms")
			b.ReportMetric(goCPU.Seconds()*1000/n, "go-cpu-ms")
			b.ReportMetric(pyWall.Seconds()*1000/n, "py-wall-ms")
			b.ReportMetric(pyCPU.Seconds()*1000/n, "py-cpu-ms")
			b.ReportMetric(pyWall.Seconds()/goWall.Seconds(), "ratio-wall")
			b.ReportMetric(pyCPU.Seconds()/goCPU.Seconds(), "ratio-cpu")
		})
	}
}
