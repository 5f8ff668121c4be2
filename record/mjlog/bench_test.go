package mjlog

import (
	"bytes"
	"testing"
)

// BenchmarkParse parses every log of the corpus per iteration and reports the
// throughput in kyoku (rounds) per second and bytes per second.
func BenchmarkParse(b *testing.B) {
	games := loadCorpus(b)
	rounds, size := 0, 0
	for _, c := range games {
		rounds += len(c.game.Rounds)
		size += len(c.raw)
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		for _, c := range games {
			if _, err := Parse(bytes.NewReader(c.raw), c.path); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(rounds)*float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}

// BenchmarkWrite writes every log of the corpus per iteration.
func BenchmarkWrite(b *testing.B) {
	games := loadCorpus(b)
	size := 0
	for _, c := range games {
		size += len(c.raw)
	}
	b.SetBytes(int64(size))
	var buf bytes.Buffer
	b.ResetTimer()
	for b.Loop() {
		for _, c := range games {
			buf.Reset()
			if err := Write(&buf, c.game); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseXML parses every log of the corpus per iteration with the
// encoding/xml reader (the reference path), for comparison with
// BenchmarkParse.
func BenchmarkParseXML(b *testing.B) {
	games := loadCorpus(b)
	rounds, size := 0, 0
	for _, c := range games {
		rounds += len(c.game.Rounds)
		size += len(c.raw)
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		for _, c := range games {
			if _, err := parseXML(bytes.NewReader(c.raw), c.path, false); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(rounds)*float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}
