package protocol

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/protocol/pb"

	"github.com/mentalmj/mentalmj/riichi/game"
)

// publicEntries plays n hands at a table of four and returns the public
// entries of player 0's transcript, in its order (what the host publishes
// to spectators, SPEC.md §25), and the offline audit of the whole
// transcript, private entries included: the independent truth.
func publicEntries(t *testing.T, n int) ([]*Opened, *TranscriptAudit, *table) {
	t.Helper()
	tb := newTable(t)
	for i, o := range tb.play(t, n, nil) {
		if o.err != nil {
			t.Fatalf("player %d: %v", i, o.err)
		}
	}
	recs, err := LoadRecords(bytes.NewReader(tb.transcripts[0].Bytes()), "player-0")
	if err != nil {
		t.Fatal(err)
	}
	var public []*Opened
	for _, r := range recs {
		o, err := Open(r.Envelope)
		if err != nil {
			t.Fatal(err)
		}
		if o.Recipient == "" {
			public = append(public, o)
		}
	}
	full := AuditTranscript(recs)
	if !full.OK() || len(full.Hands) != n {
		t.Fatalf("the full transcript does not audit clean: %d hands, blame %v, faults %v", len(full.Hands), full.Blame, full.Faults)
	}
	return public, full, tb
}

// follow feeds es to f; after every entry it checks that no concealed
// tile of any seat is known while the kyoku is played, and once a hand's
// keys are all revealed it reveals the audited wall and checks that every
// seat's hand is then known and the kyoku's result is the audit's.
func follow(t *testing.T, f *Follower, es []*Opened, full *TranscriptAudit) (revealed []int) {
	t.Helper()
	reveals := map[uint32]int{}
	for i, o := range es {
		if err := f.Feed(o); err != nil {
			t.Fatalf("entry %d (%s of hand %d): %v", i, o.Kind(), o.Entry.Hand, err)
		}
		ob := f.Observation()
		if v := ob.View; v != nil && v.Phase() != game.PhaseEnd && v.Phase() != game.PhaseDeclare {
			for s := range f.Players() {
				tiles, _ := v.Hand(game.Seat(s))
				for _, tile := range tiles {
					if tile != game.Unknown {
						t.Fatalf("entry %d, hand %d: seat %d's concealed %s is known to a spectator during play", i, ob.Hand, s, tile)
					}
				}
			}
		}
		if o.Entry.GetKeyReveal() == nil {
			continue
		}
		if reveals[o.Entry.Hand]++; reveals[o.Entry.Hand] < f.Players() {
			continue
		}
		n := int(o.Entry.Hand)
		a := full.Hands[n-1]
		if err := f.Reveal(n, a.Yama); err != nil {
			t.Fatalf("hand %d: %v", n, err)
		}
		ob = f.Observation()
		if ob.Hand != n || ob.View == nil {
			t.Fatalf("after hand %d's reveal the follower shows hand %d (view %v)", n, ob.Hand, ob.View != nil)
		}
		for s := range f.Players() {
			tiles, _ := ob.View.Hand(game.Seat(s))
			if len(tiles) == 0 || slices.Contains(tiles, game.Unknown) {
				t.Errorf("hand %d after the reveal: seat %d's hand %v is not all known", n, s, tiles)
			}
		}
		got, want := ob.View.Result(), a.Result
		if got == nil || want == nil || got.Scores != want.Scores || got.End != want.End {
			t.Errorf("hand %d: the follower's result %+v, the audit's %+v", n, got, want)
		}
		if d, _ := f.Deal(n); d.Scores != a.Deal.Scores || d.Round != a.Deal.Round || d.Honba != a.Deal.Honba || d.Oya != game.Seat(a.Oya) {
			t.Errorf("hand %d: the follower's match state %+v, the audit's %+v", n, d, a.Deal)
		}
		revealed = append(revealed, n)
	}
	return revealed
}

// TestFollowerShowsOnlyWhatIsPublic follows two hands from their public
// entries: no concealed tile is known during play, every hand is known
// after its reveal, and the results and match states are the offline
// audit's of the whole transcript.
func TestFollowerShowsOnlyWhatIsPublic(t *testing.T) {
	t.Parallel()
	es, full, _ := publicEntries(t, 2)
	f := NewFollower()
	if got := follow(t, f, es, full); !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("hands revealed %v, want [1 2]", got)
	}
	if !slices.Equal(f.Seats(), full.Seats) {
		t.Errorf("seats %v, the audit's %v", f.Seats(), full.Seats)
	}
}

// TestFollowerJoinsLate follows hand 3 only, with the Hellos and hand 1's
// nonces (which fix the seats), as a spectator that joined during hand 3
// gets them: it shows hand 3 from its start with the match state hands 1
// and 2 left (the audit's), and hand 3's result.
func TestFollowerJoinsLate(t *testing.T) {
	t.Parallel()
	es, full, _ := publicEntries(t, 3)
	var late []*Opened
	for _, o := range es {
		e := o.Entry
		if e.Hand == 0 || e.Hand == 1 && (e.GetNonceCommit() != nil || e.GetNonceReveal() != nil) || e.Hand >= 3 {
			late = append(late, o)
		}
	}
	f := NewFollower()
	if got := follow(t, f, late, full); !slices.Equal(got, []int{3}) {
		t.Fatalf("hands revealed %v, want [3]", got)
	}
}

// TestFollowerRefusesABadKey feeds a player's public release of the
// dora indicator's key, re-signed by that player with another player's
// key in it (a valid scalar, the wrong one): its commitment fails, Feed
// says so and names the hand, and the kyoku does not start.
func TestFollowerRefusesABadKey(t *testing.T) {
	t.Parallel()
	es, _, tb := publicEntries(t, 1)
	var releases []*Opened
	for _, o := range es {
		if o.Entry.GetKeyRelease() != nil {
			releases = append(releases, o)
		}
	}
	if len(releases) < 2 || releases[0].Sender == releases[1].Sender {
		t.Fatalf("no two public releases of the dora indicator: %d", len(releases))
	}
	f := NewFollower()
	for _, o := range es {
		if o != releases[0] {
			if err := f.Feed(o); err != nil {
				t.Fatal(err)
			}
			continue
		}
		bad := proto.Clone(o.Entry).(*pb.Entry)
		bad.GetKeyRelease().Keys = slices.Clone(releases[1].Entry.GetKeyRelease().Keys)
		forged, err := Seal(tb.keys[slices.Index(tb.ids, o.Sender)], bad)
		if err != nil {
			t.Fatal(err)
		}
		err = f.Feed(forged)
		if err == nil || !strings.Contains(err.Error(), "fails its commitment") || !strings.Contains(err.Error(), "hand 1") {
			t.Fatalf("a release with another player's key: %v", err)
		}
		break
	}
	if ob := f.Observation(); ob.View != nil {
		t.Error("the kyoku started on a bad dora key")
	}
}

// lateEntries keeps, of a game's public entries, what a spectator that
// joined during hand 2 gets (SPEC.md §25, the catch-up): the Hellos, hand
// 1's nonces and every entry of the hands from 2 on.
func lateEntries(es []*Opened) []Record {
	var recs []Record
	for _, o := range es {
		e := o.Entry
		if e.Hand == 0 || e.Hand == 1 && (e.GetNonceCommit() != nil || e.GetNonceReveal() != nil) || e.Hand >= 2 {
			recs = append(recs, Record{Index: len(recs) + 1, Envelope: o.Envelope})
		}
	}
	return recs
}

// TestAuditJoinedLate audits a late spectator's transcript: hand 2 alone
// is audited, clean, from the match state hand 1 left (the full audit's),
// to the same wall; without one of hand 1's nonce reveals the seats are
// unknown and the audit says so (a fault, not a blame).
func TestAuditJoinedLate(t *testing.T) {
	t.Parallel()
	es, full, _ := publicEntries(t, 2)
	recs := lateEntries(es)
	a := AuditTranscript(recs)
	if a.Joined != 2 || len(a.Hands) != 1 || !a.OK() {
		t.Fatalf("joined %d, %d hands, blame %v, faults %v", a.Joined, len(a.Hands), a.Blame, a.Faults)
	}
	h, want := a.Hands[0], full.Hands[1]
	if h.Hand != 2 || h.Deal.Scores != want.Deal.Scores || h.Deal.Round != want.Deal.Round || !slices.Equal(h.Yama, want.Yama) || !slices.Equal(a.Seats, full.Seats) {
		t.Errorf("hand %d from %+v (the full audit's: %+v), same wall %v, same seats %v", h.Hand, h.Deal, want.Deal, slices.Equal(h.Yama, want.Yama), slices.Equal(a.Seats, full.Seats))
	}
	var cut []Record
	dropped := false
	for _, r := range recs {
		o, _ := Open(r.Envelope)
		if !dropped && o.Entry.Hand == 1 && o.Entry.GetNonceReveal() != nil {
			dropped = true
			continue
		}
		r.Index = len(cut) + 1
		cut = append(cut, r)
	}
	b := AuditTranscript(cut)
	if b.OK() || len(b.Blame) > 0 || len(b.Faults) == 0 || !strings.Contains(b.Faults[0].Reason, "seats are unknown") {
		t.Errorf("without a nonce of hand 1: blame %v, faults %v", b.Blame, b.Faults)
	}
}
