package viewer

import (
	"os"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
)

// BenchmarkLoad reads a shared four-player hanchan (mjlog) and replays it
// through the rules engine, keeping every step: what `mentalmj view`
// does before it serves.
func BenchmarkLoad(b *testing.B) {
	data, err := tenhoucorpus.ReadFile(sharedLog(b, log4p))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Read(data, log4p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFrame draws the frame of a kyoku's last step (the longest:
// every step fed to the table model, then the end-of-hand screen): the
// server's work for one key press.
func BenchmarkFrame(b *testing.B) {
	rec, err := Load(sharedLog(b, log4p))
	if err != nil {
		b.Fatal(err)
	}
	steps := len(rec.Kyoku[0].Steps)
	for b.Loop() {
		rec.Frame(0, steps-1, AllOpen)
	}
	b.ReportMetric(float64(steps), "steps")
}

// BenchmarkLoadTranscript audits a one-hand transcript (every shuffle and
// rekey proof checked again) and replays it.
func BenchmarkLoadTranscript(b *testing.B) {
	data, err := os.ReadFile("testdata/hand.mjt")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Read(data, "hand.mjt"); err != nil {
			b.Fatal(err)
		}
	}
}
