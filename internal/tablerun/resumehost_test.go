package tablerun

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"

	"github.com/mentalmj/mentalmj/internal/resume"
	"github.com/mentalmj/mentalmj/node"
)

// A game's spectator topic is named after its host (SPEC.md §25), which a
// resumed node is not told again (host --resume, join --resume have no
// invite): the resume state keeps it, so that the resumed game publishes
// where the watch link points, not on the topic of the lowest peer ID.
func TestResumeKeepsTheSpectatorTopic(t *testing.T) {
	t.Parallel()
	key, err := node.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	n, err := node.New(context.Background(), node.Config{Identity: key,
		Listen: []multiaddr.Multiaddr{multiaddr.StringCast("/ip4/127.0.0.1/tcp/0")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = n.Close() })
	hostKey, err := node.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	host, err := peer.IDFromPrivateKey(hostKey)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	started := &Table{Name: "t", DataDir: dir, SpectateHost: host}
	tr, _, _, err := started.openGame(n, filepath.Join(dir, "t.mjt"), 4, bytes.NewReader(make([]byte, 64)))
	if err != nil {
		t.Fatal(err)
	}
	tr.Close()
	st, err := resume.Load(resume.File(dir, "t"))
	if err != nil {
		t.Fatal(err)
	}
	if st.SpectateHost != host.String() {
		t.Fatalf("saved spectate_host %q, want the host %s", st.SpectateHost, host)
	}
	resumed := &Table{Name: "t", DataDir: dir, ResumeState: &st}
	if err := resumed.adoptSpectateHost(st); err != nil {
		t.Fatal(err)
	}
	if resumed.SpectateHost != host {
		t.Errorf("resumed table's spectator topic host %q, want %s", resumed.SpectateHost, host)
	}
	st.SpectateHost = "not a peer id"
	if err := (&Table{Name: "t"}).adoptSpectateHost(st); err == nil {
		t.Error("a damaged spectate_host was accepted")
	}
}
