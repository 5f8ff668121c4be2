package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/latency"
	"github.com/mentalmj/mentalmj/mjlog"
	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/rules"
	"github.com/mentalmj/mentalmj/timecontrol"
	"github.com/mentalmj/mentalmj/verdict"
	"github.com/mentalmj/mentalmj/wall"
)

var localCommand = command{
	name:    "local",
	summary: "run four (or three: --players 3) bot nodes as processes on this machine",
	run:     runLocal,
}

const localUsage = `local [--players 3|4] [--hands N] [--data-dir DIR] [--play] [--mjai-bot N=COMMAND]... [--rtt 100ms [--jitter 20ms]]

Starts four "mentalmj join --bot" processes on 127.0.0.1 with fresh
identities; they play a whole hanchan of riichi mahjong under the mental
protocol (or --hands N hands). With --players 3 it starts three, who play
Tenhou's three-player rules (sanma: the 108-tile wall without 2m-8m, kita,
35000 start). It relays their progress, prints a line per hand (result,
scores, dealer, dora indicator, audit, time) and the final standings, and
exits 0 only if every node exits 0 and their audits agree.
Identities and transcripts go to DIR (default: a new temporary directory,
printed). It prints where each player sits once hand 1 has drawn the
seats. With --play you are player-0 and the three others are bots: you
play on this terminal, or in the browser with --ui (the page's URL is
printed; --no-open keeps the browser closed). --ui without --play shows
player-0's bot playing. --mjai-bot N=COMMAND (repeatable) seats an
external mjai bot (Mortal, akochan, mjai-manue…) as player-N instead of
the built-in bot; see "mentalmj join -h". The game is also written as
tenhou.net/6 JSON, with the command that reviews it and the viewer link
printed at the end. --rtt 100ms runs every connection between the nodes
through a relay inside this process that delays each direction by half
the round-trip time (--jitter 20ms: ± up to 20 ms, never reordering a
stream), to show how a table feels between players far apart.`

// childHand is what one child reports about one hand (join --progress json).
type childHand struct {
	Event         string    `json:"event"`
	Hand          int       `json:"hand"`
	OyaSeat       int       `json:"oya_seat"`
	Oya           string    `json:"oya"`
	Dice          [2]int    `json:"dice"`
	DoraIndicator int       `json:"dora_indicator"`
	Yama          []int     `json:"yama"`
	Events        int       `json:"events"`
	AuditOK       bool      `json:"audit_ok"`
	SetupMs       float64   `json:"setup_ms"`
	DurationMs    float64   `json:"duration_ms"`
	PauseMs       float64   `json:"pause_ms"`
	DrawLatencyMs []float64 `json:"draw_latency_ms"`
	Peer          string    `json:"peer"`
	Player        string    `json:"player"`
	Kind          string    `json:"kind"`
	Reason        string    `json:"reason"`
	PeakRSSKiB    int64     `json:"peak_rss_kib"`
	CPUMs         float64   `json:"cpu_ms"`
	MatchOver     bool      `json:"match_over"`
	Round         int       `json:"round"`
	Honba         int       `json:"honba"`
	Result        string    `json:"result"`
	Scores        [4]int    `json:"scores"`
	Order         [4]int    `json:"order"`
	Points        [4]int    `json:"points"`
	Nicks         []string  `json:"nicks"`
	Seats         []string  `json:"seats"`

	// Red are the table's red fives (tile ids), naming the dora indicator.
	Red []wall.Tile `json:"red"`
}

func runLocal(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("local", localUsage, stderr)
	hands := fs.Int("hands", 0, "number of hands to play; 0 plays a whole hanchan")
	nPlayers := fs.Int("players", 4, "number of players: 4, or 3 for three-player (sanma) rules")
	tonpuu := fs.Bool("tonpuu", false, "play an east-only match instead of a hanchan")
	noProofs := fs.Bool("no-proofs", false, "pass --no-proofs to the nodes: no zero-knowledge proofs of the shuffle and rekey passes")
	privateHands := fs.Bool("private-hands", false, "pass --private-hands to the nodes: only the keys the rules need are revealed at the end of a hand; each node's record is its own view")
	pipeline := fs.Bool("pipeline", false, "pass --pipeline to the nodes: each hand's passes are prepared during the hand before")
	dir := fs.String("data-dir", "", "directory for identities and transcripts (must be empty or absent; default a new temporary directory)")
	fs.StringVar(dir, "dir", "", aliasUsage)
	timeout := fs.Duration("timeout", 30*time.Second, "per-message timeout passed to each node")
	play := fs.Bool("play", false, "play seat player-0 yourself on this terminal; the three others are bots")
	useUI := fs.Bool("ui", false, "serve player-0's table in the browser: with --play you play there, without it you watch player-0's bot")
	noOpen := fs.Bool("no-open", false, "with --ui, only print the table's URL; do not open the browser")
	verbose := fs.Bool("v", false, "pass -v to the nodes (protocol steps on stderr)")
	timeControl := fs.String("time", timecontrol.Default.String(), "time control of your seat with --play, BASE+BANK seconds or off (see join --time); passed to every node")
	preset := fs.String("rules", rules.Default().Preset, "house rules preset, passed to every node: "+strings.Join(rules.PresetNames(), ", "))
	var switches listFlag
	fs.Var(&switches, "rule", "a house rule switch NAME=VALUE on top of --rules, repeatable, passed to every node")
	rtt := fs.Duration("rtt", 0, "emulated round-trip time between every two nodes (e.g. 100ms): their connections run through delaying relays in this process")
	jitter := fs.Duration("jitter", 0, "with --rtt, each one-way delay varies by up to ± this much (e.g. 20ms); bytes are never reordered")
	var mjaiBots listFlag
	fs.Var(&mjaiBots, "mjai-bot", "N=COMMAND: an external mjai bot plays player-N (0..3, 0..2 with --players 3) instead of the built-in bot; repeatable (see join --mjai-bot)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	botCommands, err := parseMjaiBots(mjaiBots, *play)
	if err != nil {
		return usageError(fs, stderr, "--mjai-bot: %v", err)
	}
	if fs.NArg() > 0 {
		return usageError(fs, stderr, "unexpected argument %q", fs.Arg(0))
	}
	if *hands < 0 {
		return usageError(fs, stderr, "--hands must be 0 (a whole hanchan) or more, got %d", *hands)
	}
	if *nPlayers != 3 && *nPlayers != 4 {
		return usageError(fs, stderr, "--players must be 3 or 4, got %d", *nPlayers)
	}
	if *privateHands && *noProofs {
		return usageError(fs, stderr, "--private-hands needs the zero-knowledge proofs: it cannot be combined with --no-proofs")
	}
	if _, err := timecontrol.Parse(*timeControl); err != nil {
		return usageError(fs, stderr, "--time: %v", err)
	}
	if _, err := rules.Parse(*preset, switches); err != nil {
		return usageError(fs, stderr, "--rules, --rule: %v", err)
	}
	link, err := latency.FromRTT(*rtt, *jitter)
	if err != nil {
		return usageError(fs, stderr, "--rtt/--jitter: %v", err)
	}
	for n := range botCommands {
		if n >= *nPlayers {
			return usageError(fs, stderr, "--mjai-bot %d=…: there are only players 0..%d", n, *nPlayers-1)
		}
	}

	if *dir == "" {
		d, err := os.MkdirTemp("", "mentalmj-local-")
		if err != nil {
			fmt.Fprintf(stderr, "mentalmj local: %v\n", err)
			return 2
		}
		*dir = d
	} else if entries, err := os.ReadDir(*dir); err == nil && len(entries) > 0 {
		return usageError(fs, stderr, "--data-dir %s is not empty; give a new directory", *dir)
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return usageError(fs, stderr, "--data-dir: %v", err)
	}
	fmt.Fprintf(stdout, "directory: %s\n", *dir)
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj local: cannot find own executable: %v\n", err)
		return 2
	}

	// The identities and loopback ports, known before any starts.
	players := make([]*localPlayer, *nPlayers)
	ports, err := node.LoopbackPorts(len(players))
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj local: %v\n", err)
		return 2
	}
	for i := range players {
		p := &localPlayer{name: fmt.Sprintf("player-%d", i), dataDir: filepath.Join(*dir, fmt.Sprintf("player-%d", i))}
		key, err := node.LoadOrCreateIdentity(p.dataDir)
		if err != nil {
			fmt.Fprintf(stderr, "mentalmj local: %v\n", err)
			return 2
		}
		if p.id, err = peer.IDFromPrivateKey(key); err != nil {
			fmt.Fprintf(stderr, "mentalmj local: %v\n", err)
			return 2
		}
		p.listen = fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", ports[i])
		p.addr = fmt.Sprintf("%s/p2p/%s", p.listen, p.id)
		p.transcript = filepath.Join(*dir, p.name+".mjt")
		p.record = filepath.Join(*dir, p.name+".mjlog.xml")
		p.json = filepath.Join(*dir, p.name+".json")
		players[i] = p
	}
	nameOf := map[string]string{}
	for _, p := range players {
		nameOf[p.id.String()] = p.name
	}
	tableName := "local-" + randomHex(4)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	peerAddr := func(i, j int) string { return players[j].addr }
	if !link.Zero() {
		mesh, err := latency.NewMesh(ctx, ports, link, nil)
		if err != nil {
			fmt.Fprintf(stderr, "mentalmj local: %v\n", err)
			return 2
		}
		defer mesh.Close()
		peerAddr = func(i, j int) string {
			return fmt.Sprintf("/ip4/127.0.0.1/tcp/%d/p2p/%s", mesh.Addr(i, j).Port, players[j].id)
		}
		fmt.Fprintf(stdout, "latency: every connection between two nodes is delayed by %s each way (round trip %s)\n", link, *rtt)
	}
	start := time.Now()
	var mu sync.Mutex
	var peakRSS int64
	var cpuMs float64
	var matchOver bool
	var standings []childHand
	var seating []string             // nicknames in seat order, once known
	reports := map[int][]childHand{} // hand → reports
	var verdicts localVerdicts
	var wg sync.WaitGroup
	codes := make([]int, len(players))
	for i, p := range players {
		human := *play && i == 0
		args := []string{"join", "--table", tableName, "--name", p.name, "--listen", p.listen,
			"--hands", strconv.Itoa(*hands), "--data-dir", p.dataDir, "--transcript", p.transcript, "--mjlog", p.record, "--json", p.json,
			"--progress", "json", "--timeout", timeout.String(), "--connect-timeout", "60s"}
		if *verbose {
			args = append(args, "-v")
		}
		if *tonpuu {
			args = append(args, "--tonpuu")
		}
		if *noProofs {
			args = append(args, "--no-proofs")
		}
		if *privateHands {
			args = append(args, "--private-hands")
		}
		if *pipeline {
			args = append(args, "--pipeline")
		}
		args = append(args, "--time", *timeControl, "--rules", *preset)
		for _, sw := range switches {
			args = append(args, "--rule", sw)
		}
		if human {
			// The bots wait for a human: 30 minutes a decision.
			args = append(args, "--decision-timeout", "30m")
		} else if c, ok := botCommands[i]; ok {
			args = append(args, "--mjai-bot", c)
		} else {
			args = append(args, "--bot")
		}
		if *play {
			args = append(args, "--turn-timeout", "31m")
		}
		if *useUI && i == 0 {
			args = append(args, "--ui", "--ui-linger", "1m")
			if *noOpen {
				args = append(args, "--no-open")
			}
		}
		for j, q := range players {
			if q != p {
				args = append(args, "--peer", peerAddr(i, j))
			}
		}
		cmd := exec.CommandContext(ctx, self, args...)
		out, err := cmd.StdoutPipe()
		if err != nil {
			fmt.Fprintf(stderr, "mentalmj local: %v\n", err)
			return 2
		}
		cmd.Stderr = &prefixWriter{w: stderr, prefix: "[" + p.name + "] "}
		if human {
			// The table view and the prompts come on stderr, the answers
			// from this terminal.
			cmd.Stdin, cmd.Stderr = os.Stdin, stderr
		}
		if err := cmd.Start(); err != nil {
			fmt.Fprintf(stderr, "mentalmj local: starting %s: %v\n", p.name, err)
			return 2
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := bufio.NewScanner(out)
			sc.Buffer(make([]byte, 64<<10), 1<<20)
			for sc.Scan() {
				var ev childHand
				if json.Unmarshal(sc.Bytes(), &ev) != nil {
					fmt.Fprintf(stdout, "[%s] %s\n", p.name, sc.Text())
					continue
				}
				switch ev.Event {
				case "hand":
					mu.Lock()
					reports[ev.Hand] = append(reports[ev.Hand], ev)
					if len(reports[ev.Hand]) == len(players) {
						printHand(stdout, reports[ev.Hand], nameOf)
					}
					mu.Unlock()
				case "blame", "fault":
					mu.Lock()
					verdicts.add(ev, p.name)
					mu.Unlock()
					fmt.Fprintf(stdout, "[%s] %s hand %d: %s %s: %s\n", p.name, strings.ToUpper(ev.Event), ev.Hand, ev.Player, ev.Peer, strings.TrimPrefix(ev.Kind+": ", ": ")+ev.Reason)
				case "seats":
					mu.Lock()
					if seating == nil && len(ev.Seats) == len(players) {
						seating = make([]string, len(ev.Seats))
						fmt.Fprintln(stdout, "seating (hand 1):")
						for s, id := range ev.Seats {
							seating[s] = nameOrID(nameOf, id)
							you := ""
							if *play && id == players[0].id.String() {
								you = " (you)"
							}
							fmt.Fprintf(stdout, "  %s%s in East 1\n", seatName(seating, s, 0), you)
						}
					}
					mu.Unlock()
				case "connected":
					fmt.Fprintf(stdout, "[%s] connected\n", p.name)
				case "done":
					mu.Lock()
					peakRSS = max(peakRSS, ev.PeakRSSKiB)
					cpuMs += ev.CPUMs
					matchOver = matchOver || ev.MatchOver
					mu.Unlock()
				case "standings":
					mu.Lock()
					standings = append(standings, ev)
					mu.Unlock()
				}
			}
			err := cmd.Wait()
			codes[i] = cmd.ProcessState.ExitCode()
			if err != nil && codes[i] == 0 {
				codes[i] = 1
			}
		}()
	}
	wg.Wait()

	ok := true
	for i, c := range codes {
		if c != 0 {
			fmt.Fprintf(stdout, "%s exited with status %d (%s)\n", players[i].name, c, exitMeaning(c))
			ok = false
		}
	}
	verdicts.summary(stdout)
	played := len(reports)
	switch {
	case *hands > 0 && played < *hands && matchOver:
		fmt.Fprintf(stdout, "the match ended after %d of the %d hands asked for\n", played, *hands)
	case *hands > 0 && played != *hands:
		fmt.Fprintf(stdout, "%d of %d hands were played\n", played, *hands)
		ok = false
	}
	for h := 1; h <= played; h++ {
		rs := reports[h]
		if len(rs) != len(players) {
			fmt.Fprintf(stdout, "hand %d: only %d of %d players reported it\n", h, len(rs), len(players))
			ok = false
			continue
		}
		if !agree(rs) {
			ok = false
		}
	}
	if len(standings) > 0 {
		printStandings(stdout, standings, seating, len(players))
		if len(standings) != len(players) {
			ok = false
		}
	}
	printStats(stdout, reports, peakRSS)
	printTiming(stdout, reports)
	if msgs, bytes, err := wireTraffic(players); err == nil && played > 0 {
		fmt.Fprintf(stdout, "traffic: %.0f messages and %.1f KB per hand on the wire (signed envelopes, all %s nodes); CPU %.2f s for the %s nodes, %.0f ms per hand\n",
			float64(msgs)/float64(played), float64(bytes)/1000/float64(played), count(len(players)), cpuMs/1000, count(len(players)), cpuMs/float64(played))
	}
	fmt.Fprintf(stdout, "transcripts: %s (check one with: mentalmj audit %s)\n", filepath.Join(*dir, "player-*.mjt"), players[0].transcript)
	if ok && *privateHands {
		if err := viewFiles(players); err != nil {
			fmt.Fprintf(stdout, "game records: %v\n", err)
			ok = false
		} else {
			fmt.Fprintf(stdout, "game records (Tenhou mjlog, private hands: each node's own view, the tiles it never saw hidden; no tenhou.net/6 JSON): %s\n  watch %s's view again: mentalmj view %s\n", filepath.Join(*dir, "player-*.mjlog.xml"), players[0].name, players[0].record)
		}
	} else if ok {
		if err := sameFiles(players); err != nil {
			fmt.Fprintf(stdout, "game records: %v\n", err)
			ok = false
		} else {
			fmt.Fprintf(stdout, "game record (Tenhou mjlog, identical on all %s nodes): %s (replay it with: mentalmj tenhou replay %s)\n", count(len(players)), players[0].record, players[0].record)
			printJSONRecord(stdout, players[0].json, players[0].name)
		}
	}
	if !ok {
		fmt.Fprintf(stdout, "FAILED after %s\n", time.Since(start).Round(time.Millisecond))
		return 1
	}
	fmt.Fprintf(stdout, "all %d hands played and audited by all %s nodes in %s; audits agree\n", played, count(len(players)), time.Since(start).Round(time.Millisecond))
	return 0
}

// count spells a number of nodes: "three", "four".
func count(n int) string {
	if n == 3 {
		return "three"
	}
	if n == 4 {
		return "four"
	}
	return strconv.Itoa(n)
}

// localPlayer is one of the join processes (four, or three in sanma).
type localPlayer struct {
	name, dataDir, transcript, record, json, listen, addr string
	id                                                    peer.ID
}

// agree reports whether the four reports of a hand all passed their audit
// and agree on the wall, dice and dealer.
func agree(rs []childHand) bool {
	for _, r := range rs {
		if !r.AuditOK || r.Yama == nil || !slices.Equal(r.Yama, rs[0].Yama) || r.Dice != rs[0].Dice || r.OyaSeat != rs[0].OyaSeat || r.Result != rs[0].Result || r.Scores != rs[0].Scores {
			return false
		}
	}
	return true
}

func printHand(w io.Writer, rs []childHand, nameOf map[string]string) {
	r := rs[0]
	if !slices.ContainsFunc(rs, func(x childHand) bool { return x.Yama != nil }) && r.Events == 0 {
		fmt.Fprintf(w, "hand %d (%s, honba %d): did not finish (see the verdicts below)\n", r.Hand, game.RoundName(r.Round), r.Honba)
		return
	}
	status := fmt.Sprintf("ok (%d of %d audits agree)", len(rs), len(rs))
	if !agree(rs) {
		status = "FAILED or audits disagree"
	}
	var slowest float64
	for _, x := range rs {
		slowest = max(slowest, x.DurationMs)
	}
	var scores []string
	for s, v := range r.Scores[:len(rs)] {
		scores = append(scores, fmt.Sprintf("%s %d", seatName(r.Nicks, s, r.OyaSeat), v))
	}
	fmt.Fprintf(w, "hand %d (%s, honba %d): dealer %s, dice %d+%d, dora indicator %s: %s; scores %s; %d events, audit %s, setup %.0f ms, %.0f ms\n",
		r.Hand, game.RoundName(r.Round), r.Honba, seatName(r.Nicks, r.OyaSeat, r.OyaSeat), r.Dice[0]+1, r.Dice[1]+1, verdict.TileName(r.DoraIndicator, wall.RedsOf(r.Red...)),
		r.Result, strings.Join(scores, ", "), r.Events, status, r.SetupMs, slowest)
}

// seatName names seat s as verdict.Names.Short does, "player-1 (South,
// seat 1)", from the nicknames in seat order (three in sanma: the winds
// then go East, South, West from the dealer) and the dealer's seat oya.
func seatName(nicks []string, s, oya int) string {
	nick := fmt.Sprintf("seat %d", s)
	if s >= 0 && s < len(nicks) && nicks[s] != "" {
		nick = nicks[s]
	}
	n := 4
	if len(nicks) == 3 {
		n = 3
	}
	return fmt.Sprintf("%s (%s, seat %d)", nick, [4]string{"East", "South", "West", "North"}[((s-oya)%n+n)%n], s)
}

// printStandings prints the final standings of the n players once, after
// checking the nodes agree on them.
func printStandings(w io.Writer, st []childHand, seating []string, n int) {
	for _, s := range st[1:] {
		if s.Scores != st[0].Scores || s.Order != st[0].Order || s.Points != st[0].Points {
			fmt.Fprintln(w, "the nodes disagree on the final standings")
			return
		}
	}
	fmt.Fprintln(w, "final standings (points with uma):")
	for rank, seat := range st[0].Order[:n] {
		name := fmt.Sprintf("seat %d", seat)
		if seat < len(seating) {
			name = fmt.Sprintf("%s (seat %d)", seating[seat], seat)
		}
		fmt.Fprintf(w, "  %d. %s: %d points (%+.1f)\n", rank+1, name, st[0].Scores[seat], float64(st[0].Points[seat])/10)
	}
}

func nameOrID(nameOf map[string]string, id string) string {
	if n, ok := nameOf[id]; ok {
		return n
	}
	return id
}

// sameFiles checks that the four nodes wrote the same game record.
func sameFiles(players []*localPlayer) error {
	first, err := os.ReadFile(players[0].record)
	if err != nil {
		return err
	}
	for _, p := range players[1:] {
		b, err := os.ReadFile(p.record)
		if err != nil {
			return err
		}
		if !slices.Equal(b, first) {
			return fmt.Errorf("%s differs from %s", p.record, players[0].record)
		}
	}
	return nil
}

// viewFiles checks, for a private-hands game, that every node wrote its
// own view of the game: a record that mjlog.ParseView reads, with hidden
// tiles, and as many rounds as the others (the records differ: each
// shows its own node's tiles).
func viewFiles(players []*localPlayer) error {
	rounds := -1
	for _, p := range players {
		f, err := os.Open(p.record)
		if err != nil {
			return err
		}
		g, err := mjlog.ParseView(f, p.record)
		f.Close()
		switch {
		case err != nil:
			return err
		case !g.HasHidden():
			return fmt.Errorf("%s hides no tile in a private-hands game", p.record)
		case rounds >= 0 && len(g.Rounds) != rounds:
			return fmt.Errorf("%s has %d rounds, %s %d", p.record, len(g.Rounds), players[0].record, rounds)
		}
		rounds = len(g.Rounds)
	}
	return nil
}

// wireTraffic counts, from the four transcripts, every message a node sent
// (once per recipient: three for a broadcast) and its envelope bytes,
// over the hands of the game (the opening Hellos excluded).
func wireTraffic(players []*localPlayer) (msgs, bytes int, err error) {
	for _, p := range players {
		f, err := os.Open(p.transcript)
		if err != nil {
			return 0, 0, err
		}
		recs, err := protocol.ReadTranscript(f, p.transcript)
		f.Close()
		if err != nil {
			return 0, 0, err
		}
		for _, o := range recs {
			if o.Sender != p.id || o.Entry.Hand == 0 {
				continue
			}
			n := len(players) - 1
			if o.Recipient != "" {
				n = 1
			}
			msgs += n
			bytes += n * len(o.Envelope)
		}
	}
	return msgs, bytes, nil
}

// printStats prints the hand setup times (the slowest of the four nodes per
// hand), the tsumo latency over all draws of all nodes, and the largest
// peak RSS of the four nodes, in one line that benchmarks parse.
func printStats(w io.Writer, reports map[int][]childHand, peakRSS int64) {
	var setups, draws []float64
	for _, rs := range reports {
		var slowest float64
		for _, r := range rs {
			slowest = max(slowest, r.SetupMs)
			draws = append(draws, r.DrawLatencyMs...)
		}
		setups = append(setups, slowest)
	}
	if len(setups) == 0 {
		return
	}
	fmt.Fprintf(w, "stats: hand setup median %.1f ms max %.1f ms; tsumo latency median %.2f ms p99 %.2f ms over %d draws; peak RSS per node %.1f MB\n",
		percentile(setups, 50), percentile(setups, 100), percentile(draws, 50), percentile(draws, 99), len(draws), float64(peakRSS)/1024)
}

// printTiming prints, in one line that benchmarks parse, the medians over
// the hands of: the pause between hands (pause_ms, the slowest node),
// the hand's wall time (the slowest node), and the play per event (the
// slowest node's hand time less its setup, over the hand's events).
func printTiming(w io.Writer, reports map[int][]childHand) {
	var pauses, hands, perEvent []float64
	for _, rs := range reports {
		var pause, hand, play float64
		for _, r := range rs {
			pause, hand = max(pause, r.PauseMs), max(hand, r.DurationMs)
			if r.Events > 0 {
				play = max(play, (r.DurationMs-r.SetupMs)/float64(r.Events))
			}
		}
		pauses, hands, perEvent = append(pauses, pause), append(hands, hand), append(perEvent, play)
	}
	if len(hands) == 0 {
		return
	}
	fmt.Fprintf(w, "timing: pause between hands median %.1f ms; one hand median %.1f ms; play per event median %.2f ms\n",
		percentile(pauses, 50), percentile(hands, 50), percentile(perEvent, 50))
}

// percentile returns the p-th percentile (nearest rank) of xs, 0 if empty.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(p/100*float64(len(s))+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// prefixWriter prefixes each line written to w.
type prefixWriter struct {
	mu     sync.Mutex
	w      io.Writer
	prefix string
	buf    []byte
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf = append(p.buf, b...)
	for {
		i := slices.Index(p.buf, '\n')
		if i < 0 {
			break
		}
		if _, err := fmt.Fprintf(p.w, "%s%s\n", p.prefix, p.buf[:i]); err != nil {
			return 0, err
		}
		p.buf = p.buf[i+1:]
	}
	return len(b), nil
}

// exitMeaning says what a join exit status means.
func exitMeaning(code int) string {
	switch code {
	case -1:
		return "killed by a signal"
	case 1:
		return "a cheat was proven"
	case 2:
		return "bad usage or input"
	case 3:
		return "the game stopped on a fault"
	}
	return "an error"
}

// localVerdicts gathers the four nodes' blames and faults, so that each is
// reported once with the nodes that report it.
type localVerdicts struct {
	keys      []string
	line      map[string]string
	reporters map[string][]string
}

func (v *localVerdicts) add(ev childHand, reporter string) {
	key := fmt.Sprintf("%s %d %s %s", ev.Event, ev.Hand, ev.Peer, ev.Kind)
	if v.line == nil {
		v.line, v.reporters = map[string]string{}, map[string][]string{}
	}
	if _, ok := v.line[key]; !ok {
		v.keys = append(v.keys, key)
		what := "cheating proven"
		if ev.Event == "fault" {
			what = ev.Kind + " (a fault: it proves nothing about intent)"
		}
		v.line[key] = fmt.Sprintf("%s hand %d: %s %s: %s", strings.ToUpper(ev.Event), ev.Hand, ev.Player, ev.Peer, what)
	}
	v.reporters[key] = append(v.reporters[key], reporter)
}

func (v *localVerdicts) summary(w io.Writer) {
	for _, k := range v.keys {
		fmt.Fprintf(w, "verdict: %s; reported by %s\n", v.line[k], strings.Join(v.reporters[k], ", "))
	}
}
