package spectate

import (
	"context"
	"crypto/rand"
	"log/slog"
	"slices"
	"strings"
	"testing"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	pubsubpb "github.com/libp2p/go-libp2p-pubsub/pb"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node/spectate/pb"
	"github.com/mentalmj/mentalmj/protocol"
	ppb "github.com/mentalmj/mentalmj/protocol/pb"
)

// The host's validator skips the checks only for its own publications:
// a message another peer delivers is checked in full, even when its
// gossipsub author is the host (a copy of the host's message forwarded
// by a spectator). A tampered entry and one signed by a stranger are
// rejected, naming the peer that delivered it; the same genuine entry is
// accepted with its opened form.
func TestValidatorChecksRemoteMessages(t *testing.T) {
	key := func() (crypto.PrivKey, peer.ID) {
		k, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := peer.IDFromPrivateKey(k)
		return k, id
	}
	hostKey, hostID := key()
	_, guest := key()
	strangerKey, stranger := key()
	_, spectatorID := key()
	var rejected []Rejection
	s := &session{table: "t", host: hostID, self: hostID, publisher: true, known: make(chan struct{}),
		opt: Options{Logger: discard(), OnReject: func(r Rejection) { rejected = append(rejected, r) }}}
	s.setPlayers([]peer.ID{hostID, guest})

	publish := func(k crypto.PrivKey, signer peer.ID, tamper bool) []byte {
		o, err := protocol.Seal(k, &ppb.Entry{Hand: 1, Seq: 3, Sender: []byte(signer), Body: &ppb.Entry_Turn{Turn: &ppb.Turn{}}})
		if err != nil {
			t.Fatal(err)
		}
		env := o.Envelope
		if tamper {
			env = append([]byte(nil), env...)
			env[len(env)-3] ^= 1 // in the signature
		}
		b, err := proto.Marshal(&pb.Published{Envelope: env, Index: 7})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	msg := func(data []byte, author, from peer.ID) *pubsub.Message {
		return &pubsub.Message{Message: &pubsubpb.Message{From: []byte(author), Data: data}, ReceivedFrom: from}
	}
	good := publish(hostKey, hostID, false)
	tampered := publish(hostKey, hostID, true)
	strangers := publish(strangerKey, stranger, false)

	for _, c := range []struct {
		name   string
		m      *pubsub.Message
		want   pubsub.ValidationResult
		reason string
	}{
		{"the host's own publication", msg(tampered, hostID, hostID), pubsub.ValidationAccept, ""},
		{"a genuine entry forwarded by a spectator", msg(good, hostID, spectatorID), pubsub.ValidationAccept, ""},
		{"a tampered entry forwarded by a spectator", msg(tampered, hostID, spectatorID), pubsub.ValidationReject, "entry 7 does not verify"},
		{"a stranger's entry forwarded by a spectator", msg(strangers, hostID, spectatorID), pubsub.ValidationReject, "not a player of the table"},
		{"a spectator's own publication", msg(good, spectatorID, spectatorID), pubsub.ValidationReject, "only the table's host"},
	} {
		rejected = nil
		if got := s.validate(context.Background(), c.m.ReceivedFrom, c.m); got != c.want {
			t.Errorf("%s: %v, want %v (rejections %v)", c.name, got, c.want, rejected)
			continue
		}
		if c.want == pubsub.ValidationReject {
			if len(rejected) != 1 || rejected[0].From != spectatorID || !strings.Contains(rejected[0].Reason, c.reason) {
				t.Errorf("%s: rejections %v, want one naming %s: %q", c.name, rejected, spectatorID, c.reason)
			}
		}
		if c.name == "a genuine entry forwarded by a spectator" {
			if ps, ok := c.m.ValidatorData.([]*published); !ok || len(ps) != 1 || ps[0].index != 7 || ps[0].entry.Sender != hostID {
				t.Errorf("%s: validator data %#v", c.name, c.m.ValidatorData)
			}
		}
	}
	// A spectator's node checks everything, the host's messages too.
	w := &session{table: "t", host: hostID, self: spectatorID, known: make(chan struct{}), opt: Options{Logger: discard()}}
	w.setPlayers([]peer.ID{hostID, guest})
	if got := w.validate(context.Background(), hostID, msg(tampered, hostID, hostID)); got != pubsub.ValidationReject {
		t.Errorf("a spectator took a tampered entry from the host: %v", got)
	}
}

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

// A burst of entries in one message (Published.more) is checked entry by
// entry: one altered entry among them rejects the message, naming its
// index; the genuine burst is accepted with every entry, numbered from
// the message's index.
func TestValidatorChecksEveryEntryOfABurst(t *testing.T) {
	k, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	hostID, _ := peer.IDFromPrivateKey(k)
	_, spectatorID := func() (crypto.PrivKey, peer.ID) {
		k, _, _ := crypto.GenerateEd25519Key(rand.Reader)
		id, _ := peer.IDFromPrivateKey(k)
		return k, id
	}()
	var envs [][]byte
	for seq := range 4 {
		o, err := protocol.Seal(k, &ppb.Entry{Hand: 1, Seq: uint64(seq), Sender: []byte(hostID), Body: &ppb.Entry_Turn{Turn: &ppb.Turn{}}})
		if err != nil {
			t.Fatal(err)
		}
		envs = append(envs, o.Envelope)
	}
	var rejected []Rejection
	s := &session{table: "t", host: hostID, self: spectatorID, known: make(chan struct{}),
		opt: Options{Logger: discard(), OnReject: func(r Rejection) { rejected = append(rejected, r) }}}
	s.setPlayers([]peer.ID{hostID})
	msg := func(more [][]byte) *pubsub.Message {
		b, _ := proto.Marshal(&pb.Published{Envelope: envs[0], Index: 10, More: more})
		return &pubsub.Message{Message: &pubsubpb.Message{From: []byte(hostID), Data: b}, ReceivedFrom: hostID}
	}
	good := msg(envs[1:])
	if got := s.validate(context.Background(), hostID, good); got != pubsub.ValidationAccept {
		t.Fatalf("a genuine burst: %v (%v)", got, rejected)
	}
	ps, _ := good.ValidatorData.([]*published)
	if len(ps) != 4 {
		t.Fatalf("a burst of 4 gave %d entries", len(ps))
	}
	for i, p := range ps {
		if p.index != uint64(10+i) || p.entry.Entry.Seq != uint64(i) {
			t.Errorf("entry %d: index %d, seq %d", i, p.index, p.entry.Entry.Seq)
		}
	}
	bad := slices.Clone(envs[1:])
	bad[1] = slices.Clone(bad[1])
	bad[1][len(bad[1])-3] ^= 1
	if got := s.validate(context.Background(), hostID, msg(bad)); got != pubsub.ValidationReject {
		t.Fatalf("a burst with an altered entry: %v", got)
	}
	if len(rejected) != 1 || !strings.Contains(rejected[0].Reason, "entry 12 does not verify") {
		t.Errorf("rejections %v, want one naming entry 12", rejected)
	}
}

// burst groups queued messages of consecutive indexes into one topic
// message, within protocol.MaxMessageSize bytes of envelopes, and never
// across a gap in the indexes.
func TestBurst(t *testing.T) {
	q := func(indexes []uint64, size int) []*pb.Published {
		var out []*pb.Published
		for _, i := range indexes {
			out = append(out, &pb.Published{Index: i, Envelope: make([]byte, size)})
		}
		return out
	}
	for _, c := range []struct {
		name string
		q    []*pb.Published
		want int
	}{
		{"one", q([]uint64{4}, 100), 1},
		{"consecutive", q([]uint64{4, 5, 6}, 100), 3},
		{"a gap", q([]uint64{4, 5, 7, 8}, 100), 2},
		{"the size bound", q([]uint64{1, 2, 3, 4}, protocol.MaxMessageSize/3), 2},
		{"one too big for company", q([]uint64{1, 2}, protocol.MaxMessageSize), 1},
		{"the entry bound", q(func() []uint64 {
			var is []uint64
			for i := range 2 * maxBurst {
				is = append(is, uint64(i))
			}
			return is
		}(), 10), maxBurst},
	} {
		if got := burst(c.q); got != c.want {
			t.Errorf("%s: burst = %d, want %d", c.name, got, c.want)
		}
	}
}
