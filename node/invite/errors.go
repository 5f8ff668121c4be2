package invite

import "errors"

// Errors the package returns, wrapped with details; test them with
// errors.Is.
var (
	// ErrMalformed: an invite or message that does not decode, or whose
	// fields are out of range.
	ErrMalformed = errors.New("malformed")
	// ErrChecksum: an invite whose checksum does not match (mistyped or
	// cut short).
	ErrChecksum = errors.New("checksum does not match")
	// ErrVersion: an invite of a version this code does not read.
	ErrVersion = errors.New("unsupported invite version")
	// ErrOtherTable: an invite or seating list for another table.
	ErrOtherTable = errors.New("for another table")
	// ErrOtherHost: a seating list from a host other than the invite's.
	ErrOtherHost = errors.New("from another host")
	// ErrBadSignature: a seating list not signed by the invite's host.
	ErrBadSignature = errors.New("not signed by the host")
	// ErrNotSeated: a seating list that leaves this node out.
	ErrNotSeated = errors.New("leaves this node out")
	// ErrTooLarge: a message larger than MaxMessageSize.
	ErrTooLarge = errors.New("message too large")
	// ErrRefused: the host refused this guest; the error says why.
	ErrRefused = errors.New("refused by the host")
	// ErrUnreachable: the host could not be reached at any address the
	// invite or the DHT gave; the error says what the player can do. A
	// fault of the network or the host's node, never a proof of
	// misbehaviour.
	ErrUnreachable = errors.New("host unreachable")
)

// unreachable is an error that also matches ErrUnreachable, so that its
// text need not repeat it.
type unreachable struct{ error }

func (unreachable) Is(target error) bool { return target == ErrUnreachable }

func (u unreachable) Unwrap() error { return u.error }
