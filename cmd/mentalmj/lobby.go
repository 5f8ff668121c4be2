package main

import (
	"context"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/node/lobby"
	"github.com/mentalmj/mentalmj/ui/lobbypage"
	"github.com/mentalmj/mentalmj/ui/web"
)

func lobbyCommand() *cobra.Command {
	var f lobbyFlags
	cmd := leaf(lobbyUsage, "list the open tables of the public network's lobby", func(cmd *cobra.Command, args []string) int {
		return runLobby(cmd, args, &f)
	})
	fs := cmd.Flags()
	fs.IntVar(&f.players, "players", 0, "only tables of this many players (3 or 4)")
	fs.StringVar(&f.rules, "rules", "", "only tables playing this rules `PRESET` (tenhou, majsoul, mleague, wrc, ema)")
	fs.BoolVar(&f.tonpuu, "tonpuu", false, "only east-only tables")
	fs.BoolVar(&f.hanchan, "hanchan", false, "only hanchan tables")
	fs.BoolVar(&f.watchable, "watchable", false, "only tables that allow spectators")
	fs.BoolVar(&f.asJSON, "json", false, "write the tables as a JSON array (keys listed above)")
	fs.BoolVar(&f.page, "ui", false, "serve the list as a page on 127.0.0.1, kept up to date")
	fs.BoolVar(&f.noOpen, "no-open", false, "with --ui: print the page's URL instead of opening the browser")
	fs.IntVar(&f.port, "port", 0, "with --ui: TCP port on 127.0.0.1 (0 picks a free one)")
	addLang(cmd, &f.lang)
	fs.DurationVar(&f.wait, "wait", 8*time.Second, "how long to listen before writing the list (text and --json)")
	fs.BoolVar(&f.first, "first", false, "write the list as soon as a table passes the filters (at most --wait): for scripts that join the first open table")
	f.net.register(cmd)
	return cmd
}

const lobbyUsage = `lobby [--players 3|4] [--rules PRESET] [--tonpuu|--hanchan] [--watchable]
       [--json | --ui [--no-open] [--port N]] [--wait 8s [--first]] [--bootstrap ADDR]… [--no-public] [--lobby-peer ADDR]… [--data-dir DIR]

Lists the open tables announced in the lobby: hosts started with
"mentalmj host --open" announce their table (name, game, their nickname and
peer ID, free seats, the invite, how many spectators it allows, their
league figures if they have any) on the public network's lobby, a
gossipsub topic (/mentalmj/lobby/1), while seats are free. lobby joins
the topic, finds other lobby nodes through the public DHT (or at
--lobby-peer addresses: a LAN, a friend's node), listens for --wait (with
--first, until a table passes the filters, at most --wait), then writes the
tables that pass the filters, each with the line that joins it:

    mentalmj join mmj1…

Joining is the invite flow: the game is shown and confirmed as always.
--ui serves the list on 127.0.0.1 until interrupted, refreshed as
announcements come.

Announcements are signed by gossipsub; every node rejects malformed,
oversized and foreign-authored ones and a host's own announcements more
often than one per 2 s, and scores down the peers that send them.

--json writes [{"table", "host", "nick", "players", "length", "rules",
"settings", "free_seats", "spectators", "invite", "join", and when given
"league_games", "league_rate", "league_dan"}…].

Exit status: 0 done (also with no table); 1 the lobby could not be
joined or the page not served; 2 bad usage.`

// lobbyFlags are the options of "mentalmj lobby".
type lobbyFlags struct {
	players                                          int
	rules                                            string
	tonpuu, hanchan, watchable, asJSON, page, noOpen bool
	first                                            bool // --first: stop at the first table that passes
	port                                             int
	wait                                             time.Duration
	lang                                             string // --lang of the --ui page
	net                                              lobbyNetFlags
}

// lobbyNetFlags are the network options of the lobby, shared by lobby
// and host --open: as join's, plus --lobby-peer.
type lobbyNetFlags struct {
	bootstrap, listen, lobbyPeers listFlag
	noPublic                      bool
	dataDir                       string
}

func (f *lobbyNetFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.Var(&f.bootstrap, "bootstrap", "a public-network (Kademlia DHT) bootstrap peer's multiaddr ending in /p2p/<id>; repeatable; replaces the default public bootstrap peers")
	fs.BoolVar(&f.noPublic, "no-public", false, "stay off the public libp2p network: only --lobby-peer nodes are reached")
	fs.StringVar(&f.dataDir, "data-dir", defaultDataDir(), "directory holding this node's identity key (created if missing)")
	fs.Var(&f.listen, "listen", "multiaddr to listen on, repeatable (default any free TCP and QUIC port)")
	lobbyPeerFlag(cmd, &f.lobbyPeers)
}

// lobbyPeerFlag registers --lobby-peer on cmd.
func lobbyPeerFlag(cmd *cobra.Command, v *listFlag) {
	cmd.Flags().Var(v, "lobby-peer", "a lobby node's multiaddr ending in /p2p/<id> to dial (a LAN, a friend's node, tests); repeatable")
}

// parseLobbyPeers parses --lobby-peer values.
func parseLobbyPeers(cmd *cobra.Command, l listFlag) ([]peer.AddrInfo, int, bool) {
	var out []peer.AddrInfo
	for _, s := range l {
		info, err := node.ParseRelay(s)
		if err != nil {
			return nil, usageError(cmd, "--lobby-peer: %v", err), false
		}
		out = append(out, info)
	}
	return out, 0, true
}

func (f *lobbyFlags) filter(cmd *cobra.Command) (lobby.Filter, int, bool) {
	flt := lobby.Filter{Players: f.players, Rules: f.rules, Spectators: f.watchable}
	switch {
	case f.players != 0 && f.players != 3 && f.players != 4:
		return flt, usageError(cmd, "--players %d: want 3 or 4", f.players), false
	case f.tonpuu && f.hanchan:
		return flt, usageError(cmd, "--tonpuu and --hanchan: choose one"), false
	case f.tonpuu:
		flt.Length = "tonpuu"
	case f.hanchan:
		flt.Length = "hanchan"
	}
	return flt, 0, true
}

func runLobby(cmd *cobra.Command, pos []string, f *lobbyFlags) int {
	ctx, stdout, stderr := cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr()
	if len(pos) > 0 {
		return usageError(cmd, "unexpected argument %q", pos[0])
	}
	if f.asJSON && f.page {
		return usageError(cmd, "--json and --ui: choose one")
	}
	if code, ok := checkLang(cmd, f.lang); !ok {
		return code
	}
	flt, code, ok := f.filter(cmd)
	if !ok {
		return code
	}
	peers, code, ok := parseLobbyPeers(cmd, f.net.lobbyPeers)
	if !ok {
		return code
	}
	if f.net.noPublic && len(f.net.bootstrap) > 0 {
		return usageError(cmd, "--bootstrap and --no-public contradict each other")
	}
	bootstrap, err := bootstrapPeers(f.net.bootstrap)
	if err != nil {
		return usageError(cmd, "--bootstrap: %v", err)
	}
	listen := f.net.listen
	if len(listen) == 0 {
		listen = listFlag{"/ip4/0.0.0.0/tcp/0", "/ip4/0.0.0.0/udp/0/quic-v1"}
	}
	laddrs, code, ok := parseListen(cmd, listen)
	if !ok {
		return code
	}
	key, err := node.LoadOrCreateIdentity(f.net.dataDir)
	if err != nil {
		return fail(cmd, 2, "--data-dir: %v", err)
	}
	log := newLogger(stderr, false)
	public := !f.net.noPublic
	n, err := node.New(ctx, node.Config{Identity: key, Listen: laddrs, Meet: func(peer.ID) bool { return true }, Logger: log, Public: public, Bootstrap: bootstrap})
	if err != nil {
		return fail(cmd, 1, "%v", err)
	}
	defer n.Close()
	l, err := lobby.Join(ctx, n.Host(), lobby.Options{Logger: log})
	if err != nil {
		return fail(cmd, 1, "%v", err)
	}
	defer l.Close()
	l.Connect(ctx, peers)
	if public {
		if _, err := n.JoinPublic(ctx); err != nil {
			fmt.Fprintf(stderr, "mentalmj lobby: offline from the public libp2p network: %v\n", err)
		} else if r := n.Routing(); r != nil {
			l.Discover(ctx, r)
		}
	}
	if f.page {
		page, err := web.ListenPage(lobbypage.Handler(func() []lobby.Table { return flt.Select(l.Tables()) }, f.lang), f.port)
		if err != nil {
			return fail(cmd, 2, "--ui: %v", err)
		}
		fmt.Fprintf(stdout, "lobby page: %s\n(Ctrl-C stops it)\n", page.URL())
		if !f.noOpen {
			if err := web.OpenBrowser(ctx, page.URL()); err != nil {
				fmt.Fprintf(stdout, "open the URL above in your browser (%v)\n", err)
			}
		}
		if err := page.Serve(ctx); err != nil {
			return fail(cmd, 1, "%v", err)
		}
		return 0
	}
	tables := awaitTables(ctx, l, flt, f.wait, f.first)
	if f.asJSON {
		err = lobby.WriteJSON(stdout, tables)
	} else {
		err = lobby.WriteText(stdout, tables)
	}
	if err != nil {
		return fail(cmd, 1, "%v", err)
	}
	return 0
}

// awaitTables waits for the lobby's announcements for wait (or until ctx
// ends), or with first until a table passes flt, and returns the tables
// that pass.
func awaitTables(ctx context.Context, l *lobby.Lobby, flt lobby.Filter, wait time.Duration, first bool) []lobby.Table {
	timeout := time.After(wait)
	for {
		changed := l.Changed()
		tables := flt.Select(l.Tables())
		if first && len(tables) > 0 {
			return tables
		}
		select {
		case <-ctx.Done():
			return tables
		case <-timeout:
			return flt.Select(l.Tables())
		case <-changed:
		}
	}
}
