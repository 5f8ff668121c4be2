package natlab

import (
	"context"
	"fmt"
	"os"
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
	// flags are more flags for every player.
	flags []string
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
	return fmt.Sprintf("%d/6 pairs direct (%d over IPv6), exit codes %v, hands audited %d, to direct %s; paths: %s",
		r.direct, r.ipv6, r.codes, r.handsOK, r.toDirect.Round(time.Millisecond), strings.Join(paths, "; "))
}

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
	relay, relayAddr := startRelay(t, ctx, l, relayHost)
	// A pair left without a path ends the game in 20 s, not 2 minutes.
	tb := startTable(t, ctx, l, hosts, sc.hands, append([]string{"--relay", relayAddr, "--reconnect-grace", "20s"}, sc.flags...)...)
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
	res := scenarioResult{paths: map[string]int{}, codes: map[string]int{}}
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
	if res.direct < 6 && os.Getenv("NATLAB_DEBUG") == "" {
		tb.logTimeline(t) // what a pair that stayed relayed went through
	}
	return res
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
		// The control of player-relay: the same homes, every player
		// with --no-player-relay, so that dave's pairs with bob and
		// carol have no path once the relay stops.
		{name: "player-relay-off", home: func(p string) Home {
			return Home{Random: p == "dave", Forward: p == "alice"}
		}, hands: 3, flags: []string{"--no-player-relay"}},
		{name: "upnp", home: func(p string) Home {
			return Home{Random: p == "dave", UPnP: p == "dave"}
		}, hands: 2},
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
			}
			t.Logf("%s: 6/6 direct in %d of %d tables; all exit 0 in %d of %d", sc.name, allDirect, tables, allZero, tables)
		})
	}
}
