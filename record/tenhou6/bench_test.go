package tenhou6

import (
	"bytes"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/record/mjlog"
)

// BenchmarkConvertSharedLogs reads, converts and encodes every log of the corpus
// per iteration; the games/s metric is the target (≥ 1,000 on one
// core).
func BenchmarkConvertSharedLogs(b *testing.B) {
	files := tenhoucorpus.For(b).MustFiles(b)
	var data [][]byte
	for _, f := range files {
		d, err := tenhoucorpus.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, d)
	}
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		for i, d := range data {
			g, err := mjlog.Parse(bytes.NewReader(d), files[i])
			if err != nil {
				b.Fatal(err)
			}
			l, err := Convert(g)
			if err != nil {
				b.Fatal(err)
			}
			if err := l.Encode(io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(data))/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(b.N*len(data))/(cpuTime()-cpu0).Seconds(), "games/cpu-s")
}

// cpuTime returns the process's user and system CPU time so far: with
// -cpu 1 the games per CPU second is the one-core rate even when other
// processes share the machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
