package natlab

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/node"
)

// What the relay carries once a table is direct, from the relay's own
// count (mentalmj relay --progress json --stats): the bytes it copied
// through circuits, and its streams' bytes by protocol. The NAT lab's
// iptables counters (Lab.Bytes) see the same from the wire, with the
// transport's overhead and the dials a NAT dropped.

// statsEvery is how often a lab relay prints its stats (relay --stats).
const statsEvery = "250ms"

// settleDirect bounds the wait, after every node saw every pair direct,
// for the nodes to close their relayed connections (each does once the
// table's stream to that peer runs on the direct one).
const settleDirect = 3 * time.Second

// relayStats is one "stats" event of a relay and when it was read.
type relayStats struct {
	at                                   time.Time
	final                                bool
	circuitsOpen, circuits, circuitBytes int64
	controlBytes, reservations, rsvMade  int64
	streams                              map[string]int64 // in+out bytes by protocol
}

// statsOf returns the stats events relay p printed so far, in order.
func statsOf(p *Proc) []relayStats {
	var out []relayStats
	times := p.Times()
	for i, ln := range p.Lines() {
		e, ok := eventOf[progress.RelayStats](ln)
		if !ok {
			continue
		}
		s := relayStats{at: times[i], final: e.Final, circuitsOpen: e.CircuitsOpen, circuits: e.Circuits,
			circuitBytes: e.CircuitBytes, controlBytes: e.ControlBytes, reservations: e.Reservations,
			rsvMade: e.ReservationsMade, streams: map[string]int64{}}
		for id, b := range e.Streams {
			s.streams[id] = b.In + b.Out
		}
		out = append(out, s)
	}
	return out
}

// carriedOnceDirect returns what relay p carried from the moment the
// table was direct to its exit: the bytes relayed through circuits and a
// line naming its control traffic by protocol. The window starts at its
// first stats line after direct that shows no circuit open or, if a
// circuit stays open (a pair left relayed), at its first line
// settleDirect after direct, or at its last line before exit if neither
// came; it ends with its line at exit. p must have exited
// (Proc.Interrupt); ok is false when it printed no stats.
func carriedOnceDirect(p *Proc, direct time.Time) (circuitBytes int64, control string, ok bool) {
	all := statsOf(p)
	if len(all) < 2 || !all[len(all)-1].final {
		return 0, "", false
	}
	// The line at exit always shows no circuit open (the relay closed
	// them): it never starts the window. With no line that does, nothing
	// changed since the last one before it.
	i := slices.IndexFunc(all[:len(all)-1], func(s relayStats) bool {
		return s.at.After(direct) && (s.circuitsOpen == 0 || s.at.After(direct.Add(settleDirect)))
	})
	if i < 0 {
		i = len(all) - 2
	}
	from, to := all[i], all[len(all)-1]
	// The stream bytes lag by up to a second (node.StreamMeterLag): count
	// them from a line that late, so that the circuits' last bytes before
	// the window are not taken for control traffic in it.
	streamsFrom := from
	if j := slices.IndexFunc(all, func(s relayStats) bool { return s.at.After(from.at.Add(node.StreamMeterLag)) }); j >= 0 && j < len(all)-1 {
		streamsFrom = all[j]
	}
	var parts []string
	ids := make([]string, 0, len(to.streams))
	for id := range to.streams {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if d := to.streams[id] - streamsFrom.streams[id]; d != 0 {
			if id == "" {
				id = "negotiation"
			}
			parts = append(parts, fmt.Sprintf("%s %d B", id, d))
		}
	}
	control = fmt.Sprintf("%d B of streams from %s to %s (%s); %d reservations made",
		to.controlBytes-streamsFrom.controlBytes, streamsFrom.at.Format("15:04:05.000"), to.at.Format("15:04:05.000"), strings.Join(parts, ", "), to.rsvMade-from.rsvMade)
	return to.circuitBytes - from.circuitBytes, control, true
}

// waitCircuitsClosed waits, at most settleDirect from direct, until relay
// p prints a stats line after direct with no circuit open.
func waitCircuitsClosed(ctx context.Context, p *Proc, direct time.Time) {
	for time.Now().Before(direct.Add(settleDirect)) && ctx.Err() == nil {
		if slices.ContainsFunc(statsOf(p), func(s relayStats) bool { return s.at.After(direct) && s.circuitsOpen == 0 }) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkCarriedCircuits checks that relay p, which has exited, relayed
// bytes through circuits: it carried pairs that were never direct.
func checkCarriedCircuits(t testing.TB, p *Proc) {
	t.Helper()
	all := statsOf(p)
	if len(all) == 0 || !all[len(all)-1].final {
		t.Errorf("%s printed no stats at exit", p.Name)
		return
	}
	if last := all[len(all)-1]; last.circuitBytes == 0 || last.circuits == 0 {
		t.Errorf("%s carried relayed pairs but counts %d circuits and %d circuit bytes", p.Name, last.circuits, last.circuitBytes)
	} else {
		t.Logf("%s carried %d bytes through %d circuits", p.Name, last.circuitBytes, last.circuits)
	}
}

// BenchmarkRelayIdle measures what a relay carries for players who only
// hold a reservation on it (docs/BENCHMARKS.md, "Playing from home"): four
// homes behind ordinary NATs run `mentalmj join --relay` with a table of
// three players who never come; once their start-up is over (25 s:
// reservation, identify, one AutoNAT v2 probe each) the relay's interface
// is counted for a minute per iteration, and reported per node and
// minute: the keep-alives of their connections to it, all that remains.
func BenchmarkRelayIdle(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute+time.Duration(b.N)*time.Minute)
	defer cancel()
	l := newLab(b, ctx)
	relayHost, err := l.AddPublic(ctx, "relay")
	if err != nil {
		b.Fatal(err)
	}
	names := []string{"alice", "bob", "carol", "dave"}
	players := homes(b, ctx, l, names, nil)
	_, relayAddr := startRelay(b, ctx, l, relayHost)
	args := []string{"--table", "lab", "--relay", relayAddr}
	for i := range 3 {
		args = append(args, "--peer", fmt.Sprintf("/ip4/%s.%d/tcp/4001/p2p/%s", PublicNet, 250+i, absentPeer(b)))
	}
	dir := b.TempDir()
	for _, h := range players {
		a := append(append([]string{"join", "--name", h.Name}, args...), playFlags(filepath.Join(dir, h.Name), 1)...)
		if _, err := l.Start(ctx, h, []string{"XDG_CONFIG_HOME=" + dir}, bin, append(a, "--connect-timeout", "1h")...); err != nil {
			b.Fatal(err)
		}
	}
	time.Sleep(25 * time.Second)
	b.ResetTimer()
	in0, out0, err := l.Bytes(ctx, relayHost)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	for range b.N {
		time.Sleep(time.Minute)
	}
	in1, out1, err := l.Bytes(ctx, relayHost)
	if err != nil {
		b.Fatal(err)
	}
	perNodeMin := float64(in1-in0+out1-out0) / float64(len(names)) / time.Since(start).Minutes()
	b.ReportMetric(perNodeMin, "relay-B/node/min")
	b.ReportMetric(0, "ns/op")
}
