package protocol

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strconv"
	"testing"
)

// A transcript of a one-hand game cut short — at every record boundary,
// and at 200 random byte offsets — is never read as anyone's cheat: the audit of
// what is left blames no one, and every fault it reports concerns the
// file (no peer), or the cut is reported by LoadRecords. -short cuts at
// about a tenth of the boundaries and 20 offsets.
func TestTruncatedTranscriptBlamesNoOne(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	out := tb.play(t, 1, nil)
	for i, o := range out {
		if o.err != nil {
			t.Fatalf("player %d: %v", i, o.err)
		}
	}
	data := tb.transcripts[1].Bytes()
	recs, err := ReadRecords(bytes.NewReader(data), "whole")
	if err != nil {
		t.Fatal(err)
	}
	if whole := AuditTranscript(recs); !whole.OK() {
		t.Fatalf("the whole transcript does not verify: blame %v, faults %v", whole.Blame, whole.Faults)
	}
	check := func(what string, a *TranscriptAudit) {
		t.Helper()
		if len(a.Blame) > 0 {
			t.Fatalf("%s: blamed %v", what, a.Blame)
		}
		for _, f := range a.Faults {
			if f.Peer != "" {
				t.Fatalf("%s: fault names peer %s: %v", what, f.Peer, f)
			}
		}
		if a.OK() {
			t.Fatalf("%s: a cut transcript verified as a whole game", what)
		}
	}
	// Every record boundary; in -short runs (each audit replays the whole
	// prefix, so all of them cost the square of the length) the first
	// ten, the last three and every 40th between.
	offsets := 200
	for n := 0; n < len(recs); n++ {
		if testing.Short() && n >= 10 && n < len(recs)-3 && n%40 != 0 {
			continue
		}
		check("cut after record "+strconv.Itoa(n), AuditTranscript(recs[:n]))
	}
	if testing.Short() {
		offsets = 10
	}
	// Random offsets, read as a file would be.
	r := rand.New(rand.NewPCG(1, 2))
	for range offsets {
		at := r.IntN(len(data))
		got, err := LoadRecords(bytes.NewReader(data[:at]), "cut")
		switch {
		case errors.Is(err, ErrNotTranscript):
			if at > 600 {
				t.Fatalf("cut at %d of %d: %v", at, len(data), err)
			}
			continue
		case err == nil && len(got) < len(recs) && !bytes.Equal(data[:at], recordBytes(recs[:len(got)])):
			t.Fatalf("cut at %d: no error though the bytes end inside a record", at)
		}
		check("cut at byte "+strconv.Itoa(at), AuditTranscript(got))
	}
}

// recordBytes frames recs as a transcript file does.
func recordBytes(recs []Record) []byte {
	var b bytes.Buffer
	tr := NewTranscript(&b)
	for _, r := range recs {
		tr.Append(&Opened{Envelope: r.Envelope})
	}
	return b.Bytes()
}
