package main

import (
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/internal/resume"
	"github.com/mentalmj/mentalmj/internal/tablerun"
	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/node/invite"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/settings"
)

func joinCommand() *cobra.Command {
	var (
		f     tableFlags
		peers listFlag
	)
	cmd := leaf(joinUsage, "play hands at a table with three other peers (or two: sanma)", func(cmd *cobra.Command, args []string) int {
		return runJoin(cmd, args, &f, peers)
	})
	f.register(cmd, false)
	cmd.Flags().Var(&peers, "peer", "another player's multiaddr ending in /p2p/<peer id>; give three, or two for a three-player (sanma) game (or an invite instead)")
	return cmd
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
to confirm (y/N; --yes, --bot and --mjai-bot accept at once; with --ui
the browser table opens first and asks too, with Accept and Decline, and
the first answer decides); if you decline it tells the host and exits 1. A settings flag that contradicts
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
relayed address is dialled through its relay. A guest with an invite
that gives no --relay and is off the public network (--no-public, or
listening on loopback only) reserves a slot on the relays the invite
names instead: the host's relays are the table's, and the others then
reach that guest the way it reaches the host. Without --relay (and unless
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

// runJoin is join's steps: the table it joins (an invite, or --table and
// --peer addresses), the game it plays, the node, the meeting with the
// host, and the game itself (tablerun.Play, which gives the exit code).
func runJoin(cmd *cobra.Command, positional []string, f *tableFlags, peers listFlag) int {
	inv, code, ok := f.joinTarget(cmd, positional, peers)
	if !ok {
		return code
	}
	if inv != nil {
		f.spectateHost = inv.Host // the table's spectator topic is named after its host
	}
	if code, ok := f.check(cmd); !ok {
		return code
	}
	if code, ok := f.joinGame(cmd, inv, len(peers)+1); !ok {
		return code
	}
	infos, code, ok := parsePeers(cmd, peers)
	if !ok {
		return code
	}
	if f.resume {
		if infos, code, ok = f.resumeJoin(cmd, inv, infos); !ok {
			return code
		}
		// The host's signed list was checked when the game started; a
		// resumed node goes straight back to the table.
		inv = nil
	}
	meet, hostRelays, code, ok := f.guestGate(cmd, inv)
	if !ok {
		return code
	}
	st, code, ok := f.startNode(cmd, infos, meet, hostRelays)
	if !ok {
		return code
	}
	defer st.n.Close()
	t := f.tableRun()
	defer t.StopUI()
	if inv == nil {
		st.printAddrs()
	} else if code, ok := f.greetHost(cmd, t, st, *inv); !ok {
		return code
	}
	return tablerun.Play(cmd.Context(), t, tablerun.Seat{Key: st.key, Node: st.n, Log: st.log, Out: st.out}, cmd.OutOrStdout(), cmd.ErrOrStderr())
}

// joinTarget reads the table join's arguments name: the invite (setting
// --table from it; returned), or --table with two or three --peer
// addresses (nil returned). A bad form is a usage error (ok false, exit
// code 2).
func (f *tableFlags) joinTarget(cmd *cobra.Command, positional []string, peers listFlag) (inv *invite.Invite, code int, ok bool) {
	switch {
	case len(positional) > 1:
		return nil, usageError(cmd, "unexpected argument %q", positional[1]), false
	case len(positional) == 1 && len(peers) > 0:
		return nil, usageError(cmd, "give an invite or --peer addresses, not both"), false
	case len(positional) == 1:
		i, err := invite.Parse(positional[0])
		if err != nil {
			return nil, usageError(cmd, "%v", err), false
		}
		if f.table != "" {
			if err := i.ForTable(f.table); err != nil {
				return nil, usageError(cmd, "--table: %v", err), false
			}
		}
		f.table = i.Table
		return &i, 0, true
	case f.table == "":
		return nil, usageError(cmd, "--table is required (or give the mmj1… invite the host printed)"), false
	case len(peers) != protocol.Players-1 && len(peers) != 2:
		return nil, usageError(cmd, "give %d --peer addresses (or 2 for a three-player game), got %d", protocol.Players-1, len(peers)), false
	}
	return nil, 0, true
}

// joinGame fixes the game a player joining plays (setGame): the invite's,
// which a settings flag may only repeat (settings.Flags.Game), or the
// flags' for a table of players players.
func (f *tableFlags) joinGame(cmd *cobra.Command, inv *invite.Invite, players int) (code int, ok bool) {
	var host *settings.Settings
	if inv != nil {
		host, players = inv.Settings, inv.PlayerCount()
	}
	game, err := f.game.Game(host, players)
	if err != nil {
		return usageError(cmd, "%v", err), false
	}
	return f.setGame(cmd, game)
}

// parsePeers parses the --peer addresses; a bad one is a usage error.
func parsePeers(cmd *cobra.Command, peers listFlag) (infos []peer.AddrInfo, code int, ok bool) {
	for _, s := range peers {
		info, err := node.ParsePeer(s)
		if err != nil {
			return nil, usageError(cmd, "--peer: %v", err), false
		}
		infos = append(infos, info)
	}
	return infos, 0, true
}

// resumeJoin is join --resume: the other players of the game in progress
// (loadResume), who must be those of given, the --peer addresses, when
// there is no invite (resume.SameTable).
func (f *tableFlags) resumeJoin(cmd *cobra.Command, inv *invite.Invite, given []peer.AddrInfo) (saved []peer.AddrInfo, code int, ok bool) {
	saved, code, ok = f.loadResume(cmd)
	if !ok {
		return nil, code, false
	}
	if inv == nil {
		if err := resume.SameTable(given, saved); err != nil {
			return nil, fail(cmd, 2, "--resume: %v", err), false
		}
	}
	return saved, 0, true
}

// guestGate is, for a guest with the invite inv, who may reach its node
// before the host's signed list of players (node.Config.Meet): only the
// host, and the relays of its relayed addresses to reach it through; and
// the invite's relays (invite.Invite.RelayInfos). Without an invite, nil
// and nil: the table is the --peer addresses from the start.
func (f *tableFlags) guestGate(cmd *cobra.Command, inv *invite.Invite) (meet func(peer.ID) bool, hostRelays []peer.AddrInfo, code int, ok bool) {
	if inv == nil {
		return nil, nil, 0, true
	}
	if err := invite.CheckNick(f.nick); err != nil {
		return nil, nil, usageError(cmd, "--name: %v", err), false
	}
	relays := inv.Relays()
	meet = func(p peer.ID) bool { return p == inv.Host || slices.Contains(relays, p) }
	return meet, inv.RelayInfos(), 0, true
}

// greetHost shows a guest the host's game and asks whether to play it
// (confirm), tells the host a refusal (declineHost, exit 1), or meets the
// host (meetHost) and is seated.
func (f *tableFlags) greetHost(cmd *cobra.Command, t *tablerun.Table, st seat, inv invite.Invite) (code int, ok bool) {
	ctx, stderr := cmd.Context(), cmd.ErrOrStderr()
	screen := cmd.OutOrStdout()
	if f.progress == "json" {
		screen = stderr
	}
	yes, err := f.confirm(ctx, t, st, inv, cmd.InOrStdin(), screen)
	switch {
	case err != nil && ctx.Err() != nil:
		return fail(cmd, 1, "stopped before you answered: %v", err), false
	case err != nil:
		return fail(cmd, 2, "%v", err), false
	case !yes:
		return declineHost(ctx, f, st, inv, stderr), false
	}
	return meetHost(ctx, f, st, inv, stderr)
}

// relayWait bounds how long join waits for its relay reservations before
// printing its addresses.
const relayWait = 10 * time.Second

// defaultDataDir is $XDG_CONFIG_HOME/mentalmj (or the platform's config
// directory), falling back to ./mentalmj-data.
func defaultDataDir() string {
	if d, err := os.UserConfigDir(); err == nil {
		return filepath.Join(d, "mentalmj")
	}
	return "mentalmj-data"
}
