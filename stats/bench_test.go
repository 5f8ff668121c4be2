package stats

import (
	"context"
	"os"
	"testing"
)

// BenchmarkScan scans every shared Tenhou log from memory per iteration
// and reports kyoku per second (run with -cpu 1 for one core).
func BenchmarkScan(b *testing.B) {
	files := corpusFiles(b)
	docs := make([][]byte, len(files))
	kyoku, size := 0, 0
	for i, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		docs[i] = d
		size += len(d)
		g, err := Scan(d, f)
		if err != nil {
			b.Fatal(err)
		}
		kyoku += g.Seats[0].Kyoku
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		for i, d := range docs {
			if _, err := Scan(d, files[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(kyoku)*float64(b.N)/b.Elapsed().Seconds(), "kyoku/s")
}

// BenchmarkLoad is what "mentalmj stats" does with the shared logs: read
// every file, scan it and add it to a Set, with one worker per core.
func BenchmarkLoad(b *testing.B) {
	files := corpusFiles(b)
	kyoku := 0
	for b.Loop() {
		set, _, err := Load(context.Background(), files, LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		kyoku = set.Four.Kyoku + set.Three.Kyoku
	}
	b.ReportMetric(float64(kyoku)*float64(b.N)/b.Elapsed().Seconds(), "kyoku/s")
}
