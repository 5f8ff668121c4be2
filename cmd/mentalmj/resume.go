package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"

	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/resume"
	"github.com/mentalmj/mentalmj/settings"
)

// loadResume reads, for --resume, the state of the game in progress at
// f.table from f.dataDir into f.resumeState, and listens where the game
// listened unless --listen says otherwise. It returns the other players as
// the state names them. On failure it prints why and returns ok = false
// with exit code 2.
func (f *tableFlags) loadResume(fs *flag.FlagSet, stderr io.Writer) (peers []peer.AddrInfo, code int, ok bool) {
	st, err := resume.Load(resume.File(f.dataDir, f.table))
	if err != nil {
		fmt.Fprintf(stderr, "%s: --resume: %v\n", fs.Name(), err)
		return nil, 2, false
	}
	var addrs []multiaddr.Multiaddr
	for _, s := range st.Peers {
		a, err := multiaddr.NewMultiaddr(s)
		if err != nil {
			fmt.Fprintf(stderr, "%s: --resume: %s: peer address %q: %v\n", fs.Name(), resume.File(f.dataDir, f.table), s, err)
			return nil, 2, false
		}
		addrs = append(addrs, a)
	}
	peers, err = peer.AddrInfosFromP2pAddrs(addrs...)
	if err != nil || len(peers) != st.Players-1 {
		fmt.Fprintf(stderr, "%s: --resume: %s: the peers do not make a %d-player table: %v\n", fs.Name(), resume.File(f.dataDir, f.table), st.Players, err)
		return nil, 2, false
	}
	if f.transcript != "" {
		if abs, err := filepath.Abs(f.transcript); err != nil || abs != st.Transcript {
			fmt.Fprintf(stderr, "%s: --resume: the game's transcript is %s, not --transcript %s (leave --transcript out)\n", fs.Name(), st.Transcript, f.transcript)
			return nil, 2, false
		}
	}
	if len(f.listen) == 0 {
		f.listen = st.Listen
	}
	f.resumeState = &st
	return peers, 0, true
}

// sameTable reports, for a resume with --peer addresses, whether they name
// the players the game was started with; the error says who differs.
func sameTable(given, saved []peer.AddrInfo) error {
	ids := func(infos []peer.AddrInfo) []peer.ID {
		var out []peer.ID
		for _, i := range infos {
			out = append(out, i.ID)
		}
		slices.Sort(out)
		return out
	}
	g, s := ids(given), ids(saved)
	for _, p := range g {
		if !slices.Contains(s, p) {
			return fmt.Errorf("the game in the data directory was not played with %s: refusing to resume another game's table", p)
		}
	}
	if len(g) != len(s) {
		return fmt.Errorf("the game in the data directory had %d other players, %d --peer given", len(s), len(g))
	}
	return nil
}

// openGame returns the transcript and the secret seed of the game about to
// start: for --resume, the transcript reopened (a record cut short by the
// crash dropped) with the records it holds and the saved seed; otherwise a
// new transcript at path and a fresh seed, saved (0600, synced) with the
// table before anything is sent.
func (f *tableFlags) openGame(n *node.Node, path string, players int, rnd io.Reader) (tr *protocol.Transcript, seed []byte, records []*protocol.Opened, err error) {
	if st := f.resumeState; st != nil {
		tr, records, err = protocol.OpenTranscript(st.Transcript)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("--resume: %w", err)
		}
		return tr, st.Seed, records, nil
	}
	tr, err = protocol.CreateTranscript(path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("--transcript: %w", err)
	}
	seed = make([]byte, protocol.SeedSize)
	if _, err := io.ReadFull(rnd, seed); err != nil {
		tr.Close()
		return nil, nil, nil, fmt.Errorf("game seed: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	st := resume.State{Table: f.table, Players: players, Transcript: abs, Seed: seed, Started: time.Now().UTC()}
	for _, p := range n.Peers() {
		for _, a := range n.Host().Peerstore().Addrs(p) {
			st.Peers = append(st.Peers, a.Encapsulate(multiaddr.StringCast("/p2p/"+p.String())).String())
		}
	}
	for _, a := range n.Host().Network().ListenAddresses() {
		st.Listen = append(st.Listen, a.String())
	}
	if err := resume.Save(resume.File(f.dataDir, f.table), st); err != nil {
		tr.Close()
		return nil, nil, nil, err
	}
	return tr, seed, nil, nil
}

// adoptHello takes the game's settings from the Hello this node sent when
// the game started (the first record of its transcript), so that a
// resume replays the same game whatever flags were given again: the
// nickname and every setting (package settings). It returns what it
// changed, for a note.
func (f *tableFlags) adoptHello(h *pb.Hello) []string {
	var changed []string
	if h == nil {
		return nil
	}
	if f.nick != h.Nick {
		changed = append(changed, fmt.Sprintf("--name %q", h.Nick))
		f.nick = h.Nick
	}
	if st, err := settings.FromProto(h.Settings); err == nil && !st.Equal(f.play) {
		changed = append(changed, fmt.Sprintf("the game %q", st.Summary()))
		f.play = st
	}
	if f.pipeline != h.Pipeline {
		changed = append(changed, fmt.Sprintf("--pipeline=%v", h.Pipeline))
		f.pipeline = h.Pipeline
	}
	return changed
}
