package handcalc

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/internal/cputime"
	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
)

// reportCPU adds the hands per CPU-second (user + system time of the
// process, so per core on a shared machine) since cpu0.
func reportCPU(b *testing.B, hands int, cpu0 time.Duration) {
	if c := cputime.Now() - cpu0; cpu0 > 0 && c > 0 {
		b.ReportMetric(float64(hands)/c.Seconds(), "hands/cpu-s")
	}
}

// BenchmarkScoreLines measures the JSON path (decode a request line,
// score it, encode the result) over every <AGARI> of the shared Tenhou
// logs; ns/op is per hand.
func BenchmarkScoreLines(b *testing.B) {
	agari := loadAgari(b, tenhoucorpus.For(b))
	var in bytes.Buffer
	for _, a := range agari {
		in.Write(a.line)
		in.WriteByte('\n')
	}
	data := in.Bytes()
	b.ResetTimer()
	cpu0 := cputime.Now()
	hands := 0
	for b.Loop() {
		n, err := ScoreLines(context.Background(), bytes.NewReader(data), io.Discard)
		if err != nil || n.Wins != len(agari) {
			b.Fatalf("%+v %v", n, err)
		}
		hands += n.Lines
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(hands), "ns/hand")
	b.ReportMetric(float64(hands)/b.Elapsed().Seconds(), "hands/s")
	reportCPU(b, hands, cpu0)
}

// BenchmarkScore measures the package API (Score on a decoded Request)
// over the same hands; ns/op is per hand.
func BenchmarkScore(b *testing.B) {
	agari := loadAgari(b, tenhoucorpus.For(b))
	reqs := make([]Request, len(agari))
	for i, a := range agari {
		var err error
		if reqs[i], err = DecodeRequest(a.line); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	cpu0 := cputime.Now()
	for i := 0; b.Loop(); i++ {
		if _, err := Score(reqs[i%len(reqs)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
	reportCPU(b, b.N, cpu0)
}
