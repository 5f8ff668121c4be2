package protocol

import (
	"bytes"
	"slices"
	"testing"
)

// What a spectator could verify (issue 27): a player's transcript with
// every private entry (a key release to one drawer) left out — the
// entries every player broadcasts, which a spectator would be sent —
// still audits in whole offline: every hand's wall is recovered, equal
// to the one the player's full transcript gives, with no blame or fault.
// The end-of-hand key reveal publishes what the private releases held.
func TestPublicEntriesAudit(t *testing.T) {
	t.Parallel()
	tb, _ := sharedHonestGame(t)
	recs, err := LoadRecords(bytes.NewReader(tb.transcripts[0].Bytes()), "player-0")
	if err != nil {
		t.Fatal(err)
	}
	var public []Record
	for _, r := range recs {
		o, err := Open(r.Envelope)
		if err != nil {
			t.Fatal(err)
		}
		if o.Recipient == "" {
			r.Index = len(public)
			public = append(public, r)
		}
	}
	if len(public) == len(recs) {
		t.Fatal("the transcript holds no private entry to leave out")
	}
	full, pub := AuditTranscript(recs), AuditTranscript(public)
	if len(pub.Blame) > 0 || len(pub.Faults) > 0 || len(pub.Hands) != 2 {
		t.Fatalf("public entries only: %d hands, blame %v, faults %v", len(pub.Hands), pub.Blame, pub.Faults)
	}
	for i, h := range pub.Hands {
		if len(h.Blame) > 0 || len(h.Faults) > 0 || len(h.Yama) == 0 || !slices.Equal(h.Yama, full.Hands[i].Yama) {
			t.Errorf("hand %d: blame %v faults %v, wall %d tiles, equal to the full audit's: %v", h.Hand, h.Blame, h.Faults, len(h.Yama), slices.Equal(h.Yama, full.Hands[i].Yama))
		}
	}
}
