package resume

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
)

// Open reads the game in progress at table in dataDir (File, Load) and
// returns it with the other players it names: one peer.AddrInfo per
// player, Players-1 of them, from State.Peers. Errors name the file: Load's,
// a peer address that is not a multiaddr ending in /p2p/<id>, or peers
// that do not make a table of Players.
func Open(dataDir, table string) (State, []peer.AddrInfo, error) {
	path := File(dataDir, table)
	st, err := Load(path)
	if err != nil {
		return State{}, nil, err
	}
	addrs := make([]multiaddr.Multiaddr, 0, len(st.Peers))
	for _, s := range st.Peers {
		a, err := multiaddr.NewMultiaddr(s)
		if err != nil {
			return State{}, nil, fmt.Errorf("%s: peer address %q: %w", path, s, err)
		}
		addrs = append(addrs, a)
	}
	peers, err := peer.AddrInfosFromP2pAddrs(addrs...)
	if err != nil {
		return State{}, nil, fmt.Errorf("%s: the peers do not make a %d-player table: %w", path, st.Players, err)
	}
	if len(peers) != st.Players-1 {
		return State{}, nil, fmt.Errorf("%s: the peers do not make a %d-player table: %d other players", path, st.Players, len(peers))
	}
	return st, peers, nil
}

// CheckTranscript returns an error if transcript, a transcript file given
// on the command line ("" for none), is not the game's: a resumed game
// appends to the transcript it started.
func (st State) CheckTranscript(transcript string) error {
	if transcript == "" {
		return nil
	}
	if abs, err := filepath.Abs(transcript); err != nil || abs != st.Transcript {
		return fmt.Errorf("the game's transcript is %s, not --transcript %s (leave --transcript out)", st.Transcript, transcript)
	}
	return nil
}

// SameTable returns nil if given, the other players' addresses given again
// to resume a game, name the players saved, the game's; otherwise an error
// saying who differs: a node never resumes one game at another table.
func SameTable(given, saved []peer.AddrInfo) error {
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
