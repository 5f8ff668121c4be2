package natlab

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/internal/progress"
)

// The routers people have (issue 29): home routers that drop, reject or
// leave to their kernel the answer to an unsolicited packet; dual-stack
// IPv6 homes; loss on the home link; a home renumbered mid-game; a
// carrier-grade NAT in front of two homes; a router with UPnP/NAT-PMP.
// Every player runs the real binary on the default listen addresses
// (TCP and QUIC on 4001, IPv4 and IPv6).

// scenario is one lab table: four players, each in a home of its own
// unless named in cgn (those share one carrier-grade NAT).
type scenario struct {
	name string
	// home returns the home of the named player (its Name and Players
	// are filled in).
	home func(player string) Home
	// cgn names the players whose homes sit behind one CGN.
	cgn []string
	// hands to play; the relay stops after hand 1 unless keepRelay.
	hands     int
	keepRelay bool
	// after, if set, runs once every node has played hand 1 (renumbering
	// a home).
	after func(t testing.TB, ctx context.Context, l *Lab)
	// flags are more flags for every player; relayFlags for the relay
	// (e.g. a public relay's limits).
	flags, relayFlags []string
	// check, if set, fails t unless one table's result meets the
	// scenario's target.
	check func(t testing.TB, r scenarioResult)
}

// scenarioResult is what one table of a scenario measured.
type scenarioResult struct {
	direct   int            // pairs (of 6) both of whose players ended direct
	ipv6     int            // of those, over IPv6 on both sides
	paths    map[string]int // path texts at the end, counted over all 12 views
	codes    map[string]int // exit code by player
	toDirect time.Duration  // all connected → every pair direct (0 if never)
	handsOK  int            // hands audited ok, summed over the players
	// possible counts the pairs the scenario's homes allow to go
	// direct (canGoDirect), possibleDirect those of them both of whose
	// players reported the other direct at some moment, and toPossible
	// the time from all connected to the last of those moments (0
	// unless possibleDirect == possible, or if they came before all
	// connected).
	possible, possibleDirect int
	toPossible               time.Duration
	// pairDirect says, for each pair "a-b" (seating order), whether
	// both ended direct.
	pairDirect map[string]bool
	// tb and relay are the table's players and the relay, all exited
	// (a kept relay is stopped once the players are done).
	tb    *table
	relay *Proc
}

// allExitZero reports whether every player exited 0.
func (r scenarioResult) allExitZero() bool {
	for _, c := range r.codes {
		if c != 0 {
			return false
		}
	}
	return len(r.codes) == 4
}

func (r scenarioResult) String() string {
	var paths []string
	for p, n := range r.paths {
		paths = append(paths, fmt.Sprintf("%d× %s", n, p))
	}
	slices.Sort(paths)
	toPossible := "never"
	if r.possibleDirect == r.possible {
		toPossible = r.toPossible.Round(time.Millisecond).String()
	}
	return fmt.Sprintf("%d/6 pairs direct (%d over IPv6), exit codes %v, hands audited %d, to direct %s, %d of %d possible pairs direct, to every possible pair direct %s; paths: %s",
		r.direct, r.ipv6, r.codes, r.handsOK, r.toDirect.Round(time.Millisecond), r.possibleDirect, r.possible, toPossible, strings.Join(paths, "; "))
}

// tcpOnly are the players' flags of the -tcp scenarios: TCP on port
// 4001, IPv4, and nothing else.
var tcpOnly = []string{"--listen", "/ip4/0.0.0.0/tcp/4001"}

// players of every scenario, in seating order (alice hosts).
var players4 = []string{"alice", "bob", "carol", "dave"}

// runScenario builds sc's lab, runs one table in it with one relay of
// real limits, and returns what it measured. It fails t only when the
// lab cannot be built or a node never gets as far as hand 1 while the
// relay runs; the caller checks the targets.
func runScenario(t testing.TB, ctx context.Context, sc scenario) scenarioResult {
	t.Helper()
	l := newLab(t, ctx)
	relayHost, err := l.AddPublic(ctx, "relay")
	if err != nil {
		t.Fatal(err)
	}
	var cgn *CGN
	if len(sc.cgn) > 0 {
		if cgn, err = l.AddCGN(ctx, "cgn"); err != nil {
			t.Fatal(err)
		}
	}
	var hosts []Host
	for _, name := range players4 {
		h := Home{}
		if sc.home != nil {
			h = sc.home(name)
		}
		h.Name, h.Players = "home-"+name, []string{name}
		if slices.Contains(sc.cgn, name) {
			h.CGN = cgn
		}
		hs, err := l.AddHome(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		hosts = append(hosts, hs...)
	}
	relay, relayAddr := startRelay(t, ctx, l, relayHost, sc.relayFlags...)
	// A pair left without a path ends the game in 20 s, not 2 minutes.
	started := time.Now()
	tb := startTable(t, ctx, l, hosts, sc.hands, append([]string{"--relay", relayAddr, "--reconnect-grace", "20s"}, sc.flags...)...)
	if dir := os.Getenv("NATLAB_LOGDIR"); dir != "" && verbose() {
		// The routers' conntrack tables and the players' sockets while
		// the hole punches run, for a table studied afterwards.
		if cgn != nil {
			// The CGN's two sides for the first 15 s: the hole punches.
			go func() {
				out := filepath.Join(dir, l.prefix)
				_ = os.MkdirAll(out, 0o755)
				_ = exec.CommandContext(ctx, "ip", "netns", "exec", cgn.NS, "timeout", "15",
					"tcpdump", "-i", "any", "-n", "-U", "-w", filepath.Join(out, "cgn.pcap")).Run()
			}()
		}
		// Each home router's two sides for the first 15 s, TCP and UDP
		// between homes (the hole punches; the relay's traffic left out).
		for _, h := range hosts {
			if ns, _ := l.Router("home-" + h.Name); ns != "" {
				go func() {
					out := filepath.Join(dir, l.prefix)
					_ = os.MkdirAll(out, 0o755)
					_ = exec.CommandContext(ctx, "ip", "netns", "exec", ns, "timeout", "15",
						"tcpdump", "-i", "any", "-n", "-U", "-w", filepath.Join(out, "router-"+h.Name+".pcap"),
						"not", "host", relayHost.IP).Run()
				}()
			}
		}
		go func() {
			for _, at := range []time.Duration{3 * time.Second, 8 * time.Second, 13 * time.Second} {
				time.Sleep(at - time.Since(started))
				snapshotState(ctx, l, hosts, cgn, filepath.Join(dir, l.prefix), at)
			}
		}()
	}
	for _, p := range tb.procs {
		if _, err := p.WaitLine(ctx, "the end of hand 1", isEvent[progress.Hand]); err != nil {
			// A table that fails counts as one; the scenario goes on.
			t.Logf("%s table failed before the end of hand 1: %v", sc.name, tail(err.Error(), 600))
			tb.logTimeline(t)
			break
		}
	}
	if sc.after != nil {
		sc.after(t, ctx, l)
	}
	if !sc.keepRelay {
		relay.Interrupt(5 * time.Second)
	}
	res := scenarioResult{paths: map[string]int{}, codes: map[string]int{}, pairDirect: map[string]bool{}, tb: tb, relay: relay}
	for _, p := range tb.procs {
		code, err := p.Wait(ctx)
		if err != nil {
			t.Errorf("%v", err)
			p.Kill()
			code = -1
		}
		res.codes[p.Name] = code
		for _, h := range events[progress.Hand](p) {
			if h.AuditOK {
				res.handsOK++
			}
		}
	}
	if sc.keepRelay {
		relay.Interrupt(5 * time.Second) // its stats at exit
	}
	views := map[string]map[string]progress.Path{} // player → peer name → last path
	ids := seatIDs(tb)
	for _, p := range tb.procs {
		views[p.Name] = map[string]progress.Path{}
		for id, e := range lastPaths(p) {
			views[p.Name][ids[id]] = e
			res.paths[e.Text]++
		}
	}
	for i, a := range players4 {
		for _, b := range players4[i+1:] {
			ab, ba := views[a][b], views[b][a]
			res.pairDirect[a+"-"+b] = ab.Direct && ba.Direct
			if ab.Direct && ba.Direct {
				res.direct++
				if strings.Contains(ab.Text, "IPv6") && strings.Contains(ba.Text, "IPv6") {
					res.ipv6++
				}
			}
		}
	}
	if at, ok := tb.allDirectAt(); ok {
		res.toDirect = at.Sub(tb.connectedAt())
	}
	first := firstDirect(tb, ids)
	var last time.Time
	for i, a := range players4 {
		for _, b := range players4[i+1:] {
			if !canGoDirect(sc, a, b) {
				continue
			}
			res.possible++
			ab, okA := first[a][b]
			ba, okB := first[b][a]
			if okA && okB {
				res.possibleDirect++
				last = latest(last, ab, ba)
			}
		}
	}
	if res.possibleDirect == res.possible {
		// 0 when they were direct before the last node said that every
		// player was connected (its "connected" comes after its paths).
		res.toPossible = max(last.Sub(tb.connectedAt()), 0)
	}
	if res.direct < 6 && os.Getenv("NATLAB_DEBUG") == "" {
		tb.logTimeline(t) // what a pair that stayed relayed went through
	}
	return res
}

// canGoDirect reports whether the homes of scenario sc allow players a
// and b a direct connection, from how the lab builds them (not from any
// result): one of them reachable from the Internet (a forwarded port, or
// a UPnP/NAT-PMP router, not behind a CGN); both with IPv6 (a stateful
// firewall lets a hole punch through); or both behind NATs that keep a
// socket's port (not Random), and not behind the same CGN (which does
// not hairpin).
func canGoDirect(sc scenario, a, b string) bool {
	ha, hb := Home{}, Home{}
	if sc.home != nil {
		ha, hb = sc.home(a), sc.home(b)
	}
	cgnA, cgnB := slices.Contains(sc.cgn, a), slices.Contains(sc.cgn, b)
	reachable := func(h Home, behindCGN bool) bool { return (h.Forward || h.UPnP) && !behindCGN }
	switch {
	case reachable(ha, cgnA) || reachable(hb, cgnB):
		return true
	case ha.IPv6 && hb.IPv6:
		return true
	case ha.Random || hb.Random:
		return false
	default:
		return !(cgnA && cgnB)
	}
}

// firstDirect returns, for each player of tb, when it first reported
// each peer (by name) direct.
func firstDirect(tb *table, ids map[string]string) map[string]map[string]time.Time {
	out := map[string]map[string]time.Time{}
	for _, p := range tb.procs {
		out[p.Name] = map[string]time.Time{}
		times := p.Times()
		for i, ln := range p.Lines() {
			e, ok := eventOf[progress.Path](ln)
			if !ok || !e.Direct {
				continue
			}
			if _, seen := out[p.Name][ids[e.Peer]]; !seen {
				out[p.Name][ids[e.Peer]] = times[i]
			}
		}
	}
	return out
}

// latest returns the latest of ts.
func latest(ts ...time.Time) time.Time {
	var last time.Time
	for _, t := range ts {
		if t.After(last) {
			last = t
		}
	}
	return last
}

// seatIDs maps peer IDs to player names, from the host's seating.
func seatIDs(tb *table) map[string]string {
	ids := map[string]string{}
	for _, p := range tb.procs {
		for _, e := range events[progress.Seats](p) {
			for i, id := range e.Seats {
				ids[id] = e.Nicks[i]
			}
		}
	}
	return ids
}

// routerScenarios are the scenarios of TestRouters, by name.
func routerScenarios() []scenario {
	every := func(h Home) func(string) Home { return func(string) Home { return h } }
	return []scenario{
		{name: "drop", home: every(Home{Answer: AnswerDrop}), hands: 2},
		{name: "reject", home: every(Home{Answer: AnswerReject}), hands: 2},
		{name: "none", home: every(Home{Answer: AnswerNone}), hands: 2},
		// The same routers with the players on TCP alone (IPv4): the
		// TCP hole punch, which QUIC's otherwise hides (the low-TTL
		// opener's TCP race, docs/BENCHMARKS.md).
		{name: "drop-tcp", home: every(Home{Answer: AnswerDrop}), hands: 2, flags: tcpOnly},
		{name: "reject-tcp", home: every(Home{Answer: AnswerReject}), hands: 2, flags: tcpOnly},
		{name: "none-tcp", home: every(Home{Answer: AnswerNone}), hands: 2, flags: tcpOnly},
		{name: "ipv6-random", home: every(Home{IPv6: true, Random: true, Answer: AnswerReject}), hands: 2},
		{name: "loss", home: every(Home{Loss: 0.02}), hands: 3},
		{name: "renumber", home: every(Home{}), hands: 3, keepRelay: true,
			after: func(t testing.TB, ctx context.Context, l *Lab) {
				wan, err := l.Renumber(ctx, "home-carol")
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("carol's home renumbered to %s", wan)
			}},
		{name: "cgn", home: every(Home{}), cgn: []string{"alice", "bob"}, hands: 2, keepRelay: true},
		// Players relay for each other: dave's NAT gives a new port per
		// destination, so no hole punch reaches him; alice's router
		// forwards her port. Once the relay stops after hand 1, dave
		// reaches bob and carol through alice's table relay.
		{name: "player-relay", home: func(p string) Home {
			return Home{Random: p == "dave", Forward: p == "alice"}
		}, hands: 3, check: func(t testing.TB, r scenarioResult) {
			if !r.allExitZero() {
				t.Errorf("player-relay: exit codes %v, want all 0", r.codes)
			}
			viaPlayer := 0
			for text, n := range r.paths {
				if strings.HasPrefix(text, "relayed via alice (a player)") {
					viaPlayer += n
				}
			}
			if viaPlayer == 0 {
				t.Errorf("player-relay: no pair relayed via alice (a player): %v", r)
			}
		}},
		// Off the public relay before hand 1: the homes of
		// player-relay, but the only relay has a public relay's limits
		// (2 minutes, 128 KiB) and stays up for the whole game. dave's
		// pairs with bob and carol meet on its limited circuits (no
		// player reaches the others yet) and, once the wait for direct
		// paths is over, move onto alice's table relay: "relayed via
		// alice (a player)" before hand 1, and not one byte through the
		// public relay's circuits from then on.
		{name: "player-relay-public", home: func(p string) Home {
			return Home{Random: p == "dave", Forward: p == "alice"}
		}, hands: 3, keepRelay: true, relayFlags: []string{"--limit-duration", "2m", "--limit-data", "128KiB"},
			check: checkOffPublicRelay},
		// The same with no player relaying (--no-player-relay
		// everywhere): dave's pairs have nowhere to move, stay on the
		// public relay's limited circuits, and the game is refused
		// before hand 1 (exit 3, no blame, no hand played).
		{name: "player-relay-public-off", home: func(p string) Home {
			return Home{Random: p == "dave", Forward: p == "alice"}
		}, hands: 3, keepRelay: true, relayFlags: []string{"--limit-duration", "2m", "--limit-data", "128KiB"},
			flags: []string{"--no-player-relay"}, check: checkRefusedOnPublicRelay},
		// The control of player-relay: the same homes, every player
		// with --no-player-relay, so that dave's pairs with bob and
		// carol have no path once the relay stops.
		{name: "player-relay-off", home: func(p string) Home {
			return Home{Random: p == "dave", Forward: p == "alice"}
		}, hands: 3, flags: []string{"--no-player-relay"}},
		// dave's NAT gives a new port per destination, but his router
		// maps his port on request (UPnP IGD / NAT-PMP): his peers dial
		// him at the mapped address, and the game goes on without the
		// relay.
		{name: "upnp", home: func(p string) Home {
			return Home{Random: p == "dave", UPnP: p == "dave"}
		}, hands: 2, check: func(t testing.TB, r scenarioResult) {
			if !r.allExitZero() {
				t.Errorf("upnp: exit codes %v, want all 0", r.codes)
			}
			for _, pair := range []string{"alice-dave", "bob-dave", "carol-dave"} {
				if !r.pairDirect[pair] {
					t.Errorf("upnp: %s not direct at the end: %v", pair, r)
				}
			}
		}},
	}
}

// TestRouters runs one table per router scenario and logs what it
// measured. It is long (about 30 s a scenario): it runs only with
// NATLAB_ROUTERS set, to the number of tables per scenario ("1" for
// one), and NATLAB_SCENARIOS may name a comma-separated subset. The
// assertions are the targets where the node meets them today
// (see docs/BENCHMARKS.md, "The routers people have").
func TestRouters(t *testing.T) {
	tables, _ := strconv.Atoi(os.Getenv("NATLAB_ROUTERS"))
	if tables <= 0 {
		t.Skip("set NATLAB_ROUTERS=N (tables per scenario) to run the router scenarios (about 30 s a table)")
	}
	only := map[string]bool{}
	for _, s := range strings.Split(os.Getenv("NATLAB_SCENARIOS"), ",") {
		if s != "" {
			only[s] = true
		}
	}
	for _, sc := range routerScenarios() {
		if len(only) > 0 && !only[sc.name] {
			continue
		}
		t.Run(sc.name, func(t *testing.T) {
			allDirect, allZero := 0, 0
			var toPossible []time.Duration // of the tables where every possible pair went direct
			for i := range tables {
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
				res := runScenario(t, ctx, sc)
				cancel()
				t.Logf("%s table %d: %v", sc.name, i+1, res)
				if sc.check != nil {
					sc.check(t, res)
				}
				if res.direct == 6 {
					allDirect++
				}
				if res.allExitZero() {
					allZero++
				}
				if res.possibleDirect == res.possible {
					toPossible = append(toPossible, res.toPossible)
				}
			}
			t.Logf("%s: 6/6 direct in %d of %d tables; all exit 0 in %d of %d", sc.name, allDirect, tables, allZero, tables)
			if len(toPossible) > 0 {
				slices.Sort(toPossible)
				t.Logf("%s: every possible pair direct in %d of %d tables; all connected → every possible pair direct: median %s, min %s, max %s",
					sc.name, len(toPossible), tables, toPossible[len(toPossible)/2].Round(time.Millisecond),
					toPossible[0].Round(time.Millisecond), toPossible[len(toPossible)-1].Round(time.Millisecond))
			}
		})
	}
}

// TestCanGoDirect checks canGoDirect on the scenarios against the pairs
// worked out by hand from how each home is built (no lab needed).
func TestCanGoDirect(t *testing.T) {
	want := map[string][]string{ // the pairs that cannot go direct
		"drop":         nil,
		"ipv6-random":  nil, // IPv6 at every home
		"cgn":          {"alice-bob"},
		"player-relay": {"bob-dave", "carol-dave"}, // alice's port is forwarded
		"upnp":         nil,                        // dave's router maps his port
	}
	for _, sc := range routerScenarios() {
		cannot, ok := want[sc.name]
		if !ok {
			continue
		}
		for i, a := range players4 {
			for _, b := range players4[i+1:] {
				if got, w := canGoDirect(sc, a, b), !slices.Contains(cannot, a+"-"+b); got != w {
					t.Errorf("%s: canGoDirect(%s, %s) = %v, want %v", sc.name, a, b, got, w)
				}
			}
		}
	}
}

// checkOffPublicRelay checks a table of player-relay-public: every player
// exits 0; each side of dave's pairs with bob and carol reports
// "relayed via alice (a player)" before its hand 1 begins (its seating
// line), and the public relay's circuits carry 0 B from the moment the
// last of them did. It logs the bytes they carried before (meeting, hole
// punching) and the time from "all players connected" to the move.
func checkOffPublicRelay(t testing.TB, r scenarioResult) {
	t.Helper()
	if !r.allExitZero() {
		t.Errorf("player-relay-public: exit codes %v, want all 0", r.codes)
	}
	ids := seatIDs(r.tb)
	var alice string
	for id, name := range ids {
		if name == "alice" {
			alice = id
		}
	}
	pairs := map[string][]string{"dave": {"bob", "carol"}, "bob": {"dave"}, "carol": {"dave"}}
	var moved time.Time
	for _, p := range r.tb.procs {
		var seated time.Time
		times := p.Times()
		first := map[string]time.Time{}
		for i, ln := range p.Lines() {
			if isEvent[progress.Seats](ln) && seated.IsZero() {
				seated = times[i]
			}
			if e, ok := eventOf[progress.Path](ln); ok && e.RelayPlayer && e.Relay == alice {
				if _, ok := first[ids[e.Peer]]; !ok {
					first[ids[e.Peer]] = times[i]
				}
			}
		}
		for _, peer := range pairs[p.Name] {
			at, ok := first[peer]
			switch {
			case !ok:
				t.Errorf("%s never reported %s relayed via alice (a player)", p.Name, peer)
			case seated.IsZero() || !at.Before(seated):
				t.Errorf("%s reported %s relayed via alice at %s, not before its hand 1 (seated at %s)", p.Name, peer, at.Format("15:04:05.000"), seated.Format("15:04:05.000"))
			case at.After(moved):
				moved = at
			}
		}
	}
	if moved.IsZero() {
		return
	}
	all := statsOf(r.relay)
	if len(all) == 0 {
		t.Errorf("the public relay printed no stats")
		return
	}
	connected := r.tb.connectedAt()
	after, control, ok := carriedOnceDirect(r.relay, moved)
	if !ok {
		t.Errorf("the public relay printed no stats at exit")
		return
	}
	last := all[len(all)-1]
	// What went through the circuits after the move but before the
	// relay's last circuit closed: other pairs' hole punching (their
	// circuits close once they are direct, or moved).
	var atMoved int64
	closed := time.Time{}
	for _, s := range all {
		if !s.at.After(moved) {
			atMoved = s.circuitBytes
		} else if closed.IsZero() && s.circuitsOpen == 0 {
			closed = s.at
		}
	}
	var seated time.Time
	for _, p := range r.tb.procs {
		for i, ln := range p.Lines() {
			if isEvent[progress.Seats](ln) && (seated.IsZero() || p.Times()[i].Before(seated)) {
				seated = p.Times()[i]
			}
		}
	}
	since := func(at time.Time) string {
		if at.IsZero() {
			return "never"
		}
		return at.Sub(connected).Round(time.Millisecond).String()
	}
	t.Logf("public relay: %d B through %d circuits in all (meeting, identify, hole punching); after all connected: dave's pairs on alice at %s, the relay's last circuit closed at %s, the first seating (hand 1) at %s; %d B through circuits between the move and that close, %d B after it (%s)",
		last.circuitBytes, last.circuits, since(moved), since(closed), since(seated),
		last.circuitBytes-atMoved-after, after, control)
	if after != 0 {
		t.Errorf("the public relay's limited circuits carried %d B after dave's pairs moved onto alice, want 0", after)
	}
}

// snapshotState writes the conntrack table of every home router and the
// TCP and UDP sockets of every player into dir/state-AT.txt
// (NATLAB_VERBOSE with NATLAB_LOGDIR), and the conntrack table of cgn
// if it is not nil (TestRouters also captures the CGN's packets of the
// first 15 s into cgn.pcap there).
func snapshotState(ctx context.Context, l *Lab, hosts []Host, cgn *CGN, dir string, at time.Duration) {
	var b strings.Builder
	if cgn != nil {
		out, err := exec.CommandContext(ctx, "ip", "netns", "exec", cgn.NS, "conntrack", "-L").CombinedOutput()
		fmt.Fprintf(&b, "== carrier-grade NAT %s (%s, %s), err %v\n%s\n", cgn.Name, cgn.NS, cgn.IP, err, out)
	}
	for _, h := range hosts {
		if ns, _ := l.Router("home-" + h.Name); ns != "" {
			out, err := exec.CommandContext(ctx, "ip", "netns", "exec", ns, "conntrack", "-L").CombinedOutput()
			fmt.Fprintf(&b, "== router of %s (%s), err %v\n%s\n", h.Name, ns, err, out)
		}
		out, err := exec.CommandContext(ctx, "ip", "netns", "exec", h.NS, "ss", "-tanu").CombinedOutput()
		fmt.Fprintf(&b, "== sockets of %s, err %v\n%s\n", h.Name, err, out)
	}
	if err := os.MkdirAll(dir, 0o755); err == nil {
		_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("state-%02.0fs.txt", at.Seconds())), []byte(b.String()), 0o644)
	}
}

// checkRefusedOnPublicRelay checks a table of player-relay-public-off: no
// hand is played, nobody exits 0, no player is blamed, and dave refuses
// the game naming his pairs left on the public relay's limited circuits.
func checkRefusedOnPublicRelay(t testing.TB, r scenarioResult) {
	t.Helper()
	if r.handsOK != 0 {
		t.Errorf("player-relay-public-off: %d hands played on a public relay's limited circuits", r.handsOK)
	}
	for _, p := range r.tb.procs {
		if r.codes[p.Name] == 0 {
			t.Errorf("%s exited 0 though the network cannot carry the game", p.Name)
		}
		if bs := events[progress.Blame](p); len(bs) > 0 {
			t.Errorf("%s blamed a player: %+v", p.Name, bs)
		}
		if p.Name == "dave" && !strings.Contains(p.Stderr(), "not starting a game the network cannot carry") {
			t.Errorf("dave did not refuse the game: %s", tail(p.Stderr(), 600))
		}
	}
}
