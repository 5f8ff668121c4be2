package protocol

import (
	"errors"
	"fmt"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Blame names a player held responsible for a failed check.
type Blame struct {
	// Peer is the player at fault.
	Peer peer.ID
	// Hand is the 1-based hand number (0 for the game's opening).
	Hand int
	// Reason says what the player did, in one line.
	Reason string
}

// String returns "hand N: peer ID: reason".
func (b Blame) String() string { return fmt.Sprintf("hand %d: peer %s: %s", b.Hand, b.Peer, b.Reason) }

// BlameError is the error a hand ends with when a player misbehaves: a bad
// message, a key that fails its commitment, a dahai that does not match,
// a message out of turn, or silence past the timeout. errors.As retrieves
// it to name the peer.
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

func blamef(p peer.ID, hand uint32, err error, format string, args ...any) *BlameError {
	return &BlameError{Blame: Blame{Peer: p, Hand: int(hand), Reason: fmt.Sprintf(format, args...)}, Err: err}
}

// ErrAborted is wrapped by the error a hand ends with when another player
// sent an Abort.
var ErrAborted = errors.New("hand aborted by a player")

// AbortError reports that another player ended the hand with an Abort. It
// blames no one: the aborting player's reason is its claim, which only it
// may be able to check (a private key that failed its commitment, say).
type AbortError struct {
	// Peer is the player that sent the Abort.
	Peer peer.ID
	// Hand is the 1-based hand number.
	Hand int
	// Reason is the reason the player gave, truncated to 200 bytes.
	Reason string
}

// Error returns "hand N: peer ID aborted the hand: reason".
func (e *AbortError) Error() string {
	return fmt.Sprintf("hand %d: peer %s aborted the hand: %s", e.Hand, e.Peer, e.Reason)
}

// Unwrap returns ErrAborted.
func (e *AbortError) Unwrap() error { return ErrAborted }
