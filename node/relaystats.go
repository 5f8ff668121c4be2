package node

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/protocol"
	pbv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/pb"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
)

// What a relay carries, counted two ways (Relay.Stats):
//
//   - circuits: the bytes the circuit relay v2 service copies between the
//     two ends of a relayed connection, counted by libp2p's relay itself
//     through its metrics hook (relay.WithMetricsTracer, BytesTransferred):
//     the players' own end-to-end encrypted connections, table and all. A
//     table whose pairs are all direct costs the relay 0 of these;
//   - streams: every libp2p stream the relay's host reads or writes,
//     by protocol (libp2p's metrics.BandwidthCounter on the swarm):
//     reservations and circuit set-up (the hop and stop protocols, which
//     also carry the circuits' bytes), identify and identify push,
//     AutoNAT v1 and v2, the DHT. Their sum less twice the circuit bytes
//     (each relayed byte is read from one stream and written to another)
//     is the relay's control traffic: what keeping players reachable costs.
//
// Neither counts transport overhead (TCP/UDP/IP headers, TLS or QUIC
// framing, yamux frames and keep-alives) or dials that never became a
// connection (an AutoNAT dial-back a NAT dropped): measure those on the
// wire, as the NAT lab does with iptables.

// RelayStats is a snapshot of what a Relay has done since it started.
type RelayStats struct {
	// Reservations is how many players hold a reservation now;
	// ReservationsMade counts the reservations granted since the start,
	// renewals included.
	Reservations, ReservationsMade int64
	// CircuitsOpen is how many relayed connections (circuits) are open
	// now; Circuits counts those opened since the start.
	CircuitsOpen, Circuits int64
	// CircuitBytes is the bytes relayed through circuits since the start,
	// both directions summed, as the relay service copied them (the
	// players' encrypted bytes, without the relay's own framing).
	CircuitBytes int64
	// Streams is the bytes of the relay's libp2p streams since the start
	// by protocol ID ("" for streams whose protocol was not negotiated),
	// in (read) and out (written). It lags the streams by up to
	// StreamMeterLag (libp2p's meters are swept once a second).
	Streams map[protocol.ID]StreamBytes
}

// StreamMeterLag is how long RelayStats.Streams may lag what the streams
// carried: a snapshot taken this long after the last byte is complete.
const StreamMeterLag = 1100 * time.Millisecond

// StreamBytes is the bytes read (In) and written (Out) on streams of one
// protocol.
type StreamBytes struct {
	In, Out int64
}

// ControlBytes returns the relay's own traffic in bytes: every stream's
// bytes, in and out, less the bytes it relayed through circuits (counted
// twice in the streams: read from one end's stream, written to the
// other's). It is exact once no circuit has carried a byte for
// StreamMeterLag, too low before (never negative).
func (s RelayStats) ControlBytes() int64 {
	var sum int64
	for _, b := range s.Streams {
		sum += b.In + b.Out
	}
	return max(sum-2*s.CircuitBytes, 0)
}

// Protocols returns the protocol IDs of Streams, sorted by their bytes
// (in and out), most first.
func (s RelayStats) Protocols() []protocol.ID {
	ids := slices.Collect(maps.Keys(s.Streams))
	slices.SortStableFunc(ids, func(a, b protocol.ID) int {
		x, y := s.Streams[a], s.Streams[b]
		if d := (y.In + y.Out) - (x.In + x.Out); d != 0 {
			return int(min(max(d, -1), 1))
		}
		return 0
	})
	return ids
}

// Sub returns what happened between an earlier snapshot old and s: the
// counts since the start and the stream bytes as differences, the counts
// of now (Reservations, CircuitsOpen) as they are in s.
func (s RelayStats) Sub(old RelayStats) RelayStats {
	d := s
	d.ReservationsMade -= old.ReservationsMade
	d.Circuits -= old.Circuits
	d.CircuitBytes -= old.CircuitBytes
	d.Streams = make(map[protocol.ID]StreamBytes, len(s.Streams))
	for id, b := range s.Streams {
		o := old.Streams[id]
		if b.In != o.In || b.Out != o.Out {
			d.Streams[id] = StreamBytes{In: b.In - o.In, Out: b.Out - o.Out}
		}
	}
	return d
}

// relayCounter is the relay service's relay.MetricsTracer: it counts
// reservations, circuits and their bytes with atomics, for Relay.Stats.
type relayCounter struct {
	reservations, reservationsMade atomic.Int64
	circuitsOpen, circuits         atomic.Int64
	circuitBytes                   atomic.Int64
}

var _ relay.MetricsTracer = (*relayCounter)(nil)

func (c *relayCounter) RelayStatus(bool) {}

func (c *relayCounter) ConnectionOpened() {
	c.circuits.Add(1)
	c.circuitsOpen.Add(1)
}

func (c *relayCounter) ConnectionClosed(time.Duration) {
	c.circuitsOpen.Add(-1)
}

func (c *relayCounter) ConnectionRequestHandled(pbv2.Status) {}

func (c *relayCounter) ReservationAllowed(isRenewal bool) {
	c.reservationsMade.Add(1)
	if !isRenewal {
		c.reservations.Add(1)
	}
}

func (c *relayCounter) ReservationClosed(cnt int) {
	c.reservations.Add(-int64(cnt))
}

func (c *relayCounter) ReservationRequestHandled(pbv2.Status) {}

func (c *relayCounter) BytesTransferred(cnt int) {
	c.circuitBytes.Add(int64(cnt))
}

// Stats returns what the relay has done since NewRelay: reservations,
// circuits, the bytes relayed through circuits and its streams' bytes by
// protocol (see RelayStats). It is safe to call at any time, also after
// Close (the counts stop).
func (r *Relay) Stats() RelayStats {
	s := RelayStats{
		Reservations:     max(r.counter.reservations.Load(), 0),
		ReservationsMade: r.counter.reservationsMade.Load(),
		CircuitsOpen:     max(r.counter.circuitsOpen.Load(), 0),
		Circuits:         r.counter.circuits.Load(),
		CircuitBytes:     r.counter.circuitBytes.Load(),
		Streams:          map[protocol.ID]StreamBytes{},
	}
	for id, b := range r.bandwidth.GetBandwidthByProtocol() {
		s.Streams[id] = StreamBytes{In: b.TotalIn, Out: b.TotalOut}
	}
	return s
}

// String describes s on one line for a relay's operator: "4 reservations
// held, 0 circuits open (6 in all), 51234 B relayed through circuits,
// 7123 B of control traffic (/ipfs/id/push/1.0.0 3210 B, …)", the
// protocols most bytes first, at most four.
func (s RelayStats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d reservations held, %d circuits open (%d in all), %d B relayed through circuits, %d B of control traffic",
		s.Reservations, s.CircuitsOpen, s.Circuits, s.CircuitBytes, s.ControlBytes())
	for i, id := range s.Protocols() {
		switch {
		case i == 0:
			b.WriteString(" (")
		case i == 4:
			b.WriteString(", …")
		default:
			b.WriteString(", ")
		}
		if i == 4 {
			break
		}
		name := string(id)
		if name == "" {
			name = "negotiation"
		}
		fmt.Fprintf(&b, "%s %d B", name, s.Streams[id].In+s.Streams[id].Out)
	}
	if len(s.Streams) > 0 {
		b.WriteString(")")
	}
	return b.String()
}
