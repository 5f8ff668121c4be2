package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/internal/resume"
	"github.com/mentalmj/mentalmj/internal/tablerun"
	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/player/cheat"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/rules"
	"github.com/mentalmj/mentalmj/riichi/settings"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
)

// tableFlags are the flags of a player at a table, shared by join and
// host.
type tableFlags struct {
	lang string // --lang
	// open (host --open) announces the table in the lobby, also at the
	// lobbyPeers (package node/lobby).
	open                            bool
	lobbyPeers                      listFlag
	table                           string
	listen, relays                  listFlag
	bootstrap                       listFlag
	noPublic                        bool
	noPlayerRelay                   bool
	nick                            string
	useBot                          bool
	yes                             bool
	game                            settings.Flags
	dataDir, transcript             string
	timeout, turnTimeout            time.Duration
	decisionTimeout, connectTimeout time.Duration
	mjlog, progress                 string
	json, mjaiBot                   string
	verbose                         bool
	passive                         bool
	useUI, noOpen                   bool
	uiLinger                        time.Duration
	researchCheat                   string
	reconnectGrace                  time.Duration
	resume                          bool
	// misbehavior is the cheating strategy --research-cheat names, set
	// by check; nil for an honest node.
	misbehavior protocol.Misbehavior
	// resumeState is, with --resume, the game to pick up (loadResume).
	resumeState *resume.State
	// spectateHost names the table's spectator topic: the host's peer
	// ID (host, and join with an invite); "" for join --peer.
	spectateHost peer.ID
	// play is the game the table plays: the invite's, or the settings
	// flags' (setGame).
	play settings.Settings
	// netSummaryWait bounds the wait for the one-line network summary
	// (printNetSummary); 0 is netSummaryWait. No flag sets it: a test
	// that plays no longer than that sets it shorter.
	netSummaryWait time.Duration
}

// register defines the shared flags on fs; the settings flags
// (package settings) with --players when withPlayers (host).
func (f *tableFlags) register(cmd *cobra.Command, withPlayers bool) {
	fs := cmd.Flags()
	f.game.Register(fs, withPlayers)
	fs.BoolVar(&f.yes, "yes", false, "play the invite's game without asking (a guest is otherwise shown the host's settings and asked to confirm; --bot and --mjai-bot accept them too)")
	fs.StringVar(&f.table, "table", "", "table name; all players must use the same one")
	fs.Var(&f.listen, "listen", "multiaddr to listen on, repeatable (default TCP and QUIC on port 4001, IPv4 and IPv6: /ip4/0.0.0.0/tcp/4001, /ip4/0.0.0.0/udp/4001/quic-v1, /ip6/::/tcp/4001, /ip6/::/udp/4001/quic-v1)")
	fs.Var(&f.relays, "relay", "a circuit relay's multiaddr ending in /p2p/<relay id> to reserve a slot on, so others reach you through it; repeatable")
	fs.Var(&f.bootstrap, "bootstrap", "a public-network (Kademlia DHT) bootstrap peer's multiaddr ending in /p2p/<id>, e.g. a \"mentalmj relay\"; repeatable; replaces the default public bootstrap peers")
	fs.BoolVar(&f.noPublic, "no-public", false, "stay off the public libp2p network (no DHT, no public relays); invites and --peer addresses still work")
	fs.BoolVar(&f.noPlayerRelay, "no-player-relay", false, "do not relay for the other players of the table (by default a player that reaches two players who cannot reach each other relays between them); pairs with no direct path then need a relay")
	fs.StringVar(&f.nick, "name", "", "nickname shown to the other players")
	addLang(cmd, &f.lang)
	fs.BoolVar(&f.useBot, "bot", false, "play automatically with the built-in bot (otherwise you choose each action on the terminal)")
	fs.StringVar(&f.dataDir, "data-dir", defaultDataDir(), "directory holding this node's identity key (created if missing)")
	fs.StringVar(&f.transcript, "transcript", "", "transcript file to write (default DATA-DIR/transcripts/TABLE-TIME.mjt); must not exist")
	fs.DurationVar(&f.timeout, "timeout", protocol.DefaultTimeout, "how long to wait for a peer's message before aborting and naming it")
	fs.DurationVar(&f.turnTimeout, "turn-timeout", 0, "how long to wait for another player's turn, answer or declaration before aborting and naming it (not shorter than --timeout; default: the table's --time BASE+BANK plus --timeout, or "+timecontrol.OffWait.String()+" with --time off)")
	fs.DurationVar(&f.decisionTimeout, "decision-timeout", 0, "how long the bot (or you, within --time) may think; then the node passes, discards the drawn tile or declares for you, and the transcript says so (default: turn-timeout minus 5s)")
	fs.DurationVar(&f.connectTimeout, "connect-timeout", 10*time.Minute, "how long to wait for the other players to come online")
	fs.DurationVar(&f.reconnectGrace, "reconnect-grace", protocol.DefaultReconnectGrace, "when a player's connection drops, pause the hand and wait this long for it to come back (0: end the hand at once)")
	fs.BoolVar(&f.resume, "resume", false, "pick up the game this node was playing at the table when it stopped (a crash, a kill), from its --data-dir; give the same invite or --peer addresses")
	fs.StringVar(&f.mjlog, "mjlog", "", "write the audited game as a Tenhou mjlog XML record to this file (readable by Tenhou tools and \"mentalmj tenhou replay\")")
	fs.StringVar(&f.json, "json", "", "write the audited game as tenhou.net/6 JSON (mjai-reviewer, NAGA, the tenhou.net/6 viewer) to this file (default DATA-DIR/games/TABLE-TIME.json)")
	fs.StringVar(&f.mjaiBot, "mjai-bot", "", "let an external mjai bot decide: COMMAND runs with sh -c and speaks mjai on stdin/stdout; {seat} in it becomes the seat (e.g. \"python mortal.py {seat}\"); its stderr goes to DATA-DIR/logs/TABLE-TIME-mjai.log; its --decision-timeout defaults to 30s")
	fs.StringVar(&f.progress, "progress", "text", "progress output: text, or json (one object per line, for launchers)")
	fs.BoolVarP(&f.verbose, "verbose", "v", false, "log protocol steps to stderr")
	fs.BoolVar(&f.passive, "tsumogiri", false, "play automatically by discarding every drawn tile and never calling or winning (tests and research)")
	fs.BoolVar(&f.useUI, "ui", false, "play in the browser: serve the table on 127.0.0.1 and print its URL (with --bot: watch the bot play)")
	fs.BoolVar(&f.noOpen, "no-open", false, "with --ui, do not open the browser; only print the URL")
	fs.DurationVar(&f.uiLinger, "ui-linger", 5*time.Minute, "with --ui, keep the page up this long after the game (Ctrl-C ends sooner)")
	fs.StringVar(&f.researchCheat, "research-cheat", "", "RESEARCH ONLY: make this node cheat with the named strategy (see mentalmj lab --list); the others will catch and name it")
	choices(cmd, "rules", "preset", "presets", rules.PresetNames()...)
	choices(cmd, "rule", "switch", "switches", rules.Names()...)
	choices(cmd, "progress", "output", "outputs", "text", "json")
	choices(cmd, "research-cheat", "strategy", "strategies", cheatNames()...)
}

// cheatNames lists the cheating strategies' names (package cheat).
func cheatNames() []string {
	var names []string
	for _, s := range cheat.All() {
		names = append(names, s.Name)
	}
	return names
}

// check validates the shared flags' values; on a bad one it prints a
// usage error naming it and returns ok = false with exit code 2.
func (f *tableFlags) check(cmd *cobra.Command) (code int, ok bool) {
	if code, ok := checkLang(cmd, f.lang); !ok {
		return code, false
	}
	turnTimeoutGiven := cmd.Flags().Changed("turn-timeout")
	switch {
	case f.progress != "text" && f.progress != "json":
		return usageError(cmd, "--progress must be text or json, got %q", f.progress), false
	case f.timeout <= 0 || turnTimeoutGiven && f.turnTimeout <= 0:
		return usageError(cmd, "--timeout and --turn-timeout must be positive"), false
	case f.reconnectGrace < 0:
		return usageError(cmd, "--reconnect-grace must be 0 or more, got %s", f.reconnectGrace), false
	}
	// The settings flags are checked here for every form, so that a
	// malformed one is refused before anything starts; a guest with an
	// invite plays the invite's (setGame).
	if _, err := f.game.Settings(4); err != nil {
		return usageError(cmd, "%v", err), false
	}
	if f.researchCheat != "" {
		st, err := cheat.Lookup(f.researchCheat)
		if err != nil {
			return usageError(cmd, "--research-cheat: %v", err), false
		}
		f.misbehavior = st.New()
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: WARNING: this node cheats (%s: %s), for protocol research\n", cmd.CommandPath(), st.Name, st.Doc)
	}
	return 0, true
}

// seat is what starting a player's node gives: its key, node, logger and
// progress reporter.
type seat struct {
	key crypto.PrivKey
	n   *node.Node
	log *slog.Logger
	out *progress.Reporter
}

// startNode parses --listen and --relay, loads the identity, starts the
// node with peers (may be empty) and meet (see node.Config.Meet), and
// waits up to relayWait for the relay reservations. hostRelays are the
// relays of a guest's invite (invite.Invite.RelayInfos; nil for a host):
// a guest that gave no --relay and stays off the public network reserves
// on them, the host's relays being the table's, so that the other
// players reach it the way it reaches the host. On failure it prints why
// and returns ok = false with the exit code. The caller closes s.n.
func (f *tableFlags) startNode(cmd *cobra.Command, peers []peer.AddrInfo, meet func(peer.ID) bool, hostRelays []peer.AddrInfo) (s seat, code int, ok bool) {
	ctx, stdout, stderr, name := cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cmd.CommandPath()
	laddrs, code, ok := parseListen(cmd, f.listen)
	if !ok {
		return seat{}, code, false
	}
	var relayInfos []peer.AddrInfo
	for _, r := range f.relays {
		info, err := node.ParseRelay(r)
		if err != nil {
			return seat{}, usageError(cmd, "--relay: %v", err), false
		}
		relayInfos = append(relayInfos, info)
	}
	if f.noPublic && len(f.bootstrap) > 0 {
		return seat{}, usageError(cmd, "--bootstrap and --no-public contradict each other"), false
	}
	bootstrap, err := bootstrapPeers(f.bootstrap)
	if err != nil {
		return seat{}, usageError(cmd, "--bootstrap: %v", err), false
	}
	public := usePublic(f.noPublic, len(bootstrap) > 0, len(relayInfos) > 0, laddrs)
	fromInvite := len(relayInfos) == 0 && !public && len(hostRelays) > 0
	if fromInvite {
		relayInfos = hostRelays
	}
	s.log = newLogger(stderr, f.verbose)
	s.out = &progress.Reporter{W: stdout, JSON: f.progress == "json"}
	if public && len(relayInfos) == 0 {
		// The community relay pool before any public relay: its
		// circuits carry a game, public relays' only a hole punch.
		relayInfos = lookPool(ctx, bootstrap, s.out, stderr, name)
	}
	if s.key, err = node.LoadOrCreateIdentity(f.dataDir); err != nil {
		return seat{}, fail(cmd, 2, "--data-dir: %v", err), false
	}
	s.n, err = node.New(ctx, node.Config{Identity: s.key, Listen: laddrs, Peers: peers, Relays: relayInfos, Meet: meet, Logger: s.log,
		MoveToDirect: f.reconnectGrace > 0, OnPath: s.out.Path, OnRelay: s.out.Relay, OnRelayFault: s.out.RelayFault, OnReachability: s.out.Reachability,
		Public: public, Bootstrap: bootstrap, NoPlayerRelay: f.noPlayerRelay})
	if err != nil {
		return seat{}, fail(cmd, 2, "%v", err), false
	}
	if public {
		joinPublic(ctx, s.n, s.out, stderr, name, len(relayInfos) == 0)
	}
	summaryWait := f.netSummaryWait
	if summaryWait <= 0 {
		summaryWait = netSummaryWait
	}
	go printNetSummary(ctx, s.n, s.out, summaryWait)
	switch {
	case fromInvite:
		s.out.Event(progress.Reserving{Relays: len(relayInfos), FromInvite: true},
			"reserving a slot on the host's %d relay(s), from the invite, so that the other players reach you as you reach the host…", len(relayInfos))
	case len(relayInfos) > 0:
		s.out.Event(progress.Reserving{Relays: len(relayInfos)}, "reserving a slot on %d relay(s)…", len(relayInfos))
	}
	if len(relayInfos) > 0 {
		wctx, cancel := context.WithTimeout(ctx, relayWait)
		_, err := s.n.WaitReservations(wctx)
		cancel()
		switch {
		case err != nil && fromInvite:
			fmt.Fprintf(stderr, "%s: the invite's relays: %v\n(still trying in the background; players who cannot dial you directly wait for it; --relay gives a relay of your own)\n", name, err)
		case err != nil:
			fmt.Fprintf(stderr, "%s: --relay: %v\n(still trying in the background; until then the others can reach you only at the addresses below)\n", name, err)
		}
	}
	return s, 0, true
}

// printAddrs prints the node's peer addresses for the others' --peer.
func (s seat) printAddrs() {
	for _, a := range s.n.Addrs() {
		s.out.Event(progress.Address{Addr: a.String(), Relayed: new(strings.Contains(a.String(), "/p2p-circuit/"))}, "peer address: %s", a)
	}
}

// transportAddrs returns the node's dialable addresses without their
// final /p2p/<id>, as an invite or a hello carries them.
func (s seat) transportAddrs() []multiaddr.Multiaddr {
	var out []multiaddr.Multiaddr
	for _, a := range node.Dialable(s.n.Addrs()) {
		t, _ := peer.SplitAddr(a)
		if t != nil {
			out = append(out, t)
		}
	}
	return out
}

// setGame fixes the game the table plays, st (the invite's, or the
// settings flags'), and the wait for the other players' decisions
// (tablerun.TurnTimeout: --turn-timeout, or derived from st's time
// control). It returns a usage error (exit 2) if the wait would be
// shorter than --timeout.
func (f *tableFlags) setGame(cmd *cobra.Command, st settings.Settings) (code int, ok bool) {
	f.play = st
	wait, err := tablerun.TurnTimeout(st, f.timeout, f.turnTimeout)
	if err != nil {
		return usageError(cmd, "%v", err), false
	}
	f.turnTimeout = wait
	return 0, true
}
