package verdict

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/memnet"
)

// playGame plays one hand at a table of four in memory and returns each
// player's transcript as records, and the peer IDs.
func playGame(t *testing.T, nicks [4]string) ([4][]protocol.Record, []peer.ID) {
	t.Helper()
	net := memnet.New()
	var keys []crypto.PrivKey
	var ids []peer.ID
	for range 4 {
		k, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := peer.IDFromPrivateKey(k)
		keys, ids = append(keys, k), append(ids, id)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var bufs [4]bytes.Buffer
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range 4 {
		g, err := protocol.NewGame(protocol.Config{Table: "verdict-test", Identity: keys[i], Peers: ids, Nick: nicks[i], Hands: 1,
			Transport: net.Transport(ids[i]), Transcript: protocol.NewTranscript(&bufs[i]), Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { _, errs[i] = g.Run(ctx) })
	}
	wg.Wait()
	var out [4][]protocol.Record
	for i := range 4 {
		if errs[i] != nil {
			t.Fatalf("player %d: %v", i, errs[i])
		}
		recs, err := protocol.LoadRecords(bytes.NewReader(bufs[i].Bytes()), "t")
		if err != nil {
			t.Fatal(err)
		}
		out[i] = recs
	}
	return out, ids
}

func TestReportHonestGame(t *testing.T) {
	t.Parallel()
	recs, ids := playGame(t, [4]string{"alice", "bob", "carol", "dave"})
	var files []File
	for i, r := range recs {
		files = append(files, File{Name: "p" + string(rune('0'+i)) + ".mjt", Records: r})
	}
	r, err := Audit(files)
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK || r.Verdict != "verified" || r.ExitCode() != 0 || len(r.Blame) != 0 || len(r.Faults) != 0 {
		t.Fatalf("honest game: verdict %s, exit %d, blame %v, faults %v", r.Verdict, r.ExitCode(), r.Blame, r.Faults)
	}
	if len(r.Hands) != 1 || r.Hands[0].Audit != "wall verified" || len(r.Hands[0].Yama) != 136 || r.Hands[0].Result == "" {
		t.Fatalf("hand: %+v", r.Hands)
	}
	// Every player is named by its nickname and seat, with its peer ID.
	var text strings.Builder
	r.WriteText(&text)
	for i, nick := range []string{"alice", "bob", "carol", "dave"} {
		if !strings.Contains(text.String(), nick+" (seat ") || !strings.Contains(text.String(), ids[i].String()) {
			t.Errorf("report does not name %s with its seat and peer ID:\n%s", nick, text.String())
		}
	}
	// The owner of each transcript is found.
	for i, tr := range r.Transcripts {
		if tr.Owner != ids[i].String() {
			t.Errorf("transcript %d: owner %s, want %s", i, tr.Owner, ids[i])
		}
	}
}

// Transcripts of two different games are refused, not compared.
func TestReportRefusesDifferentGames(t *testing.T) {
	t.Parallel()
	a, _ := playGame(t, [4]string{"a", "b", "c", "d"})
	b, _ := playGame(t, [4]string{"a", "b", "c", "d"})
	_, err := Audit([]File{{Name: "one.mjt", Records: a[0]}, {Name: "two.mjt", Records: b[0]}})
	if !errors.Is(err, ErrDifferentGames) || !strings.Contains(err.Error(), "one.mjt") || !strings.Contains(err.Error(), "two.mjt") {
		t.Fatalf("err = %v, want ErrDifferentGames naming both files", err)
	}
}

// A transcript cut inside its first hand is unreadable (exit 2), blames
// no one, and says the hand was not audited.
func TestReportCutShort(t *testing.T) {
	t.Parallel()
	recs, _ := playGame(t, [4]string{"a", "b", "c", "d"})
	r, err := Audit([]File{{Name: "cut.mjt", Records: recs[2][:len(recs[2])/2], ReadErr: protocol.ErrCutShort}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != "unreadable" || r.ExitCode() != 2 || len(r.Blame) != 0 {
		t.Fatalf("verdict %s, exit %d, blame %v", r.Verdict, r.ExitCode(), r.Blame)
	}
	if len(r.Hands) != 1 || !strings.HasPrefix(r.Hands[0].Audit, "not audited") || r.Hands[0].Dice != nil && r.Hands[0].DoraIndicator >= 0 && r.Hands[0].Yama != nil {
		t.Fatalf("hand %+v", r.Hands)
	}
}
