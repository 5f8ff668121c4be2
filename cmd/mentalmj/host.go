package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/internal/tablerun"
	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/node/invite"
	"github.com/mentalmj/mentalmj/node/lobby"
	lobbypb "github.com/mentalmj/mentalmj/node/lobby/pb"
	"github.com/mentalmj/mentalmj/node/spectate"
	"github.com/mentalmj/mentalmj/riichi/settings"
	"github.com/mentalmj/mentalmj/stats/league"
)

func hostCommand() *cobra.Command {
	var f tableFlags
	cmd := leaf(hostUsage, "open a table and print the invite the three other players join with", func(cmd *cobra.Command, args []string) int {
		return runHost(cmd, args, &f)
	})
	f.register(cmd, true)
	cmd.Flags().BoolVar(&f.open, "open", false, "announce the table in the public network's lobby while seats are free (see mentalmj lobby)")
	lobbyPeerFlag(cmd, &f.lobbyPeers)
	return cmd
}

const hostUsage = `host --table NAME [--players 3|4] [--hands N] [--tonpuu] [--rules PRESET]
       [--rule NAME=VALUE]… [--time BASE+BANK|off] [--private-hands] [--no-proofs] [flags]

Opens a four-player table (--players 3: a three-player table, Tenhou's
sanma rules) and prints one line,

    mentalmj join mmj1…

for the three other players to run: the invite carries the table's name,
this node's peer ID, the addresses it can be dialled at (relayed ones too:
one or two on every relay it reserved on, each --relay or a public one;
at most 16 addresses in all, so that the invite stays under 2048
characters) and the game: the number of players, the match length
(a whole hanchan unless --tonpuu or --hands N), the house rules (--rules,
--rule), the time control of a human seat (--time, 5+10 by default),
proofs and private hands. The guests play exactly that game; each is
shown it and confirms before it joins. As players arrive it prints "bob joined, 2 of 4";
when three have joined it signs the list of the four players and sends it
to them, and the game starts as with "join" (every flag of join applies).
The host only gathers the players: seats and dice are drawn jointly by
all four, as always. Until the list is fixed, strangers reach this node's
meeting protocol only, never the game.`

func runHost(cmd *cobra.Command, positional []string, f *tableFlags) int {
	game, code, ok := f.hostGame(cmd, positional)
	if !ok {
		return code
	}
	if f.resume {
		return f.resumeHost(cmd)
	}
	st, code, ok := f.startNode(cmd, nil, func(peer.ID) bool { return true }, nil)
	if !ok {
		return code
	}
	defer st.n.Close()
	m, inviteCode, code, ok := f.openMeeting(cmd, st, game)
	if !ok {
		return code
	}
	defer m.Close()
	t := f.tableRun()
	defer t.StopUI()
	if f.useUI && !f.useBot && f.mjaiBot == "" {
		if err := t.OpenRoom(cmd.Context(), cmd.OutOrStdout()); err != nil {
			return fail(cmd, 2, "%v", err)
		}
	}
	var opening *lobby.Opening
	if f.open {
		if opening, code, ok = openInLobby(cmd, f, st, game, inviteCode); !ok {
			return code
		}
		defer opening.Close()
	}
	seating, err := f.gather(cmd, st, m, t, opening, game.Players)
	if err != nil {
		return fail(cmd, 1, "%v", err)
	}
	if code, ok := seatTable(cmd, st, m, seating); !ok {
		return code
	}
	return tablerun.Play(cmd.Context(), t, tablerun.Seat{Key: st.key, Node: st.n, Log: st.log, Out: st.out}, cmd.OutOrStdout(), cmd.ErrOrStderr())
}

// hostGame checks host's arguments and flags (no positional argument, a
// valid --table and --name, the table flags) and returns the game the
// invite will carry, set on f as join's would be. A bad one is a usage
// error (ok false, exit code 2).
func (f *tableFlags) hostGame(cmd *cobra.Command, positional []string) (game settings.Settings, code int, ok bool) {
	switch {
	case len(positional) > 0:
		return game, usageError(cmd, "unexpected argument %q", positional[0]), false
	case f.table == "":
		return game, usageError(cmd, "--table is required"), false
	}
	if err := invite.CheckTable(f.table); err != nil {
		return game, usageError(cmd, "--table: %v", err), false
	}
	if err := invite.CheckNick(f.nick); err != nil {
		return game, usageError(cmd, "--name: %v", err), false
	}
	if code, ok := f.check(cmd); !ok {
		return game, code, false
	}
	game, err := f.game.Settings(0)
	if err != nil {
		return game, usageError(cmd, "%v", err), false
	}
	if code, ok := f.setGame(cmd, game); !ok {
		return game, code, false
	}
	return game, 0, true
}

// resumeHost goes back to a table that met and started a game (--resume):
// no meeting, the saved table and peers, then the game. It returns the
// exit code.
func (f *tableFlags) resumeHost(cmd *cobra.Command) int {
	saved, code, ok := f.loadResume(cmd)
	if !ok {
		return code
	}
	st, code, ok := f.startNode(cmd, saved, nil, nil)
	if !ok {
		return code
	}
	defer st.n.Close()
	return playTable(cmd.Context(), f, st, cmd.OutOrStdout(), cmd.ErrOrStderr())
}

// openMeeting starts the meeting protocol for game on st's node and prints
// the invite (and the game it carries) for the other players; the host
// counts as the first of the table's players. The invite's addresses fill
// the room its other fields leave (invite.ChooseAddrs). A failure is exit
// code 2 (ok false).
func (f *tableFlags) openMeeting(cmd *cobra.Command, st seat, game settings.Settings) (m *invite.Meeting, code string, exit int, ok bool) {
	probe := invite.Invite{Table: f.table, Host: st.n.ID(), Nick: f.nick, Players: game.Players, Settings: &game}
	m, err := invite.NewMeeting(st.n.Host(), st.key, f.table, f.nick, invite.ChooseAddrs(st.transportAddrs(), probe.AddrRoom()), st.log)
	if err != nil {
		return nil, "", fail(cmd, 2, "%v", err), false
	}
	err = m.SetSettings(game)
	if err == nil {
		code, err = m.Invite().Encode()
	}
	if err != nil {
		m.Close()
		return nil, "", fail(cmd, 2, "%v", err), false
	}
	st.out.Event(progress.Invite{Invite: code, Table: f.table},
		"mentalmj join %s\n↑ send this line to the %d others; each runs it adding --name and a nickname (and --ui for the browser table)", code, game.Players-1)
	f.spectateHost = st.n.ID()
	if game.Spectators > 0 {
		st.n.AdmitSpectators(game.Spectators)
		link := spectate.Link{Table: f.table, Host: st.n.ID(), Addrs: m.Invite().Addrs}
		st.out.Event(progress.WatchLink{Link: link.String(), Spectators: game.Spectators},
			"mentalmj watch %s\n↑ spectators run this line, before the game or during it (up to %d connect to this node; they forward to each other)", link, game.Spectators)
	}
	desc := m.Invite().Describe()
	st.out.Event(progress.Game{Table: f.table, Settings: desc}, "%s", desc)
	me := f.nick
	if me == "" {
		me = "you"
	}
	st.out.Event(progress.Waiting{Count: 1}, "%s joined, 1 of %d", me, game.Players)
	return m, code, 0, true
}

// gather waits (at most --connect-timeout) until the table's players
// of nPlayers have joined the meeting, printing each arrival, departure
// and refusal, showing the room on the table's screen and keeping the
// lobby's free-seat count (opening, nil when not --open) current. It
// withdraws the lobby announcement when it returns, and returns the
// seating or the meeting's error.
func (f *tableFlags) gather(cmd *cobra.Command, st seat, m *invite.Meeting, t *tablerun.Table, opening *lobby.Opening, nPlayers int) (invite.Seating, error) {
	room := []invite.Seat{{ID: st.n.ID(), Nick: f.nick}}
	showRoom := func() {
		var names []string
		for _, s := range room {
			names = append(names, displayName(s, st.n.ID()))
		}
		t.Room(names, nPlayers)
	}
	showRoom()
	gctx, cancel := context.WithTimeout(cmd.Context(), f.connectTimeout)
	defer cancel()
	seating, err := m.Gather(gctx, func(a invite.Arrival) {
		verb := "joined"
		switch {
		case a.Left:
			verb = "left"
		case a.Declined:
			verb = "declined the game"
		}
		room = slices.DeleteFunc(room, func(s invite.Seat) bool { return s.ID == a.Seat.ID })
		if !a.Left && !a.Declined {
			room = append(room, a.Seat)
		}
		if opening != nil {
			opening.SetFreeSeats(uint32(max(nPlayers-len(room), 0)))
		}
		showRoom()
		st.out.Name(a.Seat.ID, a.Seat.Nick)
		st.out.Event(progress.Arrival{Peer: a.Seat.ID.String(), Nick: a.Seat.Nick, Left: a.Left, Declined: a.Declined, Count: a.Count},
			"%s %s, %d of %d", displayName(a.Seat, st.n.ID()), verb, a.Count, nPlayers)
	})
	if opening != nil {
		opening.Close() // the table is full (or the meeting failed): withdrawn
	}
	return seating, err
}

// seatTable fixes the table on st's node and sends the signed list of
// players to the guests, then prints the seating. The table is set before
// the guests learn it, so that their game streams find it. A guest gone
// between the last arrival and the list is exit code 1 (ok false): the
// table cannot play without it.
func seatTable(cmd *cobra.Command, st seat, m *invite.Meeting, seating invite.Seating) (code int, ok bool) {
	if err := st.n.SetPeers(seating.Peers(st.n.ID())); err != nil {
		return fail(cmd, 1, "%v", err), false
	}
	if err := m.Announce(cmd.Context()); err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "mentalmj host: %v\n(a player left just as the table filled; host again)\n", err)
		return 1, false
	}
	printSeating(st, seating)
	return 0, true
}

// openInLobby announces the table (settings game, invite code) in the
// lobby: on the public network's rendezvous and at --lobby-peer nodes,
// with the host's league figures from its data directory's certificates.
func openInLobby(cmd *cobra.Command, f *tableFlags, st seat, game settings.Settings, code string) (*lobby.Opening, int, bool) {
	ctx := cmd.Context()
	peers, c, ok := parseLobbyPeers(cmd, f.lobbyPeers)
	if !ok {
		return nil, c, false
	}
	l, err := lobby.Join(ctx, st.n.Host(), lobby.Options{Logger: st.log})
	if err != nil {
		return nil, fail(cmd, 1, "--open: %v", err), false
	}
	l.Connect(ctx, peers)
	if r := st.n.Routing(); r != nil {
		l.Discover(ctx, r)
	}
	a := &lobbypb.Announcement{Nick: f.nick, Table: f.table, Settings: game.Proto(), FreeSeats: uint32(game.Players - 1), Spectators: uint32(game.Spectators), Invite: code, League: hostFigures(f.dataDir, st.n.ID(), game.Players)}
	o, err := l.Open(ctx, a)
	if err != nil {
		l.Close()
		return nil, fail(cmd, 2, "--open: %v", err), false
	}
	st.out.Event(progress.Lobby{Topic: lobby.Topic}, "announced in the lobby (%s) while seats are free: mentalmj lobby lists it", lobby.Topic)
	return o.OwnLobby(l), 0, true
}

// hostFigures are the host's league figures from the certificates under
// dataDir/games, for a table of players; nil without any.
func hostFigures(dataDir string, self peer.ID, players int) *lobbypb.LeagueFigures {
	games, _ := league.Load([]string{filepath.Join(dataDir, "games")})
	st := league.Compute(games, league.Ippan)
	l := st.FourPlayer
	if players == 3 {
		l = st.ThreePlayer
	}
	if l == nil {
		return nil
	}
	for _, p := range l.Players {
		if p.PeerID == self.String() {
			lf := &lobbypb.LeagueFigures{Games: uint32(p.Games), RateCenti: int32(math.Round(p.Rate * 100)), Dan: p.Dan}
			if p.DanPoints != nil {
				lf.DanPoints = int32(*p.DanPoints)
			}
			return lf
		}
	}
	return nil
}

// meetHost is a guest's meeting with the host of inv: it prints who has
// arrived as it changes, checks the signed seating list and sets the
// node's table from it. On failure it prints why and returns ok = false
// with meetingExit's code.
func meetHost(ctx context.Context, f *tableFlags, st seat, inv invite.Invite, stderr io.Writer) (code int, ok bool) {
	st.out.Event(progress.Joining{Table: inv.Table, Host: inv.Host.String()}, "joining table %q at %s…", inv.Table, inv.Host)
	var before []invite.Seat
	mctx, cancel := context.WithTimeout(ctx, f.connectTimeout)
	seating, err := invite.Join(mctx, st.n.Host(), inv, f.nick, st.transportAddrs(), func(now []invite.Seat) {
		printArrivals(st, inv.Host, inv.PlayerCount(), before, now)
		before = now
	}, hostFinder(st, inv))
	cancel()
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj join: %v\n", err)
		return meetingExit(err), false
	}
	if err := st.n.SetPeers(seating.Peers(st.n.ID())); err != nil {
		fmt.Fprintf(stderr, "mentalmj join: seating list: %v\n", err)
		return 1, false
	}
	printSeating(st, seating)
	return 0, true
}

// meetingExit is join's exit code for a meeting with the host that
// failed with err: 3 (a fault) when the host could not be reached or the
// table was not set in time (--connect-timeout), as for a peer lost in
// the game; 1 when the host refused this guest or its seating list does
// not check out.
func meetingExit(err error) int {
	if errors.Is(err, invite.ErrUnreachable) || errors.Is(err, context.DeadlineExceeded) {
		return 3
	}
	return 1
}

// hostFinder looks the host of inv up on the public DHT when the invite's
// addresses do not answer, saying what it waits for; nil (no look-up) for
// a node off the public network.
func hostFinder(st seat, inv invite.Invite) *invite.Finder {
	if !st.n.Public() {
		return nil
	}
	name := displayName(invite.Seat{ID: inv.Host, Nick: inv.Nick}, st.n.ID())
	return &invite.Finder{
		Find: st.n.FindPeer,
		Wait: node.FindPeerTimeout,
		Looking: func(wait time.Duration) {
			st.out.Event(progress.Lookup{Peer: inv.Host.String(), TimeoutMs: wait.Milliseconds()},
				"the invite's addresses did not answer; looking %s up on the public DHT (up to %s)…", name, wait)
		},
		Found: func(addrs []multiaddr.Multiaddr, err error) {
			if err != nil {
				st.out.Event(progress.LookupFailed{Peer: inv.Host.String(), Err: err.Error()},
					"the public DHT did not find %s: %v", name, err)
				return
			}
			st.out.Event(progress.LookupFound{Peer: inv.Host.String(), Addrs: len(addrs)},
				"the public DHT found %s at %d address(es); dialling them", name, len(addrs))
		},
	}
}

// printArrivals prints the change from the list of players before to now:
// everyone at first, then who joined and who left.
func printArrivals(st seat, host peer.ID, total int, before, now []invite.Seat) {
	self := st.n.ID()
	names := func(ss []invite.Seat) (out []string) {
		for _, s := range ss {
			n := displayName(s, self)
			if s.ID == host {
				n += " (host)"
			}
			out = append(out, n)
		}
		return out
	}
	var players []progress.Player
	for _, s := range now {
		players = append(players, progress.Player{Peer: s.ID.String(), Nick: s.Nick})
		st.out.Name(s.ID, s.Nick)
	}
	obj := progress.Arrivals{Players: players, Count: len(now)}
	if before == nil {
		st.out.Event(obj, "at the table: %s; %d of %d", strings.Join(names(now), ", "), len(now), total)
		return
	}
	has := func(ss []invite.Seat, id peer.ID) bool {
		for _, s := range ss {
			if s.ID == id {
				return true
			}
		}
		return false
	}
	var lines []string
	for _, s := range before {
		if !has(now, s.ID) {
			lines = append(lines, fmt.Sprintf("%s left, %d of %d", displayName(s, self), len(now), total))
		}
	}
	for _, s := range now {
		if !has(before, s.ID) {
			lines = append(lines, fmt.Sprintf("%s joined, %d of %d", displayName(s, self), len(now), total))
		}
	}
	if len(lines) > 0 {
		st.out.Event(obj, "%s", strings.Join(lines, "\n"))
	}
}

// printSeating prints the four players of the signed list.
func printSeating(st seat, s invite.Seating) {
	var names []string
	var ids []string
	for _, p := range s.Seats {
		names = append(names, displayName(p, st.n.ID()))
		ids = append(ids, p.ID.String())
	}
	st.out.Event(progress.Seated{Table: s.Table, Peers: ids},
		"table %q is complete: %s (seats are drawn when the game starts)", s.Table, strings.Join(names, ", "))
}

// displayName is a player's nickname, or the end of its peer ID; "you"
// for this node without a nickname.
func displayName(s invite.Seat, self peer.ID) string {
	switch {
	case s.Nick != "" && s.ID == self:
		return s.Nick + " (you)"
	case s.Nick != "":
		return s.Nick
	case s.ID == self:
		return "you"
	}
	id := s.ID.String()
	if len(id) > 12 {
		return "…" + id[len(id)-8:]
	}
	return id
}

// confirm shows the invite's game (inv.Describe) and asks the player to
// play it, on screen (reading the answer from in) and, with --ui, on the
// browser table t starts (tablerun.Table.Confirm); --yes, --bot,
// --mjai-bot and --tsumogiri accept at once. It returns an error if the
// browser table cannot be started or ctx ends.
func (f *tableFlags) confirm(ctx context.Context, t *tablerun.Table, st seat, inv invite.Invite, in io.Reader, screen io.Writer) (bool, error) {
	desc := inv.Describe()
	st.out.Event(progress.Game{Table: inv.Table, HostNick: &inv.Nick, Settings: desc}, "%s", desc)
	if f.yes || f.useBot || f.mjaiBot != "" || f.passive {
		return true, nil
	}
	return t.Confirm(ctx, tablerun.InviteMsg(inv), in, screen)
}

// declineHost tells the host of inv that this guest will not play its
// game, and returns exit code 1.
func declineHost(ctx context.Context, f *tableFlags, st seat, inv invite.Invite, stderr io.Writer) int {
	dctx, cancel := context.WithTimeout(ctx, declineWait)
	err := invite.Decline(dctx, st.n.Host(), inv, f.nick, hostFinder(st, inv))
	cancel()
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj join: you declined the game; the host could not be told: %v\n", err)
		return 1
	}
	st.out.Event(progress.Declined{}, "you declined the game; the host was told (answer y to play it, or give --yes)")
	return 1
}

// declineWait bounds how long a guest that declines tries to tell the
// host.
const declineWait = 30 * time.Second
