package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/bot"
	"github.com/mentalmj/mentalmj/invite"
	"github.com/mentalmj/mentalmj/mjlog"
	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/resume"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/settings"
	"github.com/mentalmj/mentalmj/tenhou6"
	"github.com/mentalmj/mentalmj/timecontrol"
	"github.com/mentalmj/mentalmj/ui"
	"github.com/mentalmj/mentalmj/verdict"
	"github.com/mentalmj/mentalmj/wall"
)

var joinCommand = command{
	name:    "join",
	summary: "play hands at a table with three other peers (or two: sanma)",
	run:     runJoin,
}

const joinUsage = `join INVITE [--name NICK] [flags]
  or: join --table NAME --peer MULTIADDR --peer MULTIADDR --peer MULTIADDR [flags]

Joins a four-player table and plays a match of riichi mahjong under the
mental protocol (a whole hanchan unless --tonpuu or --hands N), audits
every hand, and exits 0 only if every audit passed. With two --peer addresses instead of
three it joins a three-player table and plays Tenhou's three-player rules
(sanma: the 108-tile wall without 2m-8m, kita, 35000 start); the other two
must give two --peer addresses as well.

With an INVITE (the mmj1… string "mentalmj host" printed), join plays the
host's game: the invite carries its settings (players, match length,
rules, time control, proofs, private hands). join shows them and asks you
to confirm (y/N; --yes, --bot and --mjai-bot accept at once); if you
decline it tells the host and exits 1. A settings flag that contradicts
the invite is refused (exit 2) before anything is dialled; leave such
flags out. Then join dials the host, shows who has arrived, checks the host's signed list of the four
players (that it is for this table, signed by the invite's host, and has
this node on it) and plays with them. Otherwise it listens, dials the
three other players (each --peer is a multiaddr ending in /p2p/<peer id>,
as the other player's join or "mentalmj id" printed it); share the "peer
address" line it prints with the other three players.

Behind NAT, give --relay (the address "mentalmj relay" prints, on a machine
everyone can reach): join reserves a slot there, waits up to 10 s for it,
and also prints a relayed peer address, RELAY/p2p-circuit/p2p/<your id>,
that the others can dial whatever your NAT. A --peer given as such a
relayed address is dialled through its relay. Without --relay (and unless
--no-public, or listening on loopback only), join uses the public libp2p
network instead: its DHT (--bootstrap replaces the default bootstrap peers)
and a public relay. Either way, once the table is set, each pair of
players punches a hole through their NATs and moves onto the direct
connection; a "NAME: direct (…)" or "NAME: relayed via …: why" line says
how each player is reached.

With --ui the node serves a mahjong table page on 127.0.0.1 (a free port;
the URL it prints carries a random access token) and opens the browser
(--no-open: just print the URL); you play there. Without --ui and --bot
you play on this terminal.

The audited game is written as tenhou.net/6 JSON (--json; mjai-reviewer,
NAGA and the tenhou.net/6 viewer read it) and join prints how to open it.
--mjai-bot COMMAND lets an external mjai bot (Mortal, akochan, mjai-manue)
decide for you; it sees only what your node sees.`

func runJoin(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("join", joinUsage, stderr)
	var f tableFlags
	f.register(fs, false)
	var peers listFlag
	fs.Var(&peers, "peer", "another player's multiaddr ending in /p2p/<peer id>; give three, or two for a three-player (sanma) game (or an invite instead)")
	positional, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	var inv *invite.Invite
	switch {
	case len(positional) > 1:
		return usageError(fs, stderr, "unexpected argument %q", positional[1])
	case len(positional) == 1:
		if len(peers) > 0 {
			return usageError(fs, stderr, "give an invite or --peer addresses, not both")
		}
		i, err := invite.Parse(positional[0])
		if err != nil {
			return usageError(fs, stderr, "%v", err)
		}
		if f.table != "" {
			if err := i.ForTable(f.table); err != nil {
				return usageError(fs, stderr, "--table: %v", err)
			}
		}
		f.table, inv = i.Table, &i
	case f.table == "":
		return usageError(fs, stderr, "--table is required (or give the mmj1… invite the host printed)")
	case len(peers) != protocol.Players-1 && len(peers) != 2:
		return usageError(fs, stderr, "give %d --peer addresses (or 2 for a three-player game), got %d", protocol.Players-1, len(peers))
	}
	if code, ok := f.check(fs, stderr); !ok {
		return code
	}
	// The game: the invite's (a flag may only repeat it), or the flags'.
	var game settings.Settings
	switch {
	case inv != nil && inv.Settings != nil:
		if err := f.game.Contradicts(*inv.Settings); err != nil {
			return usageError(fs, stderr, "%v", err)
		}
		game = *inv.Settings
	case inv != nil:
		game, _ = f.game.Settings(inv.PlayerCount())
	default:
		game, _ = f.game.Settings(len(peers) + 1)
	}
	if code, ok := f.setGame(fs, stderr, game); !ok {
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
	if f.resume {
		saved, code, ok := f.loadResume(fs, stderr)
		if !ok {
			return code
		}
		if inv == nil {
			if err := sameTable(infos, saved); err != nil {
				fmt.Fprintf(stderr, "mentalmj join: --resume: %v\n", err)
				return 2
			}
		}
		// The host's signed list was checked when the game started; a
		// resumed node goes straight back to the table.
		infos, inv = saved, nil
	}
	var meet func(peer.ID) bool
	if inv != nil {
		if err := invite.CheckNick(f.nick); err != nil {
			return usageError(fs, stderr, "--name: %v", err)
		}
		// Before the list, only the host, and the relays of its relayed
		// addresses to reach it through.
		relays := inv.Relays()
		meet = func(p peer.ID) bool { return p == inv.Host || slices.Contains(relays, p) }
	}
	st, code, ok := f.startNode(ctx, fs, stdout, stderr, infos, meet)
	if !ok {
		return code
	}
	defer st.n.Close()
	if inv == nil {
		st.printAddrs()
	} else {
		screen := stdout
		if f.progress == "json" {
			screen = stderr
		}
		if !f.confirm(st, *inv, os.Stdin, screen) {
			return declineHost(ctx, &f, st, *inv, stderr)
		}
		if code, ok := meetHost(ctx, &f, st, *inv, stderr); !ok {
			return code
		}
	}
	return playTable(ctx, &f, st, stdout, stderr)
}

// playTable plays the game at the table of ts's node, whose peers are
// set: transcript, connection, the hands and their audit, the results. It
// returns the exit code.
func playTable(ctx context.Context, f *tableFlags, ts seat, stdout, stderr io.Writer) int {
	key, n, logger, out := ts.key, ts.n, ts.log, ts.out
	table, dataDir, nick, useBot := &f.table, &f.dataDir, &f.nick, &f.useBot
	mjlogPath, progress := &f.mjlog, &f.progress
	timeout, turnTimeout, decisionTimeout, connectTimeout := &f.timeout, &f.turnTimeout, &f.decisionTimeout, &f.connectTimeout
	transcriptPath := &f.transcript
	misbehavior := f.misbehavior
	useUI, noOpen, uiLinger, passive := &f.useUI, &f.noOpen, &f.uiLinger, &f.passive
	infos := n.Peers()
	mjaiPlayer, code, ok := f.startMjaiBot(logger, out, stderr)
	if !ok {
		return code
	}
	if mjaiPlayer != nil {
		defer mjaiPlayer.Close()
	}

	path := *transcriptPath
	if path == "" {
		path = filepath.Join(*dataDir, "transcripts", fmt.Sprintf("%s-%s.mjt", safeName(*table), time.Now().UTC().Format("20060102T150405Z")))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			fmt.Fprintf(stderr, "mentalmj join: %v\n", err)
			return 2
		}
	}
	tr, gameSeed, records, err := f.openGame(n, path, len(infos)+1, rand.Reader)
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj join: %v\n", err)
		return 2
	}
	defer tr.Close()
	statePath := resume.File(f.dataDir, f.table)
	var resumeFrom *protocol.Resume
	if records != nil {
		path = f.resumeState.Transcript
		resumeFrom = &protocol.Resume{Records: records}
		if err := resumeFrom.Check(n.ID(), append(n.Peers(), n.ID())); err != nil {
			fmt.Fprintf(stderr, "mentalmj join: --resume: %s: %v\n", path, err)
			return 2
		}
		out.event(map[string]any{"event": "resuming", "records": len(records), "path": path},
			"resuming the game at table %q from %d records of %s", *table, len(records), path)
		if changed := f.adoptHello(records[0].Entry.GetHello()); len(changed) > 0 {
			out.event(map[string]any{"event": "resume-settings", "settings": changed},
				"resuming with the game's own settings: %s", strings.Join(changed, " "))
		}
	}
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
	awaitDirect(ctx, n, out)

	// The human's table view and prompts go to the terminal: stdout, or
	// stderr when stdout carries JSON progress for a launcher.
	screen := stdout
	if *progress == "json" {
		screen = stderr
	}
	var gameRef *protocol.Game
	var results []protocol.HandResult
	downloads := map[string]ui.Download{
		"transcript": {File: filepath.Base(path), Type: "application/octet-stream", Write: func(w io.Writer) error {
			if err := tr.Sync(); err != nil {
				return err
			}
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = io.Copy(w, f)
			return err
		}},
		"mjlog": {File: safeName(*table) + ".mjlog.xml", Type: "application/xml", Write: func(w io.Writer) error {
			return mjlog.Write(w, gameRef.Record(results))
		}},
		"json": {File: safeName(*table) + ".json", Type: "application/json", Write: func(w io.Writer) error {
			l, err := tenhou6.Convert(gameRef.Record(results))
			if err != nil {
				return err
			}
			return l.Encode(w)
		}},
	}
	front, err := newFrontend(*useUI, *useBot || f.mjaiBot != "", os.Stdin, screen, downloads)
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj join: --ui: %v\n", err)
		return 2
	}
	uiCtx, stopUI := context.WithCancel(ctx)
	defer stopUI()
	front.serve(uiCtx, *noOpen, screen)
	player := front.player
	front.model.SetGame(fmt.Sprintf("table %s: %s", *table, f.play.Summary()))
	var clock *timecontrol.Clock // a human seat's time control
	if player != nil && !*passive && mjaiPlayer == nil {
		clock = timecontrol.NewClock(f.play.Time)
		front.setClock(clock)
	}
	if player == nil {
		var seed [8]byte
		rand.Read(seed[:])
		player = botPlayer{bot.New(binary.LittleEndian.Uint64(seed[:]))}
	}
	if *passive {
		player = protocol.Tsumogiri{}
	}
	if mjaiPlayer != nil {
		player = mjaiPlayer
	}
	ids := append(n.Peers(), n.ID())
	allOK := true
	seated := false
	observer := &joinObserver{out: out, front: front, observe: func(o protocol.Observation) {
		if !seated && o.Seats != nil {
			seated = true
			names := verdict.Names{Seats: o.Seats, Nicks: gameRef.Nicks()}
			var seats, nicks []string
			line := ""
			for s, p := range o.Seats {
				seats, nicks = append(seats, p.String()), append(nicks, o.Nicks[s])
				you := ""
				if game.Seat(s) == o.Seat {
					you = " (you)"
				}
				line += fmt.Sprintf("\n  %s%s in East 1  %s", names.Short(p, 0), you, p)
			}
			out.event(map[string]any{"event": "seats", "seats": seats, "nicks": nicks, "self": int(o.Seat)},
				"seating (the winds turn with the dealer):%s", line)
		}
		front.Observe(o)
		if mjaiPlayer != nil {
			mjaiPlayer.Observe(o)
		}
	}}
	g, err := protocol.NewGame(protocol.Config{
		Table:           *table,
		Identity:        key,
		Peers:           ids,
		Nick:            *nick,
		Hands:           f.play.Hands,
		Tonpuu:          f.play.Tonpuu,
		NoProofs:        f.play.NoProofs,
		PrivateHands:    f.play.PrivateHands,
		Rules:           f.play.Rules,
		Time:            f.play.Time,
		Clock:           clock,
		Pipeline:        f.pipeline,
		Transport:       n,
		Transcript:      tr,
		Player:          player,
		Timeout:         *timeout,
		TurnTimeout:     *turnTimeout,
		DecisionTimeout: *decisionTimeout,
		Logger:          logger,
		Observer:        observer,
		Misbehavior:     misbehavior,
		Rand:            protocol.SeedRand(gameSeed),
		ReconnectGrace:  f.reconnectGrace,
		Resume:          resumeFrom,
		OnHand: func(r protocol.HandResult) {
			allOK = allOK && len(r.Blame) == 0 && len(r.Faults) == 0 && r.Yama != nil
			results = append(results, r)
			out.hand(r, n.ID(), gameRef.Nicks(), gameRef.Players(), gameRef.Rules().Hand.Reds())
			front.HandDone(r)
		},
	})
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj join: %v\n", err)
		return 2
	}
	gameRef = g
	_, err = g.Run(ctx)
	// The game is over, one way or another: nothing left to resume.
	if rerr := resume.Remove(statePath); rerr != nil {
		logger.Warn("could not remove the resume state", "err", rerr)
	}
	front.Finish(g, err)
	defer front.linger(ctx, *uiLinger, screen)
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
	jsonPath := f.json
	if jsonPath == "" {
		jsonPath = filepath.Join(*dataDir, "games", strings.TrimSuffix(filepath.Base(path), ".mjt")+".json")
	}
	if err := writeGameFiles(out, g.Record(results), *mjlogPath, jsonPath, g.Seats(), n.ID()); err != nil {
		fmt.Fprintf(stderr, "mentalmj join: %v\n", err)
		return 1
	}
	st := g.Standings()
	if g.MatchOver() {
		name := verdict.Names{Seats: g.Seats(), Nicks: g.Nicks()}.Seat(-1)
		out.event(map[string]any{"event": "standings", "order": st.Order, "scores": st.Scores, "points": st.Points}, "final standings (points with uma):\n%s", verdict.FormatStandingsOf(st, g.Players(), name))
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
	mu    sync.Mutex // the node reports paths from its own goroutine
	nicks map[peer.ID]string
	w     io.Writer
	json  bool
	seen  map[string]bool // verdicts already reported
}

func (r *reporter) event(obj map[string]any, format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.json {
		b, _ := json.Marshal(obj)
		fmt.Fprintf(r.w, "%s\n", b)
		return
	}
	fmt.Fprintf(r.w, format+"\n", args...)
}

// hand reports one hand of a game of players players (3 or 4) whose
// table plays the red fives reds (tiles are named by them; the JSON
// lists their ids as "red").
func (r *reporter) hand(h protocol.HandResult, self peer.ID, nicks map[peer.ID]string, players int, reds wall.Reds) {
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
	var seatNicks []string // nicknames in seat order, for local
	for _, p := range h.Seats {
		seatNicks = append(seatNicks, nicks[p])
	}
	// A hand that ended without a result (a fault, an abort) leaves the
	// scores as they stood when it started.
	scores := h.Start.Scores
	if h.Result != nil {
		scores = h.Result.Scores
	}
	seated := scores[:min(max(players, 1), len(scores))] // sanma: seat 3 is empty
	dealer := "dealer unknown"
	if oya != "" {
		dealer = "dealer " + name(game.Seat(h.Oya))
	}
	r.event(map[string]any{
		"event": "hand", "hand": h.Number, "round": h.Start.Round, "honba": h.Start.Honba, "result": result, "scores": scores,
		"oya_seat": h.Oya, "oya": oya, "dice": h.Dice, "nicks": seatNicks,
		"dora_indicator": h.DoraIndicator, "red": reds.Tiles(), "yama": h.Yama, "events": h.Events, "audit_ok": len(h.Blame) == 0 && len(h.Faults) == 0 && h.Yama != nil,
		"setup_ms": ms(h.Setup), "duration_ms": ms(h.Duration), "pause_ms": ms(h.Pause), "draw_latency_ms": msList(h.DrawLatency),
	}, "hand %d (%s, honba %d): %s%s, dice %d+%d, dora indicator %s: %s; scores %s; %d events, audit %s, setup %s, hand %s",
		h.Number, game.RoundName(h.Start.Round), h.Start.Honba, dealer, selfMark(h, self), h.Dice[0]+1, h.Dice[1]+1, verdict.TileName(h.DoraIndicator, reds),
		result, scoreList(seated, name), h.Events, audit, h.Setup.Round(time.Millisecond), h.Duration.Round(time.Millisecond))
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

// scoreList writes scores by seat with the seats' names:
// "alice (East, seat 0) 25000, bob (South, seat 1) 25000, …".
func scoreList(scores []int, name func(game.Seat) string) string {
	var parts []string
	for s, v := range scores {
		parts = append(parts, fmt.Sprintf("%s %d", name(game.Seat(s)), v))
	}
	return strings.Join(parts, ", ")
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
