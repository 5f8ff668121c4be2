package main

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/internal/resume"
)

// loadResume reads, for --resume, the state of the game in progress at
// f.table from f.dataDir into f.resumeState, and listens where the game
// listened unless --listen says otherwise. It returns the other players as
// the state names them. On failure it prints why and returns ok = false
// with exit code 2.
func (f *tableFlags) loadResume(cmd *cobra.Command) (peers []peer.AddrInfo, code int, ok bool) {
	stderr, name := cmd.ErrOrStderr(), cmd.CommandPath()
	st, err := resume.Load(resume.File(f.dataDir, f.table))
	if err != nil {
		fmt.Fprintf(stderr, "%s: --resume: %v\n", name, err)
		return nil, 2, false
	}
	var addrs []multiaddr.Multiaddr
	for _, s := range st.Peers {
		a, err := multiaddr.NewMultiaddr(s)
		if err != nil {
			fmt.Fprintf(stderr, "%s: --resume: %s: peer address %q: %v\n", name, resume.File(f.dataDir, f.table), s, err)
			return nil, 2, false
		}
		addrs = append(addrs, a)
	}
	peers, err = peer.AddrInfosFromP2pAddrs(addrs...)
	if err != nil || len(peers) != st.Players-1 {
		fmt.Fprintf(stderr, "%s: --resume: %s: the peers do not make a %d-player table: %v\n", name, resume.File(f.dataDir, f.table), st.Players, err)
		return nil, 2, false
	}
	if f.transcript != "" {
		if abs, err := filepath.Abs(f.transcript); err != nil || abs != st.Transcript {
			fmt.Fprintf(stderr, "%s: --resume: the game's transcript is %s, not --transcript %s (leave --transcript out)\n", name, st.Transcript, f.transcript)
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
