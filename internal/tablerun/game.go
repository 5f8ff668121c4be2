package tablerun

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"

	"github.com/mentalmj/mentalmj/internal/resume"
	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/settings"
)

// openGame returns the transcript and the secret seed of the game about to
// start: for --resume, the transcript reopened (a record cut short by the
// crash dropped) with the records it holds and the saved seed; otherwise a
// new transcript at path and a fresh seed, saved (0600, synced) with the
// table before anything is sent.
func (f *Table) openGame(n *node.Node, path string, players int, rnd io.Reader) (tr *protocol.Transcript, seed []byte, records []*protocol.Opened, err error) {
	if st := f.ResumeState; st != nil {
		if err := f.adoptSpectateHost(*st); err != nil {
			return nil, nil, nil, err
		}
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
	st := resume.State{Table: f.Name, Players: players, Transcript: abs, Seed: seed, Started: time.Now().UTC()}
	if f.SpectateHost != "" {
		st.SpectateHost = f.SpectateHost.String()
	}
	for _, p := range n.Peers() {
		for _, a := range n.Host().Peerstore().Addrs(p) {
			st.Peers = append(st.Peers, a.Encapsulate(multiaddr.StringCast("/p2p/"+p.String())).String())
		}
	}
	for _, a := range n.Host().Network().ListenAddresses() {
		st.Listen = append(st.Listen, a.String())
	}
	if err := resume.Save(resume.File(f.DataDir, f.Name), st); err != nil {
		tr.Close()
		return nil, nil, nil, err
	}
	return tr, seed, nil, nil
}

// adoptHello takes the game's settings from the Hello this node sent when
// the game started (the first record of its transcript), so that a
// resume replays the same game whatever flags were given again: the
// nickname and every setting (package riichi/settings). It returns what it
// changed, for a note.
func (f *Table) adoptHello(h *pb.Hello) []string {
	var changed []string
	if h == nil {
		return nil
	}
	if f.Nick != h.Nick {
		changed = append(changed, fmt.Sprintf("--name %q", h.Nick))
		f.Nick = h.Nick
	}
	if st, err := settings.FromProto(h.Settings); err == nil && !st.Equal(f.Play) {
		changed = append(changed, fmt.Sprintf("the game %q", st.Summary()))
		f.Play = st
	}
	if f.NoPipeline == h.Pipeline {
		changed = append(changed, fmt.Sprintf("--no-pipeline=%v", !h.Pipeline))
		f.NoPipeline = !h.Pipeline
	}
	return changed
}

// adoptSpectateHost takes the spectator topic's host from the resume state
// st when none was given (a resumed node has no invite): the resumed game
// publishes where the watch link points (SPEC.md §25). It returns an error
// naming the field for a saved value that is not a peer ID.
func (f *Table) adoptSpectateHost(st resume.State) error {
	if f.SpectateHost != "" || st.SpectateHost == "" {
		return nil
	}
	h, err := peer.Decode(st.SpectateHost)
	if err != nil {
		return fmt.Errorf("--resume: spectate_host %q: %w", st.SpectateHost, err)
	}
	f.SpectateHost = h
	return nil
}
