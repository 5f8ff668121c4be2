package progress

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/verdict"
)

// TestVerdictsOnce checks that a blame or fault reported twice (at once
// and again by the end-of-hand audit) is written once, while another
// hand's or another peer's is written too, in text and in JSON.
func TestVerdictsOnce(t *testing.T) {
	seats := []peer.ID{"peer-a", "peer-b", "peer-c", "peer-d"}
	names := verdict.Names{Seats: seats}
	for _, asJSON := range []bool{false, true} {
		var out bytes.Buffer
		r := &Reporter{W: &out, JSON: asJSON}
		b := protocol.Blame{Hand: 2, Peer: seats[1], Reason: "wrong key"}
		r.Blame(b, names, "at once")
		r.Blame(b, names, "end of hand")
		b.Hand = 3
		r.Blame(b, names, "at once")
		f := protocol.Fault{Hand: 2, Peer: seats[2], Kind: "silent", Reason: "no message in 30s"}
		r.Fault(f, names)
		r.Fault(f, names)
		f.Peer = seats[3]
		r.Fault(f, names)
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if len(lines) != 4 {
			t.Fatalf("json %v: %d lines, want 4:\n%s", asJSON, len(lines), out.String())
		}
		for i, want := range []string{"blame", "blame", "fault", "fault"} {
			if asJSON {
				var ev struct{ Event string }
				if err := json.Unmarshal([]byte(lines[i]), &ev); err != nil || ev.Event != want {
					t.Errorf("line %d %q: event %q (%v), want %s", i, lines[i], ev.Event, err, want)
				}
			} else if !strings.HasPrefix(lines[i], strings.ToUpper(want)+" hand ") {
				t.Errorf("line %d %q: want a %s line", i, lines[i], strings.ToUpper(want))
			}
		}
	}
}

// TestMilliseconds checks the unit of the "…_ms" fields against
// time.Duration's own constants.
func TestMilliseconds(t *testing.T) {
	if got := Milliseconds(1500 * time.Microsecond); got != 1.5 {
		t.Errorf("1.5 ms = %v", got)
	}
	if got := MillisecondsList([]time.Duration{time.Second, 250 * time.Microsecond}); len(got) != 2 || got[0] != 1000 || got[1] != 0.25 {
		t.Errorf("1 s, 250 µs = %v", got)
	}
}
