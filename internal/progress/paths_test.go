package progress

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/node"
)

// TestWatchPaths: a watcher gets the latest path of every peer reported
// before it started (one each), then every path reported while it
// watches, in order, and nothing after stop; the progress line is
// printed either way.
func TestWatchPaths(t *testing.T) {
	bob, carol := peer.ID("peer-bob"), peer.ID("peer-carol")
	var out bytes.Buffer
	r := &Reporter{W: &out}
	r.Path(node.Path{Peer: bob, Relay: "peer-relay", Why: "hole punching"})
	r.Path(node.Path{Peer: bob, Direct: true, Transport: "QUIC", How: "hole punched"})
	var got []node.Path
	stop := r.WatchPaths(func(p node.Path) { got = append(got, p) })
	if want := []node.Path{{Peer: bob, Direct: true, Transport: "QUIC", How: "hole punched"}}; !slices.Equal(got, want) {
		t.Errorf("replayed %+v, want only bob's latest path %+v", got, want)
	}
	got = nil
	r.Path(node.Path{Peer: carol, Direct: true, Transport: "TCP", How: "LAN"})
	r.Path(node.Path{Peer: bob})
	if want := []node.Path{{Peer: carol, Direct: true, Transport: "TCP", How: "LAN"}, {Peer: bob}}; !slices.Equal(got, want) {
		t.Errorf("watched %+v, want %+v", got, want)
	}
	stop()
	got = nil
	r.Path(node.Path{Peer: carol})
	if len(got) != 0 {
		t.Errorf("after stop the watcher got %+v", got)
	}
	if n := bytes.Count(out.Bytes(), []byte("\n")); n != 5 {
		t.Errorf("%d progress lines for 5 paths:\n%s", n, out.String())
	}
}

// TestGameOverQuietsLeavers: after a normal end of the game the players
// leaving are not printed ("bob: not connected" read as an error), while
// before it a lost player is, and a path that still connects is.
func TestGameOverQuietsLeavers(t *testing.T) {
	var b strings.Builder
	r := &Reporter{W: &b}
	bob := peer.ID("bob-peer")
	r.Name(bob, "bob")
	r.Path(node.Path{Peer: bob})
	if !strings.Contains(b.String(), "bob: not connected") {
		t.Fatalf("a lost player during the game is not printed: %q", b.String())
	}
	b.Reset()
	r.GameOver()
	r.Path(node.Path{Peer: bob})
	if b.String() != "" {
		t.Errorf("after the game, a player leaving printed %q", b.String())
	}
	r.Path(node.Path{Peer: bob, Direct: true, Transport: "QUIC", How: "LAN"})
	if !strings.Contains(b.String(), "bob: direct") {
		t.Errorf("after the game, a direct path is not printed: %q", b.String())
	}
}
