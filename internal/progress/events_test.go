package progress

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// examples is one value of every event type, every key given a value
// (the optional ones too), for the tests of the stream's contract.
func examples() []Event {
	return []Event{
		Address{Addr: "/ip4/1.2.3.4/tcp/4001", Relayed: new(true)},
		Invite{Invite: "mmj1…", Table: "friday"},
		WatchLink{Link: "mmjw1…", Spectators: 20},
		Game{Table: "friday", Settings: "hanchan, tenhou rules", HostNick: new("ann")},
		Waiting{Count: 1},
		Arrival{Peer: "12D3a", Nick: "bob", Left: true, Declined: true, Count: 2},
		Joining{Table: "friday", Host: "12D3h"},
		Lookup{Peer: "12D3h", TimeoutMs: 30000},
		LookupFailed{Peer: "12D3h", Err: "not found"},
		LookupFound{Peer: "12D3h", Addrs: 3},
		Arrivals{Players: []Player{{Nick: "ann", Peer: "12D3a"}, {Nick: "<b&b>", Peer: "12D3b"}}, Count: 2},
		Seated{Table: "friday", Peers: []string{"12D3a", "12D3b", "12D3c", "12D3d"}},
		Declined{},
		Public{Step: "bootstrapped", Reached: new(4), TimeoutMs: new(int64(20000))},
		PublicOffline{Err: "no bootstrap peer"},
		PublicNoRelay{Err: "context deadline exceeded"},
		Reserving{Relays: 2, FromInvite: true},
		Relaying{},
		RelayStats{Final: true, Reservations: 4, ReservationsMade: 9, CircuitsOpen: 3, Circuits: 12, CircuitBytes: 1 << 20, ControlBytes: 4096,
			Streams: map[string]StreamBytes{"/libp2p/circuit/relay/0.2.0/hop": {In: 10, Out: 20}, "": {In: 1, Out: 2}}},
		MjaiBot{Command: "mortal --seat 1", Stderr: "/tmp/m.log"},
		Resuming{Records: 120, Path: "/tmp/a.mjt"},
		ResumeSettings{Settings: []string{`--name "bob"`, "--no-pipeline=true"}},
		Transcript{Path: "/tmp/a.mjt"},
		Connecting{},
		Connected{},
		DirectWait{Relayed: 2, TimeoutMs: 15000},
		StaysRelayed{Peer: "12D3b", Relay: "12D3r", Why: "symmetric NAT", NATPeer: "symmetric", NATSelf: "cone", Limited: true},
		Path{Peer: "12D3b", Direct: true, Transport: "QUIC", Family: "IPv6", How: "hole punched", Relay: "12D3r", RelayPlayer: true, Why: "-", NATPeer: "cone", NATSelf: "cone", Text: "direct (QUIC, hole punched)"},
		Relay{Relay: "12D3r", Held: true, Err: "gone"},
		RelayFault{Kind: "dropped a circuit", Relay: "12D3r", Peer: "12D3b", Status: "PERMISSION_DENIED", PlayerFault: true, Text: "relay …", Addr: "/ip4/5.6.7.8/tcp/1", Actual: "12D3x"},
		Reachability{Addr: "/ip4/1.2.3.4/tcp/4001", Reachable: new(false), Server: "12D3s", Err: "dial back failed", Text: "not reachable"},
		NetCheck{Summary: "NAT keeps ports (2 observers); IPv4 TCP reachable; IPv6; relays: 1", NAT: "keeps ports", Observers: 2,
			Reachability: []NetProbe{{Family: "IPv4", Transport: "TCP", Addr: "/ip4/1.2.3.4/tcp/4001", Reachable: "yes", Text: "reachable"}},
			IPv6:         true, PortMapping: []string{"/ip4/1.2.3.4/udp/4001/quic-v1"}, Relays: 1},
		Seats{Seats: []string{"12D3a", "12D3b", "12D3c"}, Nicks: []string{"ann", "bob", "cy"}, Self: 2},
		Hand{Hand: 3, Round: 1, Honba: 2, Result: "ron: bob from ann, 3900", Scores: [4]int{21100, 28900, 25000, 25000}, OyaSeat: 1, Oya: "12D3b",
			Dice: [2]int{2, 5}, Nicks: []string{"ann", "bob", "cy", "di"}, DoraIndicator: 17, Red: []wall.Tile{16, 52, 88}, Yama: []int{3, 1, 2},
			Events: 84, AuditOK: true, SetupMs: 12.5, DurationMs: 3000.25, PauseMs: 0.125, DrawLatencyMs: []float64{1, 1.5}},
		Blame{Peer: "12D3c", Player: "cy (West, seat 2)", Hand: 3, Reason: "a key that does not decrypt", Evidence: []string{"e1", "e2"}, When: "at once"},
		Fault{Peer: "12D3d", Player: "di (North, seat 3)", Hand: 4, Kind: "silence", Reason: "no message in 30s", Reporters: []string{"12D3a"},
			RelayNote: &RelayNote{Relay: "12D3r", Note: "the relay may be the cause"}},
		Paused{Peer: "12D3d", Nick: "di", LeftMs: 118000},
		Resumed{},
		Mjlog{Path: "/tmp/a.mjlog"},
		JSONRecord{Path: "/tmp/a.json", Review: "mjai-reviewer …", Viewer: "https://tenhou.net/6/#json=…", Skipped: "hidden tiles"},
		Certificate{Path: "/tmp/a.cert", Skipped: "not a whole match"},
		View{Path: "/tmp/a.mjlog"},
		Standings{Order: [4]game.Seat{2, 0, 3, 1}, Scores: [4]int{40000, 30000, 20000, 10000}, Points: [4]int{500, 100, -200, -400}, MatchOver: true},
		Done{Hands: 8, MatchOver: true, PeakRSSKiB: 51234, CPUMs: 4321.5},
	}
}

// documentedKeys reads docs/progress.md: for each event its keys, and
// which of them are optional (marked "?").
func documentedKeys(t *testing.T) map[string]map[string]bool {
	t.Helper()
	b, err := os.ReadFile("../../docs/progress.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("^\\| `([a-z_-]+)` \\|([^|]*)\\|")
	key := regexp.MustCompile("`([a-z_0-9]+)(\\??)`")
	doc := map[string]map[string]bool{} // event → key → optional
	for line := range strings.Lines(string(b)) {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if doc[m[1]] != nil {
			t.Errorf("docs/progress.md lists %q twice", m[1])
		}
		doc[m[1]] = map[string]bool{}
		for _, k := range key.FindAllStringSubmatch(m[2], -1) {
			doc[m[1]][k[1]] = k[2] == "?"
		}
	}
	return doc
}

// keysOf decodes line, one JSON object, into a map with encoding/json's
// generic decoder (numbers kept as written).
func keysOf(t *testing.T, line []byte) map[string]any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return m
}

// TestEventsAsDocumented checks the types against docs/progress.md with
// a second reader, encoding/json's generic map: every event type is
// documented and every documented event has a type; a value with every
// key set writes exactly the documented keys and "event" with its name;
// and the zero value writes every key not marked optional.
func TestEventsAsDocumented(t *testing.T) {
	doc := documentedKeys(t)
	types := decoders()
	if got, want := slices.Sorted(maps.Keys(types)), slices.Sorted(maps.Keys(doc)); !slices.Equal(got, want) {
		t.Errorf("event types %q, documented %q", got, want)
	}
	covered := map[string]bool{}
	for _, e := range examples() {
		name := e.Name()
		covered[name] = true
		b, err := Encode(e)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		m := keysOf(t, b)
		if m["event"] != name {
			t.Errorf("%s: \"event\" is %v", name, m["event"])
		}
		delete(m, "event")
		if got, want := slices.Sorted(maps.Keys(m)), slices.Sorted(maps.Keys(doc[name])); !slices.Equal(got, want) {
			t.Errorf("%s writes keys %q, docs/progress.md lists %q", name, got, want)
		}
		zero, err := Decode([]byte(`{"event":"` + name + `"}`))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _ = Encode(zero)
		z := keysOf(t, b)
		for k, optional := range doc[name] {
			if _, ok := z[k]; !ok && !optional {
				t.Errorf("%s: the zero value does not write %q, which docs/progress.md does not mark optional", name, k)
			}
		}
	}
	for name := range types {
		if !covered[name] {
			t.Errorf("no example of event %q", name)
		}
	}
}

// TestWriterReaderAgree checks that what the Reporter writes of every
// event is read back by Decode as the same value, and that a line is
// exactly what encoding/json writes for the same object as a map (keys
// sorted at every depth: the stream's bytes before it had types).
func TestWriterReaderAgree(t *testing.T) {
	for _, e := range examples() {
		var out bytes.Buffer
		r := &Reporter{W: &out, JSON: true}
		r.Event(e, "text")
		line, ok := bytes.CutSuffix(out.Bytes(), []byte("\n"))
		if !ok || bytes.Contains(line, []byte("\n")) {
			t.Fatalf("%s: not one line: %q", e.Name(), out.Bytes())
		}
		back, err := Decode(line)
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		if !reflect.DeepEqual(back, e) {
			t.Errorf("%s: wrote %s, read back %#v", e.Name(), line, back)
		}
		asMap, err := json.Marshal(keysOf(t, line))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(asMap, line) {
			t.Errorf("%s: wrote\n%s\nas a map:\n%s", e.Name(), line, asMap)
		}
	}
}

// TestDecodeRefuses checks what a reader skips or prints: an unknown
// event is ErrUnknownEvent, a line that is not JSON or whose keys do not
// fit the event's type is an error, never a panic.
func TestDecodeRefuses(t *testing.T) {
	if _, err := Decode([]byte(`{"event":"no-such-event","x":1}`)); !errors.Is(err, ErrUnknownEvent) {
		t.Errorf("unknown event: %v, want ErrUnknownEvent", err)
	}
	for _, line := range []string{`hand 1 (East 1)`, `{"event":"hand","hand":"three"}`, `{"event":"done","cpu_ms":[1]}`, ``, `[]`} {
		if e, err := Decode([]byte(line)); err == nil || errors.Is(err, ErrUnknownEvent) {
			t.Errorf("%q: %v, %v; want a decoding error", line, e, err)
		}
	}
}

// TestRead checks that Read hands each line of a stream to its reader
// in order: an event decoded, a text line as a decoding error, an unknown
// event as ErrUnknownEvent, a line of 100 KB (longer than bufio's default
// 64 KiB) whole; and that a line over 1 MiB ends it with an error.
func TestRead(t *testing.T) {
	long := `{"event":"seats","nicks":["` + strings.Repeat("n", 100<<10) + `"],"seats":null,"self":1}`
	stream := `{"event":"connected"}` + "\nhand 1 (East 1): …\n" + `{"event":"news"}` + "\n" + long + "\n"
	var got []string
	err := Read(strings.NewReader(stream), func(line []byte, e Event, err error) {
		switch {
		case err == nil:
			got = append(got, fmt.Sprintf("%T", e))
		case errors.Is(err, ErrUnknownEvent):
			got = append(got, "unknown")
		default:
			got = append(got, "text: "+string(line))
		}
	})
	want := []string{"progress.Connected", "text: hand 1 (East 1): …", "unknown", "progress.Seats"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Read: %q, %v; want %q", got, err, want)
	}
	calls := 0
	err = Read(strings.NewReader(strings.Repeat("x", 2<<20)+"\n"), func([]byte, Event, error) { calls++ })
	if !errors.Is(err, bufio.ErrTooLong) || calls != 0 {
		t.Errorf("a 2 MiB line: %d calls, %v; want bufio.ErrTooLong", calls, err)
	}
}
