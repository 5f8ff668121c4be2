package resume

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
)

// Three peer addresses with their IDs, as join's --peer takes them.
var tablePeers = []string{
	"/ip4/127.0.0.1/tcp/1/p2p/12D3KooWAEKiG8Z8YqVsGbJNwQfyaDtqubZ5BzGaVkrvPDssJbD1",
	"/ip4/127.0.0.1/tcp/2/p2p/12D3KooWQ8xTuU2FY1VxXRpKULdpTcbwGtv9ciLe1QrSETpMcLgS",
	"/ip4/127.0.0.1/tcp/3/p2p/12D3KooWNmhwmxwhMYCzC88Zx5RWgpeCz7dL1gJiYrSiqTH1UF2H",
}

// saveTable saves a four-player game at table "friday" in a new data
// directory with peers, and returns the directory.
func saveTable(t *testing.T, peers []string) string {
	t.Helper()
	dir := t.TempDir()
	st := State{Table: "friday", Players: 4, Peers: peers, Transcript: filepath.Join(dir, "t.mjt"), Seed: make([]byte, protocol.SeedSize)}
	if err := Save(File(dir, "friday"), st); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Open gives back the three peers saved, each with its ID and address;
// addresses that are not a table's are refused naming the file.
func TestOpen(t *testing.T) {
	dir := saveTable(t, tablePeers)
	st, peers, err := Open(dir, "friday")
	if err != nil {
		t.Fatal(err)
	}
	if st.Table != "friday" || len(peers) != 3 {
		t.Fatalf("Open: %+v, %d peers", st, len(peers))
	}
	// The peers in any order (peer.AddrInfosFromP2pAddrs groups them in a
	// map): each saved one once, with its address.
	got := map[peer.ID]peer.AddrInfo{}
	for _, p := range peers {
		got[p.ID] = p
	}
	for i, s := range tablePeers {
		want, err := peer.AddrInfoFromString(s)
		if err != nil {
			t.Fatal(err)
		}
		if p, ok := got[want.ID]; !ok || len(p.Addrs) != 1 || !p.Addrs[0].Equal(want.Addrs[0]) {
			t.Errorf("saved peer %d: Open gave %v, want %v", i, peers, want)
		}
	}
	for name, peers := range map[string][]string{
		"peer address": {tablePeers[0], tablePeers[1], "not an address"},
		"4-player":     tablePeers[:2],
	} {
		dir := saveTable(t, peers)
		if _, _, err := Open(dir, "friday"); err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), File(dir, "friday")) {
			t.Errorf("%s: %v, want an error naming the file", name, err)
		}
	}
	if _, _, err := Open(t.TempDir(), "friday"); err == nil || !strings.Contains(err.Error(), ErrNoGame.Error()) {
		t.Errorf("no game: %v", err)
	}
}

// SameTable accepts the saved players in any order and names a stranger
// or a missing player.
func TestSameTable(t *testing.T) {
	var infos []peer.AddrInfo
	for _, s := range tablePeers {
		i, err := peer.AddrInfoFromString(s)
		if err != nil {
			t.Fatal(err)
		}
		infos = append(infos, *i)
	}
	if err := SameTable([]peer.AddrInfo{infos[2], infos[0], infos[1]}, infos); err != nil {
		t.Errorf("the same players reordered: %v", err)
	}
	if err := SameTable(infos[:2], infos); err == nil || !strings.Contains(err.Error(), "2 --peer given") {
		t.Errorf("a player missing: %v", err)
	}
	if err := SameTable(infos, infos[:2]); err == nil || !strings.Contains(err.Error(), infos[2].ID.String()) {
		t.Errorf("a stranger: %v", err)
	}
}

// CheckTranscript accepts no --transcript or the game's own, as a relative
// path too, and refuses another.
func TestCheckTranscript(t *testing.T) {
	abs, err := filepath.Abs("t.mjt")
	if err != nil {
		t.Fatal(err)
	}
	st := State{Transcript: abs}
	for _, ok := range []string{"", "t.mjt", abs} {
		if err := st.CheckTranscript(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	if err := st.CheckTranscript("other.mjt"); err == nil || !strings.Contains(err.Error(), "leave --transcript out") {
		t.Errorf("another transcript: %v", err)
	}
}
