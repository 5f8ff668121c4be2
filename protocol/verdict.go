package protocol

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Evidence points at one signed entry that a Blame rests on. The entry
// itself is in the transcript of every player who received it (and of its
// sender), so anyone holding that transcript can check the signature and
// repeat the check.
type Evidence struct {
	// Sender is the peer whose signature the entry carries.
	Sender peer.ID
	// Hand is the entry's hand number (0 for the game's opening Hello);
	// Seq its sender's sequence number; Kind its message kind ("shuffle
	// pass", "key release", …).
	Hand int
	Seq  uint64
	Kind string
	// Hash is SHA-256 of the signed entry bytes (Opened.Hash).
	Hash [32]byte
}

// String returns "KIND seq N (hash 0123456789ab…)".
func (e Evidence) String() string {
	return fmt.Sprintf("%s seq %d (entry %s…)", e.Kind, e.Seq, hex.EncodeToString(e.Hash[:6]))
}

// evidenceOf returns the Evidence pointing at the entries os (nils are
// skipped).
func evidenceOf(os ...*Opened) []Evidence {
	var out []Evidence
	for _, o := range os {
		if o == nil {
			continue
		}
		out = append(out, Evidence{Sender: o.Sender, Hand: int(o.Entry.Hand), Seq: o.Entry.Seq, Kind: o.Kind(), Hash: o.Hash})
	}
	return out
}

// Blame is a proven cheat: Peer signed the entries in Evidence, and they
// fail a check of the protocol or the rules, or conflict with each other.
// A Blame is only ever made from entries carrying the blamed player's own
// signature (see "Verdicts" in the package doc), so an honest player can
// never be blamed.
type Blame struct {
	// Peer is the player whose signed entries prove the cheat.
	Peer peer.ID
	// Hand is the 1-based hand number (0 for the game's opening).
	Hand int
	// Kind classifies what the entries prove, for a view to say in its
	// language (package ui/screen); "" for a blame made before kinds
	// existed. It is not on the wire nor in a transcript: an audit
	// derives it again from the entries.
	Kind BlameKind
	// Reason says what the entries show, in one line, in English: the
	// protocol's technical detail (which pass, which position).
	Reason string
	// Evidence lists the signed entries the blame rests on, at least one.
	Evidence []Evidence
}

// String returns "hand N: peer ID: reason".
func (b Blame) String() string { return fmt.Sprintf("hand %d: peer %s: %s", b.Hand, b.Peer, b.Reason) }

// same reports whether b and c name the same peer for the same reason in
// the same hand (their evidence may differ in order).
func (b Blame) same(c Blame) bool {
	return b.Peer == c.Peer && b.Hand == c.Hand && b.Reason == c.Reason
}

// BlameKind classifies a Blame by what its signed entries prove, in
// terms a player reads: the wall's shuffle, its rekeying, a key, the
// dice, a play against the rules, a message out of turn, two messages
// signed as one, the opening hello, the match state.
type BlameKind string

// The kinds of blame. Each is proven by the blamed player's own signed
// entries.
const (
	// BlameShuffle: a shuffle pass fails its proof, does not decode, is
	// no permutation of the deck it received, or builds on the wrong
	// pass (the wall was tampered with while shuffled).
	BlameShuffle BlameKind = "bad shuffle"
	// BlameRekey: a rekey pass fails its proof or carries bad
	// commitments.
	BlameRekey BlameKind = "bad rekey"
	// BlameKey: a released, published or revealed key fails its
	// commitment, is for the wrong positions or goes to the wrong
	// audience.
	BlameKey BlameKind = "bad key"
	// BlameDice: a nonce (the dice's randomness) is malformed or does
	// not open its commitment.
	BlameDice BlameKind = "bad dice nonce"
	// BlameIllegal: a play the rules forbid (a dahai of a tile not held,
	// a call or win that is not legal, tiles shown that are not the
	// ones held).
	BlameIllegal BlameKind = "illegal play"
	// BlameOutOfTurn: a message the game did not wait for from this
	// player at this point.
	BlameOutOfTurn BlameKind = "out of turn"
	// BlameEquivocation: two different messages signed with the same
	// sequence number.
	BlameEquivocation BlameKind = "equivocation"
	// BlameHello: an invalid hello, or a chain that does not open with
	// one.
	BlameHello BlameKind = "bad hello"
	// BlameState: a message that disagrees on the match state (round,
	// honba, scores) the table agreed on.
	BlameState BlameKind = "match state"
)

// passKind is the kind of blame on a shuffle or rekey pass o.
func passKind(o *Opened) BlameKind {
	if o.Kind() == "rekey pass" {
		return BlameRekey
	}
	return BlameShuffle
}

// FaultKind classifies a Fault.
type FaultKind string

// The kinds of fault. None of them proves anything about intent.
const (
	// FaultSilence: a peer sent nothing within the timeout.
	FaultSilence FaultKind = "silence"
	// FaultConnection: the connection to a peer was lost.
	FaultConnection FaultKind = "connection lost"
	// FaultUnverifiable: a peer delivered bytes that carry no valid
	// signature of it (garbage, a forged or stripped signature, a message
	// signed by someone else), a replayed or out-of-order copy of an
	// entry, or an entry for another game or hand. The bytes prove nothing
	// to a third party, so they are never a blame.
	FaultUnverifiable FaultKind = "unverifiable message"
	// FaultConfig: a peer's Hello disagrees with the table's (protocol
	// version, table name, player count, peer list, number of hands,
	// match length, no_proofs, private_hands: the fields checkHello
	// compares).
	FaultConfig FaultKind = "configuration mismatch"
	// FaultQuit: a player's node stopped the game (interrupted, or its
	// human quit) and said so in a signed Abort.
	FaultQuit FaultKind = "quit"
	// FaultAborted: a player ended the hand for a reason the auditor
	// cannot check itself (for example a private key only it received);
	// the reason is the player's signed claim.
	FaultAborted FaultKind = "aborted"
	// FaultLocal: this node itself failed (a full disk, a bug); it names
	// this node.
	FaultLocal FaultKind = "local error"
	// FaultBadWall: a tile failed to decrypt with keys that all match
	// their commitments, so some shuffle or rekey pass is wrong. It names
	// no peer: the key reveal that follows lets the audit blame the pass's
	// maker.
	FaultBadWall FaultKind = "bad wall"
	// FaultIncomplete: a transcript ends before the game or hand does:
	// the file was cut short or its node stopped. It names no peer.
	FaultIncomplete FaultKind = "incomplete transcript"
	// FaultDamaged: a transcript record does not decode or its signature
	// does not verify: the file was damaged or altered. It names no peer.
	FaultDamaged FaultKind = "damaged transcript"
	// FaultDiverged: a shuffle or rekey pass names as its input a pass
	// other than the one the auditor holds: the previous player signed two
	// passes, or the sender misstates its input. It names no peer; the
	// pass is not judged, and comparing transcripts shows who signed two.
	FaultDiverged FaultKind = "diverged passes"
	// FaultVersion: a transcript is of a protocol version this build does
	// not audit. It names no peer.
	FaultVersion FaultKind = "unsupported version"
)

// Fault is anything that stopped or spoiled a game without proving a
// cheat: silence, a lost connection, a crash, a message that carries no
// valid signature, a mismatch of configuration, a damaged file. It names
// the peer it concerns when there is one ("" for a fault of a file) and
// the evidence available, and proves nothing about intent.
type Fault struct {
	// Peer is the player the fault concerns; "" when it concerns a file.
	Peer peer.ID
	// Hand is the 1-based hand number (0 for the game's opening).
	Hand int
	// Kind classifies the fault.
	Kind FaultKind
	// Reason says what was observed, in one line, in English.
	Reason string
	// Want, for a silence or a lost connection this node saw, is the
	// kind of entry it waited for or was sending ("shuffle pass",
	// "turn": Opened.Kind's words); "" otherwise. Wait is how long it
	// waited, for a silence, or how long a lost peer had to come back
	// (Config.ReconnectGrace), for a lost connection; 0 otherwise. A view says a fault in its
	// language from Kind, Want and Wait (package ui/screen).
	Want string
	Wait time.Duration
	// Reporters are the players whose signed Aborts report the fault (in
	// an offline audit); empty when the auditing node observed it itself.
	Reporters []peer.ID
}

// String returns "hand N: peer ID: kind: reason" ("hand N: kind: reason"
// for a fault of a file).
func (f Fault) String() string {
	if f.Peer == "" {
		return fmt.Sprintf("hand %d: %s: %s", f.Hand, f.Kind, f.Reason)
	}
	return fmt.Sprintf("hand %d: peer %s: %s: %s", f.Hand, f.Peer, f.Kind, f.Reason)
}

// same reports whether f and g concern the same peer and hand with the
// same kind.
func (f Fault) same(g Fault) bool { return f.Peer == g.Peer && f.Hand == g.Hand && f.Kind == g.Kind }

// BlameError is the error a hand ends with when a player's signed entry
// fails a check: a key that fails its commitment, a dahai of a tile not
// held, an illegal action, a message out of turn, a forked hash chain.
// errors.As retrieves it to name the peer and the evidence.
type BlameError struct {
	Blame
	// Err is the underlying check failure, if any.
	Err error
}

// Error returns the blame and, if any, the check that failed.
func (e *BlameError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %v", e.Blame, e.Err)
	}
	return e.Blame.String()
}

// Unwrap returns the underlying check failure (nil if none).
func (e *BlameError) Unwrap() error { return e.Err }

// blamef returns a BlameError naming the signer of o (which must not be
// nil: a blame needs a signed entry) with o and more as evidence.
func blamef(o *Opened, hand uint32, kind BlameKind, err error, format string, args ...any) *BlameError {
	return blameOn(o.Sender, hand, kind, evidenceOf(o), err, format, args...)
}

// blameOn returns a BlameError naming p with the given evidence, which
// must be entries signed by p.
func blameOn(p peer.ID, hand uint32, kind BlameKind, ev []Evidence, err error, format string, args ...any) *BlameError {
	return &BlameError{Blame: Blame{Peer: p, Hand: int(hand), Kind: kind, Reason: fmt.Sprintf(format, args...), Evidence: ev}, Err: err}
}

// FaultError is the error a hand ends with on a fault: silence, a lost
// connection, an unverifiable message, a configuration mismatch, another
// player's Abort. errors.As retrieves it to name the peer.
type FaultError struct {
	Fault
	// Err is the underlying error, if any.
	Err error
	// Waiting holds, for a silence named at the end of a chain of
	// waits, the signed Waiting notices (envelopes) that led there, in
	// chain order; the Abort carries them (SPEC.md §10.12).
	Waiting [][]byte
}

// Error returns the fault and, if any, the underlying error.
func (e *FaultError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %v", e.Fault, e.Err)
	}
	return e.Fault.String()
}

// Unwrap returns the underlying error (nil if none).
func (e *FaultError) Unwrap() error { return e.Err }

func faultf(p peer.ID, hand uint32, kind FaultKind, err error, format string, args ...any) *FaultError {
	return &FaultError{Fault: Fault{Peer: p, Hand: int(hand), Kind: kind, Reason: fmt.Sprintf(format, args...)}, Err: err}
}

// ErrAborted is wrapped by the error a hand ends with when another player
// sent an Abort.
var ErrAborted = errors.New("hand aborted by a player")

// AbortError reports that another player ended the hand with an Abort. It
// blames no one: the Abort is the sender's signed claim, which only it may
// be able to check (a private key that failed its commitment, say). Fault
// is that claim as a Fault naming the peer the sender holds responsible.
type AbortError struct {
	// Peer is the player that sent the Abort.
	Peer peer.ID
	// Hand is the 1-based hand number.
	Hand int
	// Reason is the reason the player gave, truncated to 200 bytes.
	Reason string
	// Fault is the claim as a fault: the peer it names, its kind, and
	// Reporters = [Peer].
	Fault Fault
}

// Error returns "hand N: peer ID aborted the hand: reason".
func (e *AbortError) Error() string {
	return fmt.Sprintf("hand %d: peer %s aborted the hand: %s", e.Hand, e.Peer, e.Reason)
}

// Unwrap returns ErrAborted.
func (e *AbortError) Unwrap() error { return ErrAborted }

// Verdict sorts the error a hand or game ended with into a blame or a
// fault: a *BlameError gives its Blame; a *FaultError its Fault; an
// *AbortError the fault its sender claims; a cancelled context
// (context.Canceled in the chain) a quit by self; anything else a local
// fault of self. It returns a nil blame and a
// zero fault for a nil error.
func Verdict(err error, self peer.ID, hand int) (*Blame, *Fault) {
	if err == nil {
		return nil, nil
	}
	var be *BlameError
	if errors.As(err, &be) {
		b := be.Blame
		return &b, nil
	}
	var fe *FaultError
	if errors.As(err, &fe) {
		f := fe.Fault
		return nil, &f
	}
	var ae *AbortError
	if errors.As(err, &ae) {
		f := ae.Fault
		return nil, &f
	}
	if errors.Is(err, context.Canceled) {
		return nil, &Fault{Peer: self, Hand: hand, Kind: FaultQuit, Reason: "this node was stopped (interrupted)"}
	}
	return nil, &Fault{Peer: self, Hand: hand, Kind: FaultLocal, Reason: err.Error()}
}

// appendBlame appends b to bs unless an equal blame is already there.
func appendBlame(bs []Blame, b ...Blame) []Blame {
	for _, x := range b {
		if !slices.ContainsFunc(bs, x.same) {
			bs = append(bs, x)
		}
	}
	return bs
}

// appendFault appends f to fs, merging the reporters of a fault already
// there for the same peer, hand and kind.
func appendFault(fs []Fault, f ...Fault) []Fault {
	for _, x := range f {
		i := slices.IndexFunc(fs, x.same)
		if i < 0 {
			fs = append(fs, x)
			continue
		}
		for _, r := range x.Reporters {
			if !slices.Contains(fs[i].Reporters, r) {
				fs[i].Reporters = append(fs[i].Reporters, r)
			}
		}
	}
	return fs
}

// truncate cuts s to at most n bytes, dropping a rune cut in half.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}
