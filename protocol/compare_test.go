package protocol

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/protocol/pb"
)

func TestCompareTranscripts(t *testing.T) {
	t.Parallel()
	tb, _ := sharedHonestGame(t)
	var all [][]Record
	names := []string{"p0", "p1", "p2", "p3"}
	for _, buf := range tb.transcripts {
		recs, err := ReadRecords(bytes.NewReader(buf.Bytes()), "transcript")
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, recs)
	}
	if b := CompareTranscripts(names, all); len(b) != 0 {
		t.Fatalf("honest transcripts: %v", b)
	}
	// Player 2 "told" player 0 something else: in player 0's transcript,
	// replace one of player 2's broadcast entries by a different one with
	// the same sequence number, properly signed with player 2's key.
	for n, rec := range all[0] {
		o, _ := Open(rec.Envelope)
		if o.Sender != tb.ids[2] || o.Entry.GetNonceReveal() == nil {
			continue
		}
		e := proto.Clone(o.Entry).(*pb.Entry)
		e.GetNonceReveal().Nonce[0] ^= 1
		forged, err := Seal(tb.keys[2], e)
		if err != nil {
			t.Fatal(err)
		}
		all[0][n].Envelope = forged.Envelope
		break
	}
	b := CompareTranscripts(names, all)
	if len(b) == 0 || b[0].Peer != tb.ids[2] {
		t.Fatalf("equivocation not blamed on player 2: %v", b)
	}
}
