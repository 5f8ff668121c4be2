package progress

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Event is one event of the progress stream: a value of one of this
// package's event types (events.go), whose Name is its "event" key.
// Reporter.Event writes it (Encode) and Decode reads it back.
type Event interface {
	// Name is the value of the event's "event" key: "hand", "done", …
	Name() string
}

// Encode returns e as the stream writes it, without the newline: one
// JSON object with e's keys and "event": e.Name(), the keys in sorted
// order, as encoding/json writes a map's (the stream's order since its
// first writer, which wrote maps). It returns the error of
// encoding/json.
func Encode(e Event) ([]byte, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return nil, err
	}
	if obj["event"], err = json.Marshal(e.Name()); err != nil {
		return nil, err
	}
	return json.Marshal(obj)
}

// ErrUnknownEvent is returned (wrapped, with the name) by Decode for an
// object whose "event" this package has no type for: a reader skips it.
var ErrUnknownEvent = errors.New("unknown progress event")

// Decode reads one line of the stream (JSON progress, join --progress
// json): the event its "event" key names, as a value of that event's type
// (Hand, Done, …). It returns ErrUnknownEvent (wrapped) for an event this
// package does not know, and encoding/json's error for a line that is not
// such an object or whose fields do not fit the event's type.
func Decode(line []byte) (Event, error) {
	var head struct {
		Event string `json:"event"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return nil, err
	}
	decode, ok := decoders()[head.Event]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownEvent, head.Event)
	}
	return decode(line)
}

// Read reads the stream r line by line to its end, calling each with
// every line (valid until each returns) and its event, or Decode's error
// for it: a text line, an unknown event (ErrUnknownEvent). A line may be
// up to 1 MiB long (a hand's, with its yama, is about 1 KB); a longer one
// ends the reading, and Read returns bufio.ErrTooLong, or else r's error.
func Read(r io.Reader, each func(line []byte, e Event, err error)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		e, err := Decode(sc.Bytes())
		each(sc.Bytes(), e, err)
	}
	return sc.Err()
}

// decodeFunc decodes one event of a known type.
type decodeFunc func(line []byte) (Event, error)

// kind is the name and decoder of the event type T.
func kind[T Event]() (string, decodeFunc) {
	var zero T
	return zero.Name(), func(line []byte) (Event, error) {
		var e T
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, err
		}
		return e, nil
	}
}

// decoders returns the decoder of every event type of events.go, by name.
func decoders() map[string]decodeFunc {
	m := map[string]decodeFunc{}
	for _, k := range []func() (string, decodeFunc){
		kind[Address], kind[Invite], kind[WatchLink], kind[Game], kind[Waiting], kind[Arrival], kind[Joining],
		kind[Lookup], kind[LookupFailed], kind[LookupFound], kind[Arrivals], kind[Seated], kind[Declined],
		kind[Public], kind[PublicOffline], kind[PublicNoRelay], kind[Reserving], kind[Relaying], kind[RelayStats],
		kind[MjaiBot], kind[Resuming], kind[ResumeSettings], kind[Transcript], kind[Connecting], kind[Connected],
		kind[DirectWait], kind[StaysRelayed], kind[Path], kind[Relay], kind[RelayFault], kind[Reachability], kind[NetCheck],
		kind[Seats], kind[Hand], kind[Blame], kind[Fault], kind[Paused], kind[Resumed],
		kind[Mjlog], kind[JSONRecord], kind[Certificate], kind[View], kind[Standings], kind[Done],
	} {
		name, decode := k()
		m[name] = decode
	}
	return m
}
