package localgame

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mentalmj/mentalmj/internal/joinproc"
	"github.com/mentalmj/mentalmj/internal/latency"
	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/ui/i18n"
)

// ErrFailed is returned by Run when the game ran but did not pass: a node
// exited non-zero, a hand is missing, or the nodes' audits, standings or
// records disagree. Run has printed why.
var ErrFailed = errors.New("the local game failed")

// Config is one local game, as "mentalmj local" checked its flags.
type Config struct {
	// Executable is the mentalmj binary each player runs as "join".
	Executable string
	// Dir holds each player's identity, transcript and records; it must exist.
	Dir string
	// Players is 4, or 3 for sanma (Tenhou's three-player rules).
	Players int
	// Hands is the number of hands; 0 plays a whole hanchan, or with
	// Tonpuu an east-only match.
	Hands  int
	Tonpuu bool
	// NoProofs and PrivateHands are passed to every node (join
	// --no-proofs, --private-hands).
	NoProofs, PrivateHands bool
	// Proofs, if not empty, is passed to every node as --proofs (the
	// proof system: "log", the default, or "tw").
	Proofs string
	// NoPipeline passes --no-pipeline to every node: each hand's setup
	// runs after the hand before ends. The default (false) is the
	// pipelined setup (SPEC.md §22).
	NoPipeline bool
	// Timeout is the per-message timeout passed to every node (join --timeout).
	Timeout time.Duration
	// Play seats the user as player-0 on this terminal (that join gets
	// this process's stdin and stderr).
	Play bool
	// UI serves player-0's table in the browser; NoOpen only prints its URL.
	UI, NoOpen bool
	// Lang, if not "", is the language of player-0's table (join --lang:
	// "ja", "en") and of what Run prints; "" leaves the browser's or the
	// system's (i18n.Detect). The stats, timing and traffic lines stay in
	// English: docs/BENCHMARKS.md parses them.
	Lang string
	// Verbose passes -v to the nodes.
	Verbose bool
	// Time is the time control passed to every node (join --time, e.g.
	// "5+10" or "off").
	Time string
	// Rules is the house rules preset and Switches its NAME=VALUE
	// switches, passed to every node (join --rules, --rule).
	Rules    string
	Switches []string
	// Link is the emulated delay between every two nodes (the zero Link:
	// none, direct connections); RTT is the round trip it was made from,
	// for the printed line.
	Link latency.Link
	RTT  time.Duration
	// MjaiBots maps a player number to the external mjai bot command that
	// plays that seat instead of the built-in bot (join --mjai-bot).
	MjaiBots map[int]string
}

// Run plays one local game as cfg says: it starts cfg.Players "join"
// processes of cfg.Executable on 127.0.0.1 with fresh identities under
// cfg.Dir (which must exist), relays and prints their progress to stdout
// (the seating, a line per hand, the verdicts, the final standings, the
// stats, timing and traffic lines, where the records are) and each
// child's stderr to stderr, prefixed with its name. It returns an error
// when the game cannot be set up (no loopback ports, an identity or the
// latency mesh that cannot be made, a child that cannot start), and
// ErrFailed when the game ran but did not pass, after printing why. It
// returns nil when every node exited 0 and they all agree.
func Run(ctx context.Context, cfg Config, stdout, stderr io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r, err := seat(ctx, cfg, stdout)
	if err != nil {
		return err
	}
	defer r.table.Close()
	if !cfg.Link.Zero() {
		r.printf("local.latency", cfg.Link.String(), cfg.RTT.String())
	}
	start := time.Now()
	if err := r.play(ctx, stderr); err != nil {
		return err
	}
	ok := r.judge()
	r.printMeasures()
	ok = r.printRecords(ok)
	if !ok {
		r.printf("local.failed", time.Since(start).Round(time.Millisecond).String())
		return ErrFailed
	}
	r.printf("local.passed", len(r.reports), count(len(r.players)), time.Since(start).Round(time.Millisecond).String())
	return nil
}

// localRun is one Run under way: the table of join processes and what
// their progress said so far.
type localRun struct {
	cfg       Config
	table     *joinproc.Table
	tableName string // the --table every node gets
	players   []*localPlayer
	nameOf    map[string]string // peer ID → player name
	stdout    io.Writer
	lang      *i18n.Lang // the language of what Run prints
	codes     []int      // each node's exit status

	mu        sync.Mutex // guards what follows, which the nodes' readers write
	peakRSS   int64      // the largest of the nodes', KiB
	cpuMs     float64    // the nodes' sum
	matchOver bool
	standings []progress.Standings
	seating   []string                // nicknames in seat order, once known
	seatMu    sync.Mutex              // guards seatIDs, which player reads without mu
	seatIDs   []string                // peer IDs in seat order, once known
	reports   map[int][]progress.Hand // hand → reports
	verdicts  localVerdicts
}

// seat makes the table: the identities and loopback ports of
// cfg.Players players in cfg.Dir, known before any starts, with the
// latency mesh of cfg.Link.
func seat(ctx context.Context, cfg Config, stdout io.Writer) (*localRun, error) {
	t, err := joinproc.New(ctx, cfg.Dir, cfg.Players, cfg.Link)
	if err != nil {
		return nil, err
	}
	r := &localRun{cfg: cfg, table: t, tableName: "local-" + randomHex(4), nameOf: map[string]string{}, stdout: stdout,
		codes: make([]int, len(t.Players)), reports: map[int][]progress.Hand{}, lang: i18n.PickSystem(cfg.Lang, os.Getenv)}
	for _, p := range t.Players {
		r.players = append(r.players, &localPlayer{Player: p,
			record: filepath.Join(cfg.Dir, p.Name+".mjlog.xml"), json: filepath.Join(cfg.Dir, p.Name+".json")})
		r.nameOf[p.ID.String()] = p.Name
	}
	return r, nil
}

// args are player i's join arguments: the table's, the game's settings,
// and who plays the seat (the user with cfg.Play for player 0, an mjai
// bot, or the built-in bot).
func (r *localRun) args(i int) []string {
	cfg, p := r.cfg, r.players[i]
	args := append(r.table.Args(i, r.tableName), "--hands", strconv.Itoa(cfg.Hands), "--mjlog", p.record, "--json", p.json,
		"--timeout", cfg.Timeout.String(), "--connect-timeout", "60s")
	for _, f := range []struct {
		on   bool
		flag string
	}{{cfg.Verbose, "-v"}, {cfg.Tonpuu, "--tonpuu"}, {cfg.NoProofs, "--no-proofs"}, {cfg.PrivateHands, "--private-hands"}, {cfg.NoPipeline, "--no-pipeline"}} {
		if f.on {
			args = append(args, f.flag)
		}
	}
	if cfg.Proofs != "" {
		args = append(args, "--proofs", cfg.Proofs)
	}
	args = append(args, "--time", cfg.Time, "--rules", cfg.Rules)
	for _, sw := range cfg.Switches {
		args = append(args, "--rule", sw)
	}
	if r.human(i) {
		// The bots wait for a human: 30 minutes a decision.
		args = append(args, "--decision-timeout", "30m")
	} else if c, ok := cfg.MjaiBots[i]; ok {
		args = append(args, "--mjai-bot", c)
	} else {
		args = append(args, "--bot")
	}
	if cfg.Play {
		args = append(args, "--turn-timeout", "31m")
	}
	if (cfg.UI || cfg.Play) && i == 0 && cfg.Lang != "" {
		args = append(args, "--lang", cfg.Lang)
	}
	if cfg.UI && i == 0 {
		args = append(args, "--ui", "--ui-linger", "1m")
		if cfg.NoOpen {
			args = append(args, "--no-open")
		}
	}
	return args
}

// human reports whether the user plays player i on this terminal.
func (r *localRun) human(i int) bool { return r.cfg.Play && i == 0 }

// play starts every node, relays its progress and stderr, and waits for
// all to exit, their exit statuses in r.codes. It returns the error of a
// node that could not start (the nodes started are then killed with ctx).
func (r *localRun) play(ctx context.Context, stderr io.Writer) error {
	var wg sync.WaitGroup
	for i, p := range r.players {
		var in io.Reader
		var errOut io.Writer = &prefixWriter{w: stderr, prefix: "[" + p.Name + "] "}
		if r.human(i) {
			// The table view and the prompts come on stderr, the answers
			// from this terminal.
			in, errOut = os.Stdin, stderr
		}
		proc, err := p.Start(ctx, r.cfg.Executable, r.args(i), in, errOut)
		if err != nil {
			return err
		}
		wg.Go(func() {
			r.relay(p.Name, proc.Stdout)
			r.codes[i] = proc.Wait()
		})
	}
	wg.Wait()
	return nil
}

// relay reads the progress of the node named name until it ends: it
// prints the lines that are not progress events, and takes in each event.
func (r *localRun) relay(name string, stream io.Reader) {
	progress.Read(stream, func(line []byte, ev progress.Event, err error) {
		switch {
		case err == nil:
			r.take(name, ev)
		case !errors.Is(err, progress.ErrUnknownEvent):
			fmt.Fprintf(r.stdout, "[%s] %s\n", name, line)
		}
	})
}

// take takes in one event of the node named name: a hand (printed once
// every node reported it), a verdict (printed at once), the seating (the
// first time), "connected", and the end of the game.
func (r *localRun) take(name string, ev progress.Event) {
	switch ev := ev.(type) {
	case progress.Connected:
		r.printf("local.connected", name)
		return
	case progress.Blame:
		reason := any(ev.Reason)
		if ev.Msg != nil {
			reason = *ev.Msg
		}
		r.printf("local.blame", name, ev.Hand, r.player(ev.Peer, ev.Player), ev.Peer, reason)
	case progress.Fault:
		reason := any(strings.TrimPrefix(ev.Kind+": ", ": ") + ev.Reason)
		if ev.Msg != nil {
			reason = *ev.Msg
		}
		r.printf("local.fault", name, ev.Hand, r.player(ev.Peer, ev.Player), ev.Peer, reason)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch ev := ev.(type) {
	case progress.Hand:
		r.reports[ev.Hand] = append(r.reports[ev.Hand], ev)
		if len(r.reports[ev.Hand]) == len(r.players) {
			writeHand(r.stdout, r.reports[ev.Hand], r.lang)
		}
	case progress.Blame:
		r.verdicts.add(ev.Name(), ev.Hand, ev.Peer, r.player(ev.Peer, ev.Player), "", name)
	case progress.Fault:
		r.verdicts.add(ev.Name(), ev.Hand, ev.Peer, r.player(ev.Peer, ev.Player), ev.Kind, name)
	case progress.Seats:
		r.seatMu.Lock()
		if r.seatIDs == nil {
			r.seatIDs = ev.Seats
		}
		r.seatMu.Unlock()
		if r.seating == nil && len(ev.Seats) == len(r.players) {
			r.printSeating(ev.Seats)
		}
	case progress.Done:
		r.peakRSS = max(r.peakRSS, ev.PeakRSSKiB)
		r.cpuMs += ev.CPUMs
		r.matchOver = r.matchOver || ev.MatchOver
	case progress.Standings:
		r.standings = append(r.standings, ev)
	}
}

// printSeating prints the seating of hand 1, seats the peer IDs in seat
// order, and keeps the names in r.seating.
func (r *localRun) printSeating(seats []string) {
	r.seating = make([]string, len(seats))
	r.printf("local.seating")
	for s, id := range seats {
		r.seating[s] = nameOrID(r.nameOf, id)
	}
	for s, id := range seats {
		you := any("")
		if r.cfg.Play && id == r.players[0].ID.String() {
			you = i18n.M("local.you")
		}
		r.printf("local.seat", seatMsg(r.seating, s, 0), you)
	}
}

// judge prints what went wrong, if anything, and reports whether the game
// passed so far: every node exited 0, the hands asked for were played (or
// the match ended first), every node reported every hand and the reports
// agree, and so do the final standings. It prints the verdicts and the
// standings.
func (r *localRun) judge() bool {
	w, n, hands := r.stdout, len(r.players), r.cfg.Hands
	ok := true
	for i, c := range r.codes {
		if c != 0 {
			r.printf("local.exited", r.players[i].Name, c, exitMeaning(c))
			ok = false
		}
	}
	r.verdicts.summary(w, r.lang)
	played := len(r.reports)
	switch {
	case hands > 0 && played < hands && r.matchOver:
		r.printf("local.ended", played, hands)
	case hands > 0 && played != hands:
		r.printf("local.played", played, hands)
		ok = false
	}
	for h := 1; h <= played; h++ {
		rs := r.reports[h]
		if len(rs) != n {
			r.printf("local.unreported", h, len(rs), n)
			ok = false
			continue
		}
		if !agree(rs) {
			ok = false
		}
	}
	if len(r.standings) > 0 {
		oya := -1
		if rs := r.reports[played]; len(rs) > 0 {
			oya = rs[0].OyaSeat
		}
		printStandings(w, r.standings, r.seating, n, oya, r.lang)
		if len(r.standings) != n {
			ok = false
		}
	}
	return ok
}

// printMeasures prints the stats, timing and traffic lines that
// docs/BENCHMARKS.md parses.
func (r *localRun) printMeasures() {
	w, n, played := r.stdout, len(r.players), len(r.reports)
	printStats(w, r.reports, r.peakRSS)
	printTiming(w, r.reports)
	if msgs, bytes, err := wireTraffic(r.players); err == nil && played > 0 {
		fmt.Fprintf(w, "traffic: %.0f messages and %.1f KB per hand on the wire (signed envelopes, all %s nodes); CPU %.2f s for the %s nodes, %.0f ms per hand\n",
			float64(msgs)/float64(played), float64(bytes)/1000/float64(played), i18n.English().T("local.n."+strconv.Itoa(n)), r.cpuMs/1000, i18n.English().T("local.n."+strconv.Itoa(n)), r.cpuMs/float64(played))
	}
}

// printRecords says where the transcripts are and, when the game passed
// so far (ok), checks and shows the game records: with private hands
// each node's own view, otherwise one record that every node wrote the
// same. It reports whether the game still passes.
func (r *localRun) printRecords(ok bool) bool {
	w, dir, first := r.stdout, r.cfg.Dir, r.players[0]
	r.printf("local.transcripts", filepath.Join(dir, "player-*.mjt"), first.Transcript)
	if !ok {
		return false
	}
	if r.cfg.PrivateHands {
		if err := viewFiles(r.players); err != nil {
			r.printf("local.records.error", err.Error())
			return false
		}
		r.printf("local.records.private", filepath.Join(dir, "player-*.mjlog.xml"), first.Name, first.record)
		return true
	}
	if err := sameFiles(r.players); err != nil {
		r.printf("local.records.error", err.Error())
		return false
	}
	r.printf("local.record", count(len(r.players)), first.record, first.record)
	printJSONRecord(w, first.json, first.Name, first.Transcript, r.lang)
	return true
}

// count spells a number of nodes: "three", "four" ("3", "4" in
// Japanese).
func count(n int) any {
	if n == 3 || n == 4 {
		return i18n.M("local.n." + strconv.Itoa(n))
	}
	return strconv.Itoa(n)
}

// printf prints the message key with args, said in r's language, and a
// newline.
func (r *localRun) printf(key string, args ...any) {
	fmt.Fprintln(r.stdout, r.lang.Say(i18n.M(key, args...)))
}

// player names the player of peer id as the node named it (reported,
// "alice (seat 0)"), said in r's language when its seat is known.
func (r *localRun) player(id, reported string) any {
	r.seatMu.Lock()
	defer r.seatMu.Unlock()
	for s, p := range r.seatIDs {
		if p == id {
			return i18n.M("local.seatno", nameOrID(r.nameOf, id), s)
		}
	}
	return reported
}

// localPlayer is one of the join processes (four, or three in sanma),
// with the records it writes: mjlog XML and tenhou.net/6 JSON.
type localPlayer struct {
	*joinproc.Player
	record, json string
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// exitMeaning says what a join exit status means.
func exitMeaning(code int) i18n.Msg {
	switch code {
	case -1, 1, 2, 3:
		return i18n.M("local.exit." + strconv.Itoa(code))
	}
	return i18n.M("local.exit.other")
}
