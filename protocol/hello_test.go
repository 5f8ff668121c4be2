package protocol

import (
	"context"
	"strings"
	"testing"
)

// A Hello whose match length is neither "hanchan" nor "tonpuu" is a
// signed malformed message, blamed on its signer by every node (not a
// configuration mismatch: no table plays it).
func TestHelloUnknownLengthBlamed(t *testing.T) {
	tb := newTable(t)
	out := playThree(t, tb, func(ctx context.Context, tr Transport) {
		e := properHello(tb, "test")
		e.GetHello().Length = "tonpuusen"
		sendAll(ctx, t, tb, tr, tb.keys[3], e)
	})
	expectBlame(t, out, tb.ids[3], "invalid hello")
	for i, o := range out {
		if o.err == nil || !strings.Contains(o.err.Error(), `match length "tonpuusen"`) {
			t.Errorf("player %d: %v, want the match length named", i, o.err)
		}
	}
}

// The offline audit judges a Hello's length as the live nodes do: four
// Hellos that agree on an unknown length are not a game of some default
// length but a malformed message, blamed on the first Hello's signer with
// it as evidence.
func TestOfflineAuditBlamesUnknownLength(t *testing.T) {
	tb := newTable(t)
	var recs []Record
	for i, key := range tb.keys {
		e := properHello(tb, "test")
		e.Sender = []byte(tb.ids[i])
		e.GetHello().Length = "west"
		o, err := Seal(key, e)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, Record{Index: i + 1, Envelope: o.Envelope})
	}
	a := AuditTranscript(recs)
	if len(a.Blame) != 1 || a.Blame[0].Peer != tb.ids[0] || !strings.Contains(a.Blame[0].Reason, `match length "west"`) {
		t.Fatalf("blame %v, faults %v; want a blame of %s for the match length", a.Blame, a.Faults, tb.ids[0])
	}
	if ev := a.Blame[0].Evidence; len(ev) != 1 || ev[0].Kind != "hello" || ev[0].Sender != tb.ids[0] {
		t.Errorf("evidence %v, want the first hello", ev)
	}
}
