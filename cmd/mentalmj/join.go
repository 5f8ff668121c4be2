package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/cheat"
	"github.com/mentalmj/mentalmj/mjlog"
	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/verdict"
)

var joinCommand = command{
	name:    "join",
	summary: "play hands at a table with three other peers",
	run:     runJoin,
}

const joinUsage = `join --table NAME --peer MULTIADDR --peer MULTIADDR --peer MULTIADDR [flags]

Joins a four-player table: listens, dials the three other players (each
--peer is a multiaddr ending in /p2p/<peer id>, as the other player's join
printed it), plays --hands hands of riichi mahjong under the mental
protocol (--hands 0: a whole hanchan), audits every hand, and exits 0 only
if every audit passed. Share the "peer address" line it prints
with the other three players.

Behind NAT, give --relay (the address "mentalmj relay" prints, on a machine
everyone can reach): join reserves a slot there, waits up to 10 s for it,
and also prints a relayed peer address, RELAY/p2p-circuit/p2p/<your id>,
that the others can dial whatever your NAT. A --peer given as such a
relayed address is dialled through its relay.

The audited game is written as tenhou.net/6 JSON (--json; mjai-reviewer,
NAGA and the tenhou.net/6 viewer read it) and join prints how to open it.
--mjai-bot COMMAND lets an external mjai bot (Mortal, akochan, mjai-manue)
decide for you; it sees only what your node sees.`

func runJoin(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("join", joinUsage, stderr)
	var listen, peers, relays listFlag
	table := fs.String("table", "", "table name; all four players must use the same one (required)")
	fs.Var(&listen, "listen", "multiaddr to listen on, repeatable (default /ip4/0.0.0.0/tcp/4001 and /ip4/0.0.0.0/udp/4001/quic-v1)")
	fs.Var(&peers, "peer", "another player's multiaddr ending in /p2p/<peer id>; give exactly three")
	fs.Var(&relays, "relay", "a circuit relay's multiaddr ending in /p2p/<relay id> to reserve a slot on, so others reach you through it; repeatable")
	nick := fs.String("name", "", "nickname shown to the other players")
	useBot := fs.Bool("bot", false, "play automatically with the built-in bot (otherwise you choose each action on the terminal)")
	hands := fs.Int("hands", 1, "number of hands to play; 0 plays a whole match")
	tonpuu := fs.Bool("tonpuu", false, "play an east-only match instead of a hanchan (with --hands 0)")
	dataDir := fs.String("data-dir", defaultDataDir(), "directory holding this node's identity key (created if missing)")
	transcriptPath := fs.String("transcript", "", "transcript file to write (default DATA-DIR/transcripts/TABLE-TIME.mjt); must not exist")
	timeout := fs.Duration("timeout", protocol.DefaultTimeout, "how long to wait for a peer's message before aborting and naming it")
	turnTimeout := fs.Duration("turn-timeout", 5*time.Minute, "how long to wait for another player's turn, answer or declaration before aborting and naming it")
	decisionTimeout := fs.Duration("decision-timeout", 0, "how long you (or the bot) may think; then the node passes, discards the drawn tile or declares for you, and the transcript says so (default: turn-timeout minus 5s)")
	connectTimeout := fs.Duration("connect-timeout", 10*time.Minute, "how long to wait for the other players to come online")
	mjlogPath := fs.String("mjlog", "", "write the audited game as a Tenhou mjlog XML record to this file (readable by Tenhou tools and \"mentalmj tenhou replay\")")
	jsonPath := fs.String("json", "", "write the audited game as tenhou.net/6 JSON (mjai-reviewer, NAGA, the tenhou.net/6 viewer) to this file (default DATA-DIR/games/TABLE-TIME.json)")
	mjaiBot := fs.String("mjai-bot", "", "let an external mjai bot decide: COMMAND runs with sh -c and speaks mjai on stdin/stdout; {seat} in it becomes the seat (e.g. \"python mortal.py {seat}\"); its stderr goes to DATA-DIR/logs/TABLE-TIME-mjai.log")
	progress := fs.String("progress", "text", "progress output: text, or json (one object per line, for launchers)")
	verbose := fs.Bool("v", false, "log protocol steps to stderr")
	cheatName := fs.String("research-cheat", "", "RESEARCH ONLY: make this node cheat with the named strategy (see mentalmj lab -list); the others will catch and name it")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	var misbehavior protocol.Misbehavior
	if *cheatName != "" {
		st, err := cheat.Lookup(*cheatName)
		if err != nil {
			return usageError(fs, stderr, "--research-cheat: %v", err)
		}
		misbehavior = st.New()
		fmt.Fprintf(stderr, "mentalmj join: WARNING: this node cheats (%s: %s), for protocol research\n", st.Name, st.Doc)
	}
	switch {
	case fs.NArg() > 0:
		return usageError(fs, stderr, "unexpected argument %q", fs.Arg(0))
	case *table == "":
		return usageError(fs, stderr, "--table is required")
	case len(peers) != protocol.Players-1:
		return usageError(fs, stderr, "give exactly %d --peer addresses, got %d", protocol.Players-1, len(peers))
	case *hands < 0:
		return usageError(fs, stderr, "--hands must be 0 (a whole match) or more, got %d", *hands)
	case *progress != "text" && *progress != "json":
		return usageError(fs, stderr, "--progress must be text or json, got %q", *progress)
	case *timeout <= 0 || *turnTimeout <= 0:
		return usageError(fs, stderr, "--timeout and --turn-timeout must be positive")
	}
	laddrs, code, ok := parseListen(fs, stderr, listen)
	if !ok {
		return code
	}
	var infos []peer.AddrInfo
	for _, s := range peers {
		info, err := node.ParsePeer(s)
		if err != nil {
			return usageError(fs, stderr, "--peer: %v", err)
		}
		infos = append(infos, info)
	}
	var relayInfos []peer.AddrInfo
	for _, s := range relays {
		info, err := node.ParseRelay(s)
		if err != nil {
			return usageError(fs, stderr, "--relay: %v", err)
		}
		relayInfos = append(relayInfos, info)
	}
	logger := newLogger(stderr, *verbose)
	out := &reporter{w: stdout, json: *progress == "json"}
	stamp := fmt.Sprintf("%s-%s", safeName(*table), time.Now().UTC().Format("20060102T150405Z"))
	var mjaiPlayer protocol.Player
	if *mjaiBot != "" {
		// Started before anyone connects, so a bot that does not start
		// is an error at once.
		logPath := filepath.Join(*dataDir, "logs", stamp+"-mjai.log")
		p, f, err := startMjaiBot(*mjaiBot, logPath, logger)
		if err != nil {
			fmt.Fprintf(stderr, "mentalmj join: --mjai-bot: %v\n", err)
			return 2
		}
		defer f.Close()
		defer p.Close()
		mjaiPlayer = p
		out.event(map[string]any{"event": "mjai_bot", "command": *mjaiBot, "stderr": logPath}, "mjai bot: %s (its stderr: %s)", *mjaiBot, logPath)
	}

	key, err := node.LoadOrCreateIdentity(*dataDir)
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj join: --data-dir: %v\n", err)
		return 2
	}
	n, err := node.New(ctx, node.Config{Identity: key, Listen: laddrs, Peers: infos, Relays: relayInfos, Logger: logger})
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj join: %v\n", err)
		return 2
	}
	defer n.Close()
	if len(relayInfos) > 0 {
		out.event(map[string]any{"event": "reserving", "relays": len(relayInfos)}, "reserving a slot on %d relay(s)…", len(relayInfos))
		wctx, cancel := context.WithTimeout(ctx, relayWait)
		_, err := n.WaitReservations(wctx)
		cancel()
		if err != nil {
			fmt.Fprintf(stderr, "mentalmj join: --relay: %v\n(still trying in the background; until then the others can reach you only at the addresses below)\n", err)
		}
	}
	for _, a := range n.Addrs() {
		out.event(map[string]any{"event": "address", "addr": a.String(), "relayed": strings.Contains(a.String(), "/p2p-circuit/")}, "peer address: %s", a)
	}

	if *jsonPath == "" {
		*jsonPath = filepath.Join(*dataDir, "games", stamp+".json")
	}
	path := *transcriptPath
	if path == "" {
		path = filepath.Join(*dataDir, "transcripts", stamp+".mjt")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			fmt.Fprintf(stderr, "mentalmj join: %v\n", err)
			return 2
		}
	}
	tr, err := protocol.CreateTranscript(path)
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj join: --transcript: %v\n", err)
		return 2
	}
	defer tr.Close()
	out.event(map[string]any{"event": "transcript", "path": path}, "transcript: %s", path)

	out.event(map[string]any{"event": "connecting"}, "waiting for the other %d players…", len(infos))
	cctx, cancel := context.WithTimeout(ctx, *connectTimeout)
	err = n.Connect(cctx)
	cancel()
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj join: %v\n", err)
		return 1
	}
	out.event(map[string]any{"event": "connected"}, "all players connected")

	// The human's table view and prompts go to the terminal: stdout, or
	// stderr when stdout carries JSON progress for a launcher.
	ui := stdout
	if *progress == "json" {
		ui = stderr
	}
	var player protocol.Player = &terminalPlayer{in: os.Stdin, out: ui}
	if *useBot {
		player = newBuiltinBot()
	}
	if mjaiPlayer != nil {
		player = mjaiPlayer
	}
	ids := append(n.Peers(), n.ID())
	allOK := true
	var gameRef *protocol.Game
	g, err := protocol.NewGame(protocol.Config{
		Table:           *table,
		Identity:        key,
		Peers:           ids,
		Nick:            *nick,
		Hands:           *hands,
		Tonpuu:          *tonpuu,
		Transport:       n,
		Transcript:      tr,
		Player:          player,
		Timeout:         *timeout,
		TurnTimeout:     *turnTimeout,
		DecisionTimeout: *decisionTimeout,
		Logger:          logger,
		Misbehavior:     misbehavior,
		OnHand: func(r protocol.HandResult) {
			allOK = allOK && len(r.Blame) == 0 && len(r.Faults) == 0 && r.Yama != nil
			out.hand(r, n.ID(), gameRef.Nicks())
		},
	})
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj join: %v\n", err)
		return 2
	}
	gameRef = g
	results, err := g.Run(ctx)
	if err != nil {
		hand := len(results)
		b, f := protocol.Verdict(err, n.ID(), hand)
		names := verdict.Names{Seats: g.Seats(), Nicks: g.Nicks()}
		if b != nil {
			out.blame(*b, names, "at once")
			fmt.Fprintf(stderr, "mentalmj join: cheating proven: %v\n", err)
			return 1
		}
		out.fault(*f, names)
		fmt.Fprintf(stderr, "mentalmj join: the game stopped: %v\n", err)
		return 3
	}
	if !allOK {
		return 1
	}
	if err := writeGameFiles(out, g.Record(results), *mjlogPath, *jsonPath, g.Seats(), n.ID()); err != nil {
		fmt.Fprintf(stderr, "mentalmj join: %v\n", err)
		return 1
	}
	st := g.Standings()
	if g.MatchOver() {
		name := verdict.Names{Seats: g.Seats(), Nicks: g.Nicks()}.Seat(-1)
		out.event(map[string]any{"event": "standings", "order": st.Order, "scores": st.Scores, "points": st.Points}, "final standings:\n%s", verdict.FormatStandings(st, name))
	}
	rss := peakRSSKiB()
	cpu := cpuTime()
	out.event(map[string]any{"event": "done", "hands": len(results), "match_over": g.MatchOver(), "peak_rss_kib": rss, "cpu_ms": ms(cpu)},
		"all %d hands audited ok (peak RSS %d KiB, CPU %s)", len(results), rss, cpu.Round(time.Millisecond))
	return 0
}

// relayWait bounds how long join waits for its relay reservations before
// printing its addresses.
const relayWait = 10 * time.Second

// writeRecord writes a game record to path as mjlog XML, atomically
// (a temporary file renamed into place).
func writeRecord(path string, g *mjlog.Game) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := mjlog.Write(f, g); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// reporter prints progress as text lines or as JSON objects, one a line.
type reporter struct {
	w    io.Writer
	json bool
	seen map[string]bool // verdicts already reported
}

func (r *reporter) event(obj map[string]any, format string, args ...any) {
	if r.json {
		b, _ := json.Marshal(obj)
		fmt.Fprintf(r.w, "%s\n", b)
		return
	}
	fmt.Fprintf(r.w, format+"\n", args...)
}

func (r *reporter) hand(h protocol.HandResult, self peer.ID, nicks map[peer.ID]string) {
	names := verdict.Names{Seats: h.Seats, Nicks: nicks}
	audit := "ok"
	switch {
	case len(h.Blame) > 0:
		audit = "FAILED: cheating proven, see BLAME"
	case len(h.Faults) > 0:
		audit = "not completed, see FAULT"
	}
	var oya string
	if h.Oya < len(h.Seats) {
		oya = h.Seats[h.Oya].String()
	}
	name := names.Seat(h.Oya)
	result := verdict.DescribeResult(h.Result, name)
	for _, p := range h.TimedOut {
		result += "; " + name(game.Seat(slices.Index(h.Seats, p))) + " timed out and was acted for"
	}
	var scores [4]int
	if h.Result != nil {
		scores = h.Result.Scores
	}
	dealer := "dealer unknown"
	if oya != "" {
		dealer = "dealer " + name(game.Seat(h.Oya))
	}
	r.event(map[string]any{
		"event": "hand", "hand": h.Number, "round": h.Start.Round, "honba": h.Start.Honba, "result": result, "scores": scores,
		"oya_seat": h.Oya, "oya": oya, "dice": h.Dice,
		"dora_indicator": h.DoraIndicator, "yama": h.Yama, "events": h.Events, "audit_ok": len(h.Blame) == 0 && len(h.Faults) == 0 && h.Yama != nil,
		"setup_ms": ms(h.Setup), "duration_ms": ms(h.Duration), "draw_latency_ms": msList(h.DrawLatency),
	}, "hand %d (%s, honba %d): %s%s, dice %d+%d, dora indicator %s: %s; scores %v; %d events, audit %s, setup %s, hand %s",
		h.Number, game.RoundName(h.Start.Round), h.Start.Honba, dealer, selfMark(h, self), h.Dice[0]+1, h.Dice[1]+1, verdict.TileName(h.DoraIndicator),
		result, scores, h.Events, audit, h.Setup.Round(time.Millisecond), h.Duration.Round(time.Millisecond))
	when := "end of hand"
	if h.Aborted {
		when = "at once"
	}
	for _, b := range h.Blame {
		r.blame(b, names, when)
	}
	for _, f := range h.Faults {
		r.fault(f, names)
	}
}

// once reports whether key is new to r, remembering it.
func (r *reporter) once(key string) bool {
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	if r.seen[key] {
		return false
	}
	r.seen[key] = true
	return true
}

// blame reports a proven cheat (once), naming the player as names does;
// when says whether it was caught "at once" (on arrival, the hand
// aborted) or at the "end of hand" (by the audit).
func (r *reporter) blame(b protocol.Blame, names verdict.Names, when string) {
	if !r.once(fmt.Sprint("blame", b.Hand, b.Peer, b.Reason)) {
		return
	}
	player := names.Short(b.Peer, -1)
	var ev []string
	for _, e := range b.Evidence {
		ev = append(ev, e.String())
	}
	r.event(map[string]any{"event": "blame", "peer": b.Peer.String(), "player": player, "hand": b.Hand, "reason": b.Reason, "evidence": ev, "when": when},
		"BLAME hand %d: %s %s: %s (evidence: %s)", b.Hand, player, b.Peer, b.Reason, strings.Join(ev, ", "))
}

// fault reports a fault (once), naming the player as names does.
func (r *reporter) fault(f protocol.Fault, names verdict.Names) {
	if !r.once(fmt.Sprint("fault", f.Hand, f.Peer, f.Kind)) {
		return
	}
	player := names.Short(f.Peer, -1)
	var reporters []string
	for _, p := range f.Reporters {
		reporters = append(reporters, p.String())
	}
	r.event(map[string]any{"event": "fault", "peer": f.Peer.String(), "player": player, "hand": f.Hand, "kind": string(f.Kind), "reason": f.Reason, "reporters": reporters},
		"FAULT hand %d: %s %s: %s: %s", f.Hand, player, f.Peer, f.Kind, f.Reason)
}

func selfMark(h protocol.HandResult, self peer.ID) string {
	if h.Oya < len(h.Seats) && h.Seats[h.Oya] == self {
		return " (you)"
	}
	return ""
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func msList(ds []time.Duration) []float64 {
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = ms(d)
	}
	return out
}

// defaultDataDir is $XDG_CONFIG_HOME/mentalmj (or the platform's config
// directory), falling back to ./mentalmj-data.
func defaultDataDir() string {
	if d, err := os.UserConfigDir(); err == nil {
		return filepath.Join(d, "mentalmj")
	}
	return "mentalmj-data"
}

// safeName keeps a table name usable in a file name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}
