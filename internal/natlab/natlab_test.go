package natlab

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/internal/progress"
)

// bin is the mentalmj binary under test, built once by TestMain with the
// natlab tag; "" if no lab can run here (the tests skip).
var bin string

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(func() int {
		if Available() != nil || testing.Short() {
			return m.Run()
		}
		dir, err := os.MkdirTemp("", "natlab")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		bin = filepath.Join(dir, "mentalmj")
		out, err := exec.Command("go", "build", "-tags", "natlab", "-o", bin, "github.com/mentalmj/mentalmj/cmd/mentalmj").CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
			return 1
		}
		return m.Run()
	}())
}

// labs counts the labs built, to name their namespaces apart.
var labs int

// newLab builds an empty lab for t, deleted at the end of t, or skips t
// with the reason a lab cannot be built here.
func newLab(t testing.TB, ctx context.Context) *Lab {
	t.Helper()
	if err := Available(); err != nil {
		t.Skip(err)
	}
	if bin == "" {
		t.Skip("natlab: -short")
	}
	labs++
	// Two letters: a TestRouters scenario keeps its labs (one a table)
	// until it ends, and more than 26 of them reused a name ("File
	// exists" at the 27th table).
	l, err := New(ctx, fmt.Sprintf("mmj%d%c%c", os.Getpid()%100000, 'a'+labs/26%26, 'a'+labs%26))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if dir := os.Getenv("NATLAB_LOGDIR"); dir != "" {
			saveLogs(t, l, filepath.Join(dir, l.prefix))
		}
		if err := l.Close(); err != nil {
			t.Errorf("cleaning up the lab: %v", err)
		}
	})
	return l
}

// saveLogs writes the stdout (each line with its time) and stderr of
// every process l started into dir, one file each, for runs that are
// studied afterwards (NATLAB_LOGDIR).
func saveLogs(t testing.TB, l *Lab, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Logf("saving the lab's logs: %v", err)
		return
	}
	l.mu.Lock()
	procs := append([]*Proc(nil), l.procs...)
	l.mu.Unlock()
	for i, p := range procs {
		var b strings.Builder
		times := p.Times()
		for j, ln := range p.Lines() {
			fmt.Fprintf(&b, "%s %s\n", times[j].UTC().Format("15:04:05.000"), ln)
		}
		base := filepath.Join(dir, fmt.Sprintf("%02d-%s", i, p.Name))
		if err := errors.Join(os.WriteFile(base+".out", []byte(b.String()), 0o644),
			os.WriteFile(base+".err", []byte(p.Stderr()), 0o644)); err != nil {
			t.Logf("saving the lab's logs: %v", err)
		}
	}
	t.Logf("the lab's logs are in %s", dir)
}

// eventOf reads one line of a node's --progress json output as the event
// of type T (progress.Decode): ok false for a text line, another event or
// one that does not decode.
func eventOf[T progress.Event](line string) (e T, ok bool) {
	d, err := progress.Decode([]byte(line))
	if err != nil {
		return e, false
	}
	e, ok = d.(T)
	return e, ok
}

// isEvent reports whether line is an event of type T.
func isEvent[T progress.Event](line string) bool {
	_, ok := eventOf[T](line)
	return ok
}

// events returns p's events of type T so far, in order.
func events[T progress.Event](p *Proc) []T {
	var out []T
	for _, ln := range p.Lines() {
		if e, ok := eventOf[T](ln); ok {
			out = append(out, e)
		}
	}
	return out
}

// startRelay runs `mentalmj relay` on h with extra flags and returns it
// with its first address.
func startRelay(t testing.TB, ctx context.Context, l *Lab, h Host, flags ...string) (*Proc, string) {
	t.Helper()
	args := append([]string{"relay", "--data-dir", filepath.Join(t.TempDir(), h.Name), "--progress", "json", "--stats", statsEvery}, flags...)
	var env []string
	if verbose() {
		// libp2p's circuit relay logs each reservation and circuit
		// (go-log reads GOLOG_LOG_LEVEL).
		args = append(args, "-v")
		env = append(env, "GOLOG_LOG_LEVEL=relay=debug")
	}
	p, err := l.Start(ctx, h, env, bin, args...)
	if err != nil {
		t.Fatal(err)
	}
	line, err := p.WaitLine(ctx, "the relay's address", func(s string) bool {
		e, _ := eventOf[progress.Address](s)
		return strings.HasPrefix(e.Addr, "/ip4/"+PublicNet)
	})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := eventOf[progress.Address](line)
	return p, e.Addr
}

// verbose reports whether NATLAB_VERBOSE asks for the processes' debug
// logs on stderr (see NATLAB_LOGDIR to keep them).
func verbose() bool { return os.Getenv("NATLAB_VERBOSE") != "" }

// table is four players in the lab: the host first.
type table struct {
	procs []*Proc
}

// playFlags are the flags every player of a lab table gets: bots, few
// hands, bounded waits.
func playFlags(dir string, hands int) []string {
	flags := []string{"--bot", "--hands", fmt.Sprint(hands), "--progress", "json", "--data-dir", dir,
		"--connect-timeout", "60s", "--timeout", "20s", "--turn-timeout", "20s", "--ui-linger", "0s"}
	if verbose() {
		flags = append(flags, "-v")
	}
	return flags
}

// startTable starts a host on players[0] and joins on the others with
// its invite; extra are flags for every node.
func startTable(t testing.TB, ctx context.Context, l *Lab, players []Host, hands int, extra ...string) *table {
	return startTableWith(t, ctx, l, players, hands, nil, extra...)
}

// startTableWith is startTable with more flags for some players, by name.
func startTableWith(t testing.TB, ctx context.Context, l *Lab, players []Host, hands int, own map[string][]string, extra ...string) *table {
	t.Helper()
	dir := t.TempDir()
	env := []string{"XDG_CONFIG_HOME=" + dir}
	if verbose() {
		// libp2p's hole punching logs each DCUtR round and dial
		// (go-log reads GOLOG_LOG_LEVEL).
		env = append(env, "GOLOG_LOG_LEVEL=p2p-holepunch=debug")
	}
	// The host chooses the game: no bust, so that a big win in hand 1
	// cannot end a run that must play every hand (a fresh-clone CI run
	// saw a dealer's sanbaiman end TestHomes/ordinary after one hand).
	args := append([]string{"host", "--table", "lab", "--name", players[0].Name, "--rule", "tobi=off"}, playFlags(filepath.Join(dir, players[0].Name), hands)...)
	host, err := l.Start(ctx, players[0], env, bin, append(append(args, extra...), own[players[0].Name]...)...)
	if err != nil {
		t.Fatal(err)
	}
	line, err := host.WaitLine(ctx, "the invite", isEvent[progress.Invite])
	if err != nil {
		t.Fatal(err)
	}
	inv, _ := eventOf[progress.Invite](line)
	code := inv.Invite
	tb := &table{procs: []*Proc{host}}
	t.Cleanup(func() {
		if t.Failed() || os.Getenv("NATLAB_DEBUG") != "" {
			tb.logTimeline(t)
		}
	})
	for _, h := range players[1:] {
		args := append([]string{"join", code, "--name", h.Name}, playFlags(filepath.Join(dir, h.Name), hands)...)
		p, err := l.Start(ctx, h, env, bin, append(append(args, extra...), own[h.Name]...)...)
		if err != nil {
			t.Fatal(err)
		}
		tb.procs = append(tb.procs, p)
	}
	return tb
}

// logTimeline logs every node's stdout with each line's time since the
// first node started, and the end of its stderr: what a failed lab run
// needs to be understood from CI's output alone.
func (tb *table) logTimeline(t testing.TB) {
	t.Helper()
	var start time.Time
	for _, p := range tb.procs {
		if ts := p.Times(); len(ts) > 0 && (start.IsZero() || ts[0].Before(start)) {
			start = ts[0]
		}
	}
	for _, p := range tb.procs {
		var b strings.Builder
		times := p.Times()
		for i, ln := range p.Lines() {
			if e, ok := eventOf[progress.Path](ln); ok {
				// The text says it all; the peer's ID, shortened.
				ln = fmt.Sprintf("path %.12s…: %v", e.Peer, e.Text)
			}
			if len(ln) > 300 {
				ln = ln[:300] + "…"
			}
			fmt.Fprintf(&b, "%8.2fs %s\n", times[i].Sub(start).Seconds(), ln)
		}
		t.Logf("%s stdout:\n%s\n%s stderr (end):\n%s", p.Name, tail(b.String(), 6000), p.Name, tail(p.Stderr(), 3000))
	}
}

// waitAll waits for every node of tb to exit and checks that each exited
// 0 having audited every hand.
func (tb *table) waitAll(t testing.TB, ctx context.Context, hands int) {
	t.Helper()
	for _, p := range tb.procs {
		code, err := p.Wait(ctx)
		if err != nil {
			t.Errorf("%v; stderr:\n%s", err, tail(p.Stderr(), 4000))
			continue
		}
		if code != 0 {
			t.Errorf("%s exited %d; stdout:\n%s\nstderr:\n%s", p.Name, code, tail(strings.Join(p.Lines(), "\n"), 3000), tail(p.Stderr(), 4000))
			continue
		}
		n := 0
		for _, h := range events[progress.Hand](p) {
			if !h.AuditOK {
				t.Errorf("%s: hand %d not audited ok: %+v", p.Name, h.Hand, h)
			}
			n++
		}
		if n != hands {
			t.Errorf("%s played %d hands, want %d", p.Name, n, hands)
		}
	}
}

// lastPaths returns, per peer, the last connected path event p printed
// (at the end of the game the others leave: "not connected").
func lastPaths(p *Proc) map[string]progress.Path {
	out := map[string]progress.Path{}
	for _, e := range events[progress.Path](p) {
		if e.Text != "not connected" {
			out[e.Peer] = e
		}
	}
	return out
}

// checkDirect checks that every node of tb ended with every peer direct.
func (tb *table) checkDirect(t testing.TB) {
	t.Helper()
	for _, p := range tb.procs {
		paths := lastPaths(p)
		if len(paths) != len(tb.procs)-1 {
			t.Errorf("%s reported paths to %d peers, want %d", p.Name, len(paths), len(tb.procs)-1)
		}
		for peer, e := range paths {
			if !e.Direct {
				t.Errorf("%s: path to %s is %v", p.Name, peer, e.Text)
			}
		}
	}
}

// allDirectAt returns when every node of tb first had every peer direct
// (the latest of the nodes' moments), and whether all did.
func (tb *table) allDirectAt() (time.Time, bool) {
	var last time.Time
	for _, p := range tb.procs {
		paths := map[string]bool{}
		times := p.Times()
		found := false
		for i, ln := range p.Lines() {
			e, ok := eventOf[progress.Path](ln)
			if !ok {
				continue
			}
			paths[e.Peer] = e.Direct
			n := 0
			for _, d := range paths {
				if d {
					n++
				}
			}
			if n == len(tb.procs)-1 {
				if times[i].After(last) {
					last = times[i]
				}
				found = true
				break
			}
		}
		if !found {
			return time.Time{}, false
		}
	}
	return last, true
}

// connectedAt returns when the last node of tb reported every player
// connected (through the relay).
func (tb *table) connectedAt() time.Time {
	var last time.Time
	for _, p := range tb.procs {
		times := p.Times()
		for i, ln := range p.Lines() {
			if isEvent[progress.Connected](ln) && times[i].After(last) {
				last = times[i]
			}
		}
	}
	return last
}

// handMs returns the mean duration of the hands the nodes of tb played, in
// ms.
func (tb *table) handMs() float64 {
	sum, n := 0.0, 0
	for _, p := range tb.procs {
		for _, h := range events[progress.Hand](p) {
			sum += h.DurationMs
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// checkNoFault checks that no node of tb reported a fault or a blame.
func (tb *table) checkNoFault(t testing.TB) {
	t.Helper()
	for _, p := range tb.procs {
		for _, e := range events[progress.Fault](p) {
			t.Errorf("%s reported a fault: %+v", p.Name, e)
		}
		for _, e := range events[progress.Blame](p) {
			t.Errorf("%s reported a blame: %+v", p.Name, e)
		}
	}
}

// homes adds one home per player name, each behind an ordinary router
// except those named in random.
func homes(t testing.TB, ctx context.Context, l *Lab, names []string, random map[string]bool) []Host {
	t.Helper()
	var players []Host
	for _, name := range names {
		hs, err := l.AddHome(ctx, Home{Name: "home-" + name, Players: []string{name}, Random: random[name]})
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, hs...)
	}
	return players
}

// ordinaryResult is what one run of the ordinary-homes scenario measured.
type ordinaryResult struct {
	toDirect   time.Duration // from all connected through the relay to all six pairs direct
	relayBytes int64         // bytes through the relay's interface during hand 1, once direct
	window     time.Duration // the time relayBytes were counted in
	// circuitBytes is what the relay relayed through circuits once the
	// table was direct, to its stop after hand 1; relayControl names its
	// own streams' bytes then (carriedOnceDirect).
	circuitBytes int64
	relayControl string
	handsLost    int     // hands not audited ok, of 4 per node
	handMs       float64 // mean hand time
}

// runOrdinary: four homes behind ordinary NATs meet by invite through one
// relay (real limits) and play four hands; the relay is stopped once
// hand 1 is over. Every node must exit 0 with every hand audited and no
// fault, every pair direct.
func runOrdinary(t testing.TB, ctx context.Context) ordinaryResult {
	const hands = 4
	l := newLab(t, ctx)
	relayHost, err := l.AddPublic(ctx, "relay")
	if err != nil {
		t.Fatal(err)
	}
	players := homes(t, ctx, l, []string{"alice", "bob", "carol", "dave"}, nil)
	relay, relayAddr := startRelay(t, ctx, l, relayHost)
	tb := startTable(t, ctx, l, players, hands, "--relay", relayAddr)
	var res ordinaryResult
	// Once every pair is direct, the relay should carry nothing of the
	// game: count its bytes from then to the end of hand 1.
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, ok := tb.allDirectAt(); ok || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if at, ok := tb.allDirectAt(); ok {
		waitCircuitsClosed(ctx, relay, at) // the pairs' streams have moved
	}
	in0, out0, err := l.Bytes(ctx, relayHost)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	for _, p := range tb.procs {
		if _, err := p.WaitLine(ctx, "the end of hand 1", isEvent[progress.Hand]); err != nil {
			t.Fatal(err)
		}
	}
	in1, out1, err := l.Bytes(ctx, relayHost)
	if err != nil {
		t.Fatal(err)
	}
	res.relayBytes, res.window = in1-in0+out1-out0, time.Since(t0)
	if os.Getenv("NATLAB_DEBUG") != "" {
		out, _ := exec.Command("ip", "netns", "exec", relayHost.NS, "ss", "-tunap").CombinedOutput()
		t.Logf("relay sockets after hand 1:\n%s", out)
	}
	relay.Interrupt(5 * time.Second)
	if at, ok := tb.allDirectAt(); ok {
		if res.circuitBytes, res.relayControl, ok = carriedOnceDirect(relay, at); !ok {
			t.Errorf("the relay printed no stats once the table was direct and at exit")
		}
	}
	tb.waitAll(t, ctx, hands)
	tb.checkDirect(t)
	tb.checkNoFault(t)
	for _, p := range tb.procs {
		res.handsLost += hands - len(events[progress.Hand](p))
		for _, h := range events[progress.Hand](p) {
			if !h.AuditOK {
				res.handsLost++
			}
		}
		if len(events[progress.Relay](p)) == 0 {
			t.Errorf("%s did not report the relay going away", p.Name)
		}
	}
	if at, ok := tb.allDirectAt(); ok {
		res.toDirect = at.Sub(tb.connectedAt())
	}
	res.handMs = tb.handMs()
	return res
}

// runLoopback plays hands on one machine's loopback, without NAT or relay,
// and returns the mean hand time in ms: the yardstick for direct play.
func runLoopback(t testing.TB, ctx context.Context, l *Lab, hands int) float64 {
	h, err := l.AddPublic(ctx, "loop")
	if err != nil {
		t.Fatal(err)
	}
	var players []Host
	for _, name := range []string{"alice", "bob", "carol", "dave"} {
		players = append(players, Host{Name: name, NS: h.NS, IP: "127.0.0.1"})
	}
	tb := startTable(t, ctx, l, players, hands, "--listen", "/ip4/127.0.0.1/tcp/0", "--listen", "/ip4/127.0.0.1/udp/0/quic-v1")
	tb.waitAll(t, ctx, hands)
	return tb.handMs()
}

// TestHomes runs the lab's scenarios in sequence, one lab each.
func TestHomes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	t.Run("ordinary", func(t *testing.T) {
		res := runOrdinary(t, ctx)
		t.Logf("relayed to all six pairs direct: %s; relay bytes during a direct hand: %d in %s; hands lost: %d; mean hand %.0f ms",
			res.toDirect.Round(time.Millisecond), res.relayBytes, res.window.Round(time.Millisecond), res.handsLost, res.handMs)
		t.Logf("once direct, the relay relayed %d bytes through circuits; its own: %s", res.circuitBytes, res.relayControl)
		if res.handsLost != 0 {
			t.Errorf("%d hands lost to the relay going away", res.handsLost)
		}
		if res.circuitBytes != 0 {
			t.Errorf("the relay carried %d bytes through circuits once every pair was direct, want 0", res.circuitBytes)
		}
	})
	t.Run("public", func(t *testing.T) {
		// No relay of their own: the only public machine runs a relay
		// with a public relay's limits, given as --bootstrap. The homes
		// find it on the DHT, reserve on it through AutoRelay, meet, and
		// move the table onto direct connections. The relay (their
		// bootstrap peer, DHT and only relay) then stops after hand 1,
		// and the game goes on without it: four hands, every one
		// audited, no fault.
		const hands = 4
		l := newLab(t, ctx)
		relayHost, err := l.AddPublic(ctx, "relay")
		if err != nil {
			t.Fatal(err)
		}
		players := homes(t, ctx, l, []string{"alice", "bob", "carol", "dave"}, nil)
		relay, relayAddr := startRelay(t, ctx, l, relayHost, "--limit-duration", "2m", "--limit-data", "128KiB")
		tb := startTable(t, ctx, l, players, hands, "--bootstrap", relayAddr)
		for _, p := range tb.procs {
			if _, err := p.WaitLine(ctx, "the end of hand 1", isEvent[progress.Hand]); err != nil {
				t.Fatal(err)
			}
		}
		relay.Interrupt(5 * time.Second)
		tb.waitAll(t, ctx, hands)
		tb.checkDirect(t)
		tb.checkNoFault(t)
	})
	t.Run("hard-nat-public", func(t *testing.T) {
		// dave's router gives a new port per destination, and the only
		// relay has a public relay's limits; no player reaches dave
		// directly, so no player can relay for its pairs: the game is not
		// started (issue 29 item 5). No player plays a hand or exits 0,
		// and a player that refuses (at least one; the refusal is each
		// node's own, so the others may then fail to reach it) names the
		// pair left on limited circuits and the remedies, exit 3.
		l := newLab(t, ctx)
		relayHost, err := l.AddPublic(ctx, "relay")
		if err != nil {
			t.Fatal(err)
		}
		players := homes(t, ctx, l, []string{"alice", "bob", "carol", "dave"}, map[string]bool{"dave": true})
		_, relayAddr := startRelay(t, ctx, l, relayHost, "--limit-duration", "2m", "--limit-data", "128KiB")
		tb := startTable(t, ctx, l, players, 1, "--bootstrap", relayAddr)
		refused := 0
		for _, p := range tb.procs {
			code, err := p.Wait(ctx)
			if err != nil {
				t.Fatalf("%s: %v", p.Name, err)
			}
			out := p.Stderr()
			for _, line := range p.Lines() {
				if isEvent[progress.Hand](line) {
					t.Errorf("%s played a hand on a public relay's limited circuits", p.Name)
				}
			}
			if code == 0 {
				t.Errorf("%s exited 0 though the network cannot carry the game", p.Name)
			}
			if code == 3 && strings.Contains(out, "not starting a game the network cannot carry") {
				refused++
				if !strings.Contains(out, "relay --pool") || !strings.Contains(out, "forward a port") {
					t.Errorf("%s refused without the remedies:\n%s", p.Name, out)
				}
			}
		}
		if refused == 0 {
			t.Errorf("no player refused the game with exit 3, naming the pair and the remedies")
		}
	})
	t.Run("hard-nat", func(t *testing.T) {
		// alice and bob share a LAN; dave's router gives a new port per
		// destination. Two relays with real limits: dave's pairs stay
		// relayed, and every screen says why; the first relay stops after
		// hand 1, and dave's pairs go on through the second.
		l := newLab(t, ctx)
		relayHost, err := l.AddPublic(ctx, "relay")
		if err != nil {
			t.Fatal(err)
		}
		relay2Host, err := l.AddPublic(ctx, "relay2")
		if err != nil {
			t.Fatal(err)
		}
		lan, err := l.AddHome(ctx, Home{Name: "home1", Players: []string{"alice", "bob"}})
		if err != nil {
			t.Fatal(err)
		}
		players := append(lan, homes(t, ctx, l, []string{"carol", "dave"}, map[string]bool{"dave": true})...)
		relay, relayAddr := startRelay(t, ctx, l, relayHost)
		relay2, relay2Addr := startRelay(t, ctx, l, relay2Host)
		// Two players behind one router need two ports: MASQUERADE cannot
		// give both the same external port.
		const hands = 3
		tb := startTableWith(t, ctx, l, players, hands, map[string][]string{"bob": {"--listen", "/ip4/0.0.0.0/tcp/4002", "--listen", "/ip4/0.0.0.0/udp/4002/quic-v1"}},
			"--relay", relayAddr, "--relay", relay2Addr)
		for _, p := range tb.procs {
			if _, err := p.WaitLine(ctx, "the end of hand 1", isEvent[progress.Hand]); err != nil {
				t.Fatal(err)
			}
		}
		// Stop the relay that carries dave's pairs now.
		var dave *Proc
		for _, p := range tb.procs {
			if p.Name == "dave" {
				dave = p
			}
		}
		carrying := ""
		for _, e := range lastPaths(dave) {
			if e.Relay != "" {
				carrying = e.Relay
			}
		}
		stopped, other := relay, relay2Addr
		if strings.HasSuffix(relay2Addr, "/p2p/"+carrying) {
			stopped, other = relay2, relayAddr
		} else if !strings.HasSuffix(relayAddr, "/p2p/"+carrying) {
			t.Fatalf("dave's pairs go through %q, neither relay", carrying)
		}
		t.Logf("stopping the relay %s that carries dave's pairs", carrying)
		stopped.Interrupt(5 * time.Second)
		checkCarriedCircuits(t, stopped)
		tb.waitAll(t, ctx, hands)
		for _, e := range events[progress.Path](dave) {
			t.Logf("dave: %v", e.Text)
		}
		for _, e := range lastPaths(dave) {
			if e.Relay != "" && !strings.HasSuffix(other, "/p2p/"+e.Relay) {
				t.Errorf("dave's path %v still goes through the stopped relay", e.Text)
			}
		}
		tb.checkNoFault(t)
		ids := map[string]string{} // name → peer ID, from the host's seating
		for _, p := range tb.procs {
			for _, e := range events[progress.Seats](p) {
				for i, id := range e.Seats {
					ids[e.Nicks[i]] = id
				}
			}
		}
		for _, p := range tb.procs {
			paths := lastPaths(p)
			for name, id := range ids {
				if name == p.Name {
					continue
				}
				e, found := paths[id]
				daves := name == "dave" || p.Name == "dave"
				switch {
				case !found:
					t.Errorf("%s: no path to %s", p.Name, name)
				case daves && e.Direct:
					t.Errorf("%s: path to %s is direct through a NAT that changes ports: %v", p.Name, name, e.Text)
				case daves && !strings.Contains(e.Why, "a new port for every destination"):
					t.Errorf("%s: path to %s does not say why it stays relayed: %v", p.Name, name, e.Text)
				case !daves && !e.Direct:
					t.Errorf("%s: path to %s is %v, want direct", p.Name, name, e.Text)
				case (name == "bob" && p.Name == "alice" || name == "alice" && p.Name == "bob") && e.How != "LAN":
					t.Errorf("%s: path to %s is %v, want direct over the LAN", p.Name, name, e.Text)
				}
			}
			stays := events[progress.StaysRelayed](p)
			want := 1
			if p.Name == "dave" {
				want = 3
			}
			if len(stays) != want {
				t.Errorf("%s said %d pairs stay relayed before the first hand, want %d: %v", p.Name, len(stays), want, stays)
			}
			for _, e := range stays {
				if e.Limited {
					t.Errorf("%s: a pair stays relayed on a relay with real limits, but the warning calls its circuits limited: %+v", p.Name, e)
				}
			}
		}
	})
}

// BenchmarkHomes measures the targets of docs/BENCHMARKS.md ("Playing from
// home") in the lab, one ordinary-homes run and one loopback run per
// iteration: the median time from all players connected through the
// relay to all six pairs direct, the relay's bytes during a hand played
// direct, the hands lost when the relay stops after hand 1, and the mean
// hand time direct through NAT over the mean hand time on loopback.
func BenchmarkHomes(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	var toDirect []time.Duration
	var bytes, circuitBytes, lost int64
	ratio := 0.0
	for range b.N {
		res := runOrdinary(b, ctx)
		loop := runLoopback(b, ctx, newLab(b, ctx), 4)
		toDirect = append(toDirect, res.toDirect)
		bytes += res.relayBytes
		circuitBytes += res.circuitBytes
		lost += int64(res.handsLost)
		if loop > 0 {
			ratio += res.handMs / loop
		}
		b.Logf("to direct %s, relay bytes in a direct hand %d in %s (circuits %d; the relay's own: %s), hands lost %d, hand %.0f ms direct vs %.0f ms loopback",
			res.toDirect.Round(time.Millisecond), res.relayBytes, res.window.Round(time.Millisecond), res.circuitBytes, res.relayControl, res.handsLost, res.handMs, loop)
	}
	slices.Sort(toDirect)
	b.ReportMetric(toDirect[len(toDirect)/2].Seconds(), "s-to-direct(median)")
	b.ReportMetric(float64(bytes)/float64(b.N), "relay-B/direct-hand")
	b.ReportMetric(float64(circuitBytes)/float64(b.N), "circuit-B/direct-hand")

	b.ReportMetric(float64(lost)/float64(b.N), "hands-lost")
	b.ReportMetric(ratio/float64(b.N), "direct/loopback")
	b.ReportMetric(0, "ns/op")
}
