package protocol

import (
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/protocol/pb"
)

// signingContext is prefixed to every Entry before signing, so a signature
// made by a mentalmj node can never be replayed as a signature over some
// other libp2p payload.
const signingContext = "mentalmj/v1/entry\x00"

// ErrSignature is returned (wrapped, naming the claimed sender) by Open when
// an envelope's signature does not verify.
var ErrSignature = errors.New("bad signature")

// Opened is a verified envelope: its bytes, the decoded Entry, the sender
// and the SHA-256 of the Entry bytes (the value the sender's next message
// must carry as prev_hash).
type Opened struct {
	// Envelope is the serialized pb.Envelope exactly as received.
	Envelope []byte
	// EntryBytes is the serialized pb.Entry the signature covers.
	EntryBytes []byte
	// Entry is the decoded entry.
	Entry *pb.Entry
	// Sender is the peer ID the entry claims and the signature proves.
	Sender peer.ID
	// Recipient is the sole recipient of a private message, "" for a
	// message to the whole table.
	Recipient peer.ID
	// Hash is SHA-256(EntryBytes).
	Hash [32]byte
}

// Seal serializes e (deterministically), signs it with priv as described
// in mentalmj.proto and returns the opened form of the result. e.Sender must
// be the peer ID of priv. It returns an error if marshaling or signing fails.
func Seal(priv crypto.PrivKey, e *pb.Entry) (*Opened, error) {
	entry, err := proto.MarshalOptions{Deterministic: true}.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("marshal entry: %w", err)
	}
	sig, err := priv.Sign(append([]byte(signingContext), entry...))
	if err != nil {
		return nil, fmt.Errorf("sign entry: %w", err)
	}
	env, err := proto.MarshalOptions{Deterministic: true}.Marshal(&pb.Envelope{Entry: entry, Signature: sig})
	if err != nil {
		return nil, fmt.Errorf("marshal envelope: %w", err)
	}
	return open(env, e, entry)
}

// Open parses and verifies an envelope of at most MaxMessageSize bytes: the
// envelope and entry must decode, the sender field must be a valid peer ID
// whose embedded Ed25519 public key verifies the signature, and the
// recipient, if set, must be a valid peer ID. Errors name what failed;
// ErrSignature is wrapped for a bad signature. Open never panics on bad
// input.
func Open(env []byte) (*Opened, error) {
	if len(env) > MaxMessageSize {
		return nil, fmt.Errorf("envelope of %d bytes exceeds the %d-byte limit", len(env), MaxMessageSize)
	}
	var envelope pb.Envelope
	if err := proto.Unmarshal(env, &envelope); err != nil {
		return nil, fmt.Errorf("decode envelope: %w", err)
	}
	var e pb.Entry
	if err := proto.Unmarshal(envelope.Entry, &e); err != nil {
		return nil, fmt.Errorf("decode entry: %w", err)
	}
	o, err := open(env, &e, envelope.Entry)
	if err != nil {
		return nil, err
	}
	pub, err := o.Sender.ExtractPublicKey()
	if err != nil {
		return nil, fmt.Errorf("sender %s: no public key in peer ID: %w", o.Sender, err)
	}
	ok, err := pub.Verify(append([]byte(signingContext), envelope.Entry...), envelope.Signature)
	if err != nil || !ok {
		return nil, fmt.Errorf("entry from %s (seq %d): %w", o.Sender, e.Seq, ErrSignature)
	}
	return o, nil
}

func open(env []byte, e *pb.Entry, entry []byte) (*Opened, error) {
	sender, err := peer.IDFromBytes(e.Sender)
	if err != nil {
		return nil, fmt.Errorf("entry sender field: %w", err)
	}
	var recipient peer.ID
	if len(e.Recipient) > 0 {
		if recipient, err = peer.IDFromBytes(e.Recipient); err != nil {
			return nil, fmt.Errorf("entry from %s: recipient field: %w", sender, err)
		}
	}
	return &Opened{
		Envelope:   env,
		EntryBytes: entry,
		Entry:      e,
		Sender:     sender,
		Recipient:  recipient,
		Hash:       sha256.Sum256(entry),
	}, nil
}

// Kind returns a short name of the entry's message type ("hello",
// "shuffle", "discard", …) for logs and errors.
func (o *Opened) Kind() string { return kindOf(o.Entry) }

func kindOf(e *pb.Entry) string {
	switch e.Body.(type) {
	case *pb.Entry_Hello:
		return "hello"
	case *pb.Entry_NonceCommit:
		return "nonce commitment"
	case *pb.Entry_NonceReveal:
		return "nonce reveal"
	case *pb.Entry_Shuffle:
		return "shuffle pass"
	case *pb.Entry_Rekey:
		return "rekey pass"
	case *pb.Entry_KeyRelease:
		return "key release"
	case *pb.Entry_Turn:
		return "turn"
	case *pb.Entry_Answer:
		return "answer"
	case *pb.Entry_Call:
		return "call"
	case *pb.Entry_Declare:
		return "declare"
	case *pb.Entry_KeyReveal:
		return "key reveal"
	case *pb.Entry_Abort:
		return "abort"
	case *pb.Entry_Waiting:
		return "waiting notice"
	case *pb.Entry_ResultSign:
		return "result signature"
	default:
		return "empty message"
	}
}
