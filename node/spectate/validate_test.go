package spectate

import (
	"context"
	"crypto/rand"
	"log/slog"
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
			if p, ok := c.m.ValidatorData.(*published); !ok || p.index != 7 || p.entry.Sender != hostID {
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
