package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/node/spectate"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/verdict"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/spectator"
	"github.com/mentalmj/mentalmj/ui/terminal"
	"github.com/mentalmj/mentalmj/ui/web"
)

func watchCommand() *cobra.Command {
	var f watchFlags
	cmd := leaf(watchUsage, "watch a table live and verify it as it is played", func(cmd *cobra.Command, args []string) int {
		return runWatch(cmd, args, &f)
	})
	fs := cmd.Flags()
	fs.Var(&f.bootstrap, "bootstrap", "a public-network (Kademlia DHT) bootstrap peer's multiaddr ending in /p2p/<id>; repeatable; replaces the default public bootstrap peers")
	fs.BoolVar(&f.noPublic, "no-public", false, "stay off the public libp2p network: only the host from the link and --peer spectators are reached")
	fs.StringVar(&f.dataDir, "data-dir", defaultDataDir(), "directory where the watched entries are saved as a transcript (watched/TABLE-TIME.mjt)")
	fs.Var(&f.listen, "listen", "multiaddr to listen on, repeatable (default any free TCP and QUIC port)")
	fs.Var(&f.peers, "peer", "another spectator's multiaddr ending in /p2p/<id> to dial (spectators forward to each other); repeatable")
	fs.DurationVar(&f.idle, "idle", 5*time.Minute, "stop when nothing arrives for this long (the table stopped, or the host, its only publisher, cannot be reached)")
	fs.BoolVar(&f.asJSON, "json", false, "write the final verdict as JSON (as mentalmj audit --json)")
	fs.BoolVar(&f.events, "events", false, "print a line for every public event as it comes (a player sitting down, discards, calls, riichi, wins, draws, key reveals)")
	fs.BoolVar(&f.table, "table", false, "print the table as text: every seat's river, melds, score and concealed hand (backs, #, until the hand's keys are revealed), the events, and each hand's summary with its audit")
	fs.BoolVar(&f.useUI, "ui", false, "watch in the browser: serve the spectator's table on 127.0.0.1 and print its URL")
	fs.BoolVar(&f.noOpen, "no-open", false, "with --ui, do not open the browser; only print the URL")
	fs.IntVar(&f.port, "port", 0, "with --ui: TCP port on 127.0.0.1 (0 picks a free one)")
	fs.DurationVar(&f.uiLinger, "ui-linger", 5*time.Minute, "with --ui, keep the page up this long after the game (Ctrl-C ends sooner)")
	fs.BoolVarP(&f.verbose, "verbose", "v", false, "log the node's and the topic's work to stderr (connections, catch-ups, what was dropped and why)")
	addLang(cmd, &f.lang)
	return cmd
}

type watchFlags struct {
	bootstrap, listen, peers listFlag
	noPublic, asJSON, events bool
	verbose                  bool
	table, useUI, noOpen     bool
	dataDir, lang            string
	idle, uiLinger           time.Duration
	port                     int
}

const watchUsage = `watch LINK [-v] [--bootstrap ADDR] [--no-public] [--data-dir DIR] [--peer ADDR] [--events] [--table | --ui [--no-open] [--port N]] [--lang ja|en] [--json]

Watches a table live: LINK is the "mentalmj watch mmjw1…" line the host
printed (host --spectators N). Started after the game did, it first asks
the host for everything it missed (the Hellos, every hand before and the
hand in play) and audits every hand, those before it came included.
watch dials the host, joins the table's gossipsub topic and takes every
public entry the players sign as they play: seats and dice, the shuffle
and rekey passes with their proofs, dora indicators, discards, calls,
riichi, wins, draws and, at the end of each hand, its key reveal. It
never gets a private key release: a hand's concealed tiles are shown
only when the hand is over (with private hands, only what the rules
reveal). Every message is checked before it is taken or forwarded:
signed by a player of the table, its entry signed by that player;
anything else is rejected and the peer that sent it named.

After each hand's key reveal watch audits the game so far, as a player's
audit does (signatures, hash chains, every proof, the whole hand), and
prints a line for the hand (--events: and a line for every discard,
call, riichi, win, draw and key reveal as it comes, the tiles as the
players claim them; the hand's audit checks every claim). --table prints
the table as text instead: at each deal every seat's score, river, melds
and concealed hand as backs (#), then the events, and after the hand's
key reveal the table with every hand face up and the summary with its
audit. --ui serves the same spectator's table in the browser (127.0.0.1
only, the token in the URL; it opens unless --no-open): all four seats
(three in sanma), each concealed hand as tile backs until the hand's
keys are revealed, then face up, a banner with each hand's verdict and
no buttons. At the end it prints the verdict as "mentalmj audit" does
and saves the entries it took in --data-dir (watched/TABLE-TIME.mjt;
"mentalmj audit FILE" audits them again).

Exit status, as audit's: 0 every hand verified; 1 a cheat is proven
(blame); 2 bad usage, or nothing could be audited; 3 no cheat is proven
but the game did not complete as watched (faults: an entry that never
came, the feed stopped: the host alone publishes, and the table cannot
play on without it either).`

func runWatch(cmd *cobra.Command, args []string, f *watchFlags) int {
	ctx, stdout, stderr := cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr()
	in, code, ok := parseWatchArgs(cmd, args, f)
	if !ok {
		return code
	}
	log := newLogger(stderr, f.verbose)
	n, w, err := startWatchNode(ctx, f, in, log, stderr)
	if err != nil {
		return fail(cmd, 1, "%v", err)
	}
	defer n.Close()
	defer w.Close()
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w.Keep(wctx, n.Host(), append([]peer.AddrInfo{in.link.AddrInfo()}, in.peers...))
	fmt.Fprintf(stdout, "watching table %q (host %s) on %s\nspectators may dial this node: %s/p2p/%s\n", in.link.Table, in.link.Host, in.link.Topic(), firstAddr(n), n.ID())
	view, err := newWatchView(ctx, f, stdout)
	if err != nil {
		return fail(cmd, 1, "%v", err)
	}
	var last atomic.Int64
	last.Store(time.Now().UnixNano())
	go idleStop(wctx, cancel, &last, f.idle)
	r, audited, err := followGame(wctx, w, f, view, &last, stdout, stderr)
	view.finish(w.Records())
	sayHowItEnded(ctx, wctx, w, in.link, f, audited, stdout, stderr)
	if err != nil {
		return fail(cmd, 2, "%v", err)
	}
	if path, err := saveWatched(f.dataDir, in.link.Table, w.Records()); err != nil {
		fmt.Fprintf(stderr, "mentalmj watch: the watched entries were not saved: %v\n", err)
	} else {
		fmt.Fprintf(stdout, "watched entries: %s (mentalmj audit %s)\n", path, path)
	}
	exit := writeReport(stdout, r, f.asJSON)
	view.linger(ctx, f.uiLinger, stdout)
	return exit
}

// watchArgs is what watch's argument and flags name: the table's watch
// link, the other spectators to dial, the listen addresses and the
// bootstrap peers.
type watchArgs struct {
	link      spectate.Link
	peers     []peer.AddrInfo
	listen    []multiaddr.Multiaddr
	bootstrap []peer.AddrInfo
}

// parseWatchArgs checks watch's argument and flags; when they do not
// hold, it has printed the usage error and returns the exit code and
// false.
func parseWatchArgs(cmd *cobra.Command, args []string, f *watchFlags) (watchArgs, int, bool) {
	var in watchArgs
	if len(args) != 1 {
		return in, usageError(cmd, "give the watch link (mmjw1…) the host printed"), false
	}
	link, err := spectate.ParseLink(args[0])
	if err != nil {
		return in, usageError(cmd, "%v", err), false
	}
	in.link = link
	if f.noPublic && len(f.bootstrap) > 0 {
		return in, usageError(cmd, "--bootstrap and --no-public contradict each other"), false
	}
	if f.table && f.useUI {
		return in, usageError(cmd, "--table and --ui: choose the text table or the browser"), false
	}
	if (f.noOpen || f.port != 0) && !f.useUI {
		return in, usageError(cmd, "--no-open and --port go with --ui"), false
	}
	if code, ok := checkLang(cmd, f.lang); !ok {
		return in, code, false
	}
	if in.bootstrap, err = bootstrapPeers(f.bootstrap); err != nil {
		return in, usageError(cmd, "--bootstrap: %v", err), false
	}
	for _, b := range f.peers {
		info, err := node.ParseRelay(b)
		if err != nil {
			return in, usageError(cmd, "--peer: %v", err), false
		}
		in.peers = append(in.peers, info)
	}
	listen := f.listen
	if len(listen) == 0 {
		listen = listFlag{"/ip4/0.0.0.0/tcp/0", "/ip4/0.0.0.0/udp/0/quic-v1"}
	}
	laddrs, code, ok := parseListen(cmd, listen)
	if !ok {
		return in, code, false
	}
	in.listen = laddrs
	return in, 0, true
}

// startWatchNode starts the spectator's libp2p node, with a fresh key
// each time (a spectator needs no lasting identity, and never a
// player's: its data directory may be one's), joins the table's topic,
// and joins the public network unless --no-public (being offline from
// it is said on stderr, not fatal). It returns node.New's and
// spectate.NewWatch's errors.
func startWatchNode(ctx context.Context, f *watchFlags, in watchArgs, log *slog.Logger, stderr io.Writer) (*node.Node, *spectate.Watch, error) {
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	public := !f.noPublic
	n, err := node.New(ctx, node.Config{Identity: key, Listen: in.listen, Meet: func(peer.ID) bool { return true }, Logger: log, Public: public, Bootstrap: in.bootstrap})
	if err != nil {
		return nil, nil, err
	}
	w, err := spectate.NewWatch(ctx, n.Host(), in.link, spectate.Options{Logger: log, OnReject: func(r spectate.Rejection) {
		fmt.Fprintf(stderr, "mentalmj watch: %s\n", r)
	}})
	if err != nil {
		n.Close()
		return nil, nil, err
	}
	if public {
		if _, err := n.JoinPublic(ctx); err != nil {
			fmt.Fprintf(stderr, "mentalmj watch: offline from the public libp2p network: %v\n", err)
		}
	}
	return n, w, nil
}

// followGame runs the Watch to the game's end, showing each entry (with
// --events, a line; the view, the table or page) and each hand's verdict,
// and noting in last when an entry last came (idleStop). It returns
// Watch.Run's report and error, and the hands audited, in order.
func followGame(ctx context.Context, w *spectate.Watch, f *watchFlags, view *watchView, last *atomic.Int64, stdout, stderr io.Writer) (*verdict.Report, []int, error) {
	nicks := map[peer.ID]string{}
	name := func(p peer.ID) string {
		if n := nicks[p]; n != "" {
			return n
		}
		s := p.String()
		return "…" + s[max(0, len(s)-8):]
	}
	var audited []int
	r, err := w.Run(ctx, func(o *protocol.Opened) {
		last.Store(time.Now().UnixNano())
		if h := o.Entry.GetHello(); h != nil {
			nicks[o.Sender] = h.Nick
		}
		if f.events {
			if line := spectate.EventLine(o, name); line != "" {
				fmt.Fprintln(stdout, line)
			}
		}
		view.entry(o, stderr)
	}, func(v spectate.HandVerdict) {
		audited = append(audited, v.Hand)
		if !f.table {
			fmt.Fprintln(stdout, v)
		}
		view.hand(v)
	})
	return r, audited, err
}

// sayHowItEnded says how a late spectator caught up and which hands it
// audited, names the host's entries that never came, and, when the feed
// went quiet for --idle (wctx ended, ctx did not), says so as a fault of
// the host's node or table, not a blame.
func sayHowItEnded(ctx, wctx context.Context, w *spectate.Watch, link spectate.Link, f *watchFlags, audited []int, stdout, stderr io.Writer) {
	if line := lateLine(w.Joined(), w.CaughtUp(), audited); line != "" {
		fmt.Fprintln(stdout, line)
	}
	for p, why := range w.Gaps() {
		fmt.Fprintf(stderr, "mentalmj watch: the host %s: %s\n", p, why)
	}
	if ctx.Err() == nil && wctx.Err() != nil {
		fmt.Fprintf(stderr, "mentalmj watch: the feed stopped: the table's host %s, its only publisher, sent nothing for %v after %d entries; a fault, not a blame (the host's node, or the table, stopped)\n", link.Host, f.idle, len(w.Records()))
	}
}

func lateLine(joined bool, caughtUp int, audited []int) string {
	span := "no hand"
	if n := len(audited); n > 0 {
		span = fmt.Sprintf("hands %d–%d", audited[0], audited[n-1])
		if audited[0] == audited[n-1] {
			span = fmt.Sprintf("hand %d", audited[0])
		}
	}
	switch {
	case joined && len(audited) > 0 && audited[0] > 1:
		return fmt.Sprintf("joined the game late: the host's catch-up left out hands 1–%d, which are not audited; audited %s", audited[0]-1, span)
	case joined:
		return fmt.Sprintf("joined the game late: the host's catch-up left entries out; audited %s", span)
	case caughtUp > 0:
		return fmt.Sprintf("joined the game late: took %d entries from the host's catch-up, the hands before included; audited %s", caughtUp, span)
	}
	return ""
}

// watchView is what a spectator sees besides the lines: the text table
// (--table) or the browser's (--ui), both drawn from one spectator's
// table (package ui/spectator); the zero watchView draws nothing.
type watchView struct {
	table *spectator.Table
	term  *terminal.Spectator
	srv   *web.Server
}

// newWatchView starts the view f asks for: with --ui it serves the page
// (until ctx ends), prints its URL and opens the browser unless
// --no-open.
func newWatchView(ctx context.Context, f *watchFlags, out io.Writer) (*watchView, error) {
	v := &watchView{}
	if !f.table && !f.useUI {
		return v, nil
	}
	v.table = spectator.New(nil)
	if f.table {
		v.term = terminal.NewSpectator(out, v.table.Model())
		v.term.SetLang(i18n.PickSystem(f.lang, os.Getenv))
		return v, nil
	}
	srv, err := web.Listen(web.Config{Model: v.table.Model(), Port: f.port, Lang: f.lang})
	if err != nil {
		return nil, err
	}
	v.srv = srv
	go srv.Serve(ctx)
	fmt.Fprintf(out, "spectator's table: %s (served on 127.0.0.1 only; the token in the URL is your key)\n", srv.URL())
	if !f.noOpen {
		if err := web.OpenBrowser(ctx, srv.URL()); err != nil {
			fmt.Fprintf(out, "could not open a browser (%v); open the URL above yourself\n", err)
		}
	}
	return v, nil
}

// entry draws the table after entry o; an entry the spectator's table
// cannot follow is said once per hand on errOut (the hand's audit says
// who is at fault).
func (v *watchView) entry(o *protocol.Opened, errOut io.Writer) {
	if v.table == nil {
		return
	}
	if err := v.table.Entry(o); err != nil {
		fmt.Fprintf(errOut, "mentalmj watch: the table stops drawing this hand: %v\n", err)
	}
	if v.term != nil {
		v.term.Update()
	}
}

// hand shows a hand's verdict: every concealed hand face up, the
// end-of-hand summary with the audit.
func (v *watchView) hand(h spectate.HandVerdict) {
	if v.table == nil {
		return
	}
	v.table.Hand(h.Audit)
	if v.term != nil {
		v.term.Update()
	}
}

// finish shows the end of the watch: the final standings when the
// entries taken end the match.
func (v *watchView) finish(recs []protocol.Record) {
	if v.table == nil {
		return
	}
	var st *game.Standings
	if t := protocol.AuditTranscript(recs); t.Over {
		st = &t.Standings
	}
	v.table.Finish(st, nil)
	if v.term != nil {
		v.term.Update()
	}
}

// linger keeps the page up for d after the watch, so that the last hand
// and the standings can be read; an interrupt ends it sooner.
func (v *watchView) linger(ctx context.Context, d time.Duration, out io.Writer) {
	if v.srv == nil || d <= 0 {
		return
	}
	fmt.Fprintf(out, "the spectator's table stays open for %s at %s (Ctrl-C to quit)\n", d, v.srv.URL())
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// idleStop cancels when last (UnixNano) is older than idle.
func idleStop(ctx context.Context, cancel context.CancelFunc, last *atomic.Int64, idle time.Duration) {
	for {
		wait := time.Until(time.Unix(0, last.Load()).Add(idle))
		if wait <= 0 {
			cancel()
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// firstAddr is the node's first listen address, for the line that tells
// other spectators where to dial it.
func firstAddr(n *node.Node) string {
	if as := n.Host().Addrs(); len(as) > 0 {
		return as[0].String()
	}
	return "(no address)"
}

// saveWatched writes the entries taken as a transcript under
// dataDir/watched and returns its path.
func saveWatched(dataDir, table string, recs []protocol.Record) (string, error) {
	dir := filepath.Join(dataDir, "watched")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-%s.mjt", safeName(table), time.Now().UTC().Format("20060102-150405")))
	tr, err := protocol.CreateTranscript(path)
	if err != nil {
		return "", err
	}
	for _, r := range recs {
		o, err := protocol.Open(r.Envelope)
		if err != nil {
			continue
		}
		if err := tr.Append(o); err != nil {
			_ = tr.Close()
			return "", err
		}
	}
	return path, tr.Close()
}

// safeName keeps letters, digits, '-' and '_' of a table's name for a
// file name.
func safeName(s string) string {
	b := []rune{}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b = append(b, r)
		default:
			b = append(b, '_')
		}
	}
	if len(b) == 0 {
		return "table"
	}
	return string(b)
}
