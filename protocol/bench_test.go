package protocol

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkHand plays whole hands between four in-process players on a
// memnet.Network (no network): seats and dice, 4 shuffle and 4 rekey passes,
// the deal of 53 tiles, the dora indicator, 70 tsumo and dahai, the key
// reveal and four audits. It reports the setup time (slowest player) and
// the tsumo latency percentiles over all draws.
func BenchmarkHand(b *testing.B) { benchHand(b, false) }

// BenchmarkHandNoProofs is BenchmarkHand with Config.NoProofs: no shuffle
// or rekey proofs, the passes replayed by the end-of-hand audit.
func BenchmarkHandNoProofs(b *testing.B) { benchHand(b, true) }

func benchHand(b *testing.B, noProofs bool) {
	tb := newTable(b)
	var setups, draws []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, buf := range tb.transcripts {
			buf.Reset()
		}
		out := tb.play(b, 1, func(_ int, c *Config) { c.NoProofs = noProofs })
		var slowest time.Duration
		for _, o := range out {
			if o.err != nil {
				b.Fatal(o.err)
			}
			slowest = max(slowest, o.results[0].Setup)
			draws = append(draws, o.results[0].DrawLatency...)
		}
		setups = append(setups, slowest)
	}
	b.ReportMetric(msAt(setups, 50), "setup-ms-median")
	b.ReportMetric(msAt(draws, 50), "tsumo-ms-median")
	b.ReportMetric(msAt(draws, 99), "tsumo-ms-p99")
}

// BenchmarkAuditHand measures the offline audit of a full hand played
// with proofs: decoding the passes and verifying 4 shuffle and 4 rekey
// proofs, decrypting the wall with the revealed keys and checking every
// event.
func BenchmarkAuditHand(b *testing.B) { benchAudit(b, false) }

// BenchmarkAuditHandNoProofs audits a hand played without proofs: the
// passes are replayed with the revealed keys.
func BenchmarkAuditHandNoProofs(b *testing.B) { benchAudit(b, true) }

func benchAudit(b *testing.B, noProofs bool) {
	tb := newTable(b)
	out := tb.play(b, 1, func(_ int, c *Config) { c.NoProofs = noProofs })
	if out[0].err != nil {
		b.Fatal(out[0].err)
	}
	recs, err := ReadRecords(tb.transcripts[0], "transcript")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if a := AuditTranscript(recs); !a.OK() {
			b.Fatal(a.Blame)
		}
	}
}

// msAt returns the p-th percentile (nearest rank) of ds in milliseconds.
func msAt(ds []time.Duration, p float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := min(max(int(p/100*float64(len(s))+0.5)-1, 0), len(s)-1)
	return float64(s[i].Microseconds()) / 1000
}
