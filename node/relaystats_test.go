package node

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/proto"
)

// waitStats polls r.Stats until ok accepts it or ctx is done, and returns
// the last snapshot and whether ok accepted it.
func waitStats(ctx context.Context, r *Relay, ok func(RelayStats) bool) (RelayStats, bool) {
	for {
		s := r.Stats()
		if ok(s) {
			return s, true
		}
		select {
		case <-ctx.Done():
			return s, false
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// A relay counts what goes through it: two players reserve (2
// reservations), reach each other only through it (a circuit open), and
// one sends the other 200 KiB of messages; the bytes the relay service
// counted as relayed are at least the payload sent (encryption and framing
// add to it, never take away) and not much more, and the streams that
// carry circuits (hop and stop), counted separately by the swarm, carry at
// least as much each way. When the players leave, no circuit is open and
// no reservation held.
func TestRelayCountsCircuitBytes(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 30*time.Second)
	r := startRelay(t, tcpLoopback)
	nodes := startRelayedNodes(t, ctx, 2, r)
	a, b := nodes[0], nodes[1]
	if s, ok := waitStats(ctx, r, func(s RelayStats) bool { return s.Reservations == 2 }); !ok {
		t.Fatalf("relay counts %d reservations held, want 2 (one per player)", s.Reservations)
	}
	if s := r.Stats(); s.Circuits != 0 || s.CircuitBytes != 0 {
		t.Fatalf("before any player dialled through the relay: %d circuits, %d bytes", s.Circuits, s.CircuitBytes)
	}
	seatViaRelay(t, ctx, nodes)
	checkRelayed(t, nodes, r)
	before := r.Stats()
	if before.CircuitsOpen < 1 {
		t.Fatalf("players connected through the relay, but it counts %d circuits open", before.CircuitsOpen)
	}

	const msgs, size = 20, 10 << 10
	const sent = msgs * size
	msg := bytes.Repeat([]byte{0x5a}, size)
	for range msgs {
		if err := a.Send(ctx, b.ID(), msg); err != nil {
			t.Fatal(err)
		}
	}
	for range msgs {
		if _, err := b.Recv(ctx, a.ID()); err != nil {
			t.Fatal(err)
		}
	}
	after := r.Stats()
	d := after.Sub(before)
	if d.CircuitBytes < sent || d.CircuitBytes > sent+sent/4+16<<10 {
		t.Errorf("relay counted %d circuit bytes for %d bytes of messages sent through it", d.CircuitBytes, sent)
	}
	// The swarm's meters are swept once a second.
	carried := func(s RelayStats) (in, out int64) {
		for _, id := range []protocol.ID{proto.ProtoIDv2Hop, proto.ProtoIDv2Stop} {
			in += s.Streams[id].In
			out += s.Streams[id].Out
		}
		return in, out
	}
	s, ok := waitStats(ctx, r, func(s RelayStats) bool {
		in, out := carried(s)
		return in >= s.CircuitBytes && out >= s.CircuitBytes && s.CircuitBytes >= after.CircuitBytes
	})
	if !ok {
		in, out := carried(s)
		t.Errorf("hop and stop streams read %d and wrote %d bytes, less than the %d bytes relayed", in, out, s.CircuitBytes)
	}

	for _, n := range nodes {
		_ = n.Close()
	}
	if s, ok := waitStats(ctx, r, func(s RelayStats) bool { return s.CircuitsOpen == 0 && s.Reservations == 0 }); !ok {
		t.Errorf("after the players left: %d circuits open, %d reservations held; want none", s.CircuitsOpen, s.Reservations)
	}
}

// RelayStats arithmetic: differences, control bytes and protocol order
// on a worked example.
func TestRelayStatsSub(t *testing.T) {
	t.Parallel()
	old := RelayStats{ReservationsMade: 4, Circuits: 2, CircuitBytes: 1000,
		Streams: map[protocol.ID]StreamBytes{"/hop": {In: 1100, Out: 1050}, "/id": {In: 300, Out: 200}}}
	now := RelayStats{Reservations: 3, ReservationsMade: 7, CircuitsOpen: 0, Circuits: 2, CircuitBytes: 1000,
		Streams: map[protocol.ID]StreamBytes{"/hop": {In: 1200, Out: 1050}, "/id": {In: 300, Out: 200}, "/ping": {In: 64, Out: 64}}}
	d := now.Sub(old)
	if d.ReservationsMade != 3 || d.Circuits != 0 || d.CircuitBytes != 0 || d.Reservations != 3 {
		t.Errorf("Sub = %+v", d)
	}
	if len(d.Streams) != 2 || d.Streams["/hop"] != (StreamBytes{In: 100}) || d.Streams["/ping"] != (StreamBytes{In: 64, Out: 64}) {
		t.Errorf("Sub streams = %v, want /hop 100 in and /ping 64 each way", d.Streams)
	}
	// 1200+1050+300+200+64+64 = 2878 stream bytes, less 2×1000 relayed.
	if got := now.ControlBytes(); got != 878 {
		t.Errorf("ControlBytes = %d, want 878", got)
	}
	if got := d.ControlBytes(); got != 228 {
		t.Errorf("ControlBytes of the difference = %d, want 228", got)
	}
	if got := d.Protocols(); len(got) != 2 || got[0] != "/ping" || got[1] != "/hop" {
		t.Errorf("Protocols = %v, want /ping (128 B) before /hop (100 B)", got)
	}
	want := "3 reservations held, 0 circuits open (0 in all), 0 B relayed through circuits, 228 B of control traffic (/ping 128 B, /hop 100 B)"
	if got := d.String(); got != want {
		t.Errorf("String =\n%s\nwant\n%s", got, want)
	}
}
