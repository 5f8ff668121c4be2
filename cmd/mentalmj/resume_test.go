package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/internal/resume"
	"github.com/mentalmj/mentalmj/node"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/pb"
)

// --resume refuses, with exit 2 and a message saying why, a data directory
// with no game in progress, one whose game was played with other peers,
// and one whose transcript is not that game's.
func TestResumeRefusals(t *testing.T) {
	t.Parallel()
	peers := []string{
		"/ip4/127.0.0.1/tcp/1/p2p/12D3KooWAEKiG8Z8YqVsGbJNwQfyaDtqubZ5BzGaVkrvPDssJbD1",
		"/ip4/127.0.0.1/tcp/2/p2p/12D3KooWQ8xTuU2FY1VxXRpKULdpTcbwGtv9ciLe1QrSETpMcLgS",
		"/ip4/127.0.0.1/tcp/3/p2p/12D3KooWNmhwmxwhMYCzC88Zx5RWgpeCz7dL1gJiYrSiqTH1UF2H",
	}
	join := func(dir string, extra ...string) (int, string) {
		args := []string{"join", "--table", "friday", "--data-dir", dir, "--listen", "/ip4/127.0.0.1/tcp/0", "--connect-timeout", "2s", "--resume", "--bot"}
		for _, p := range peers {
			args = append(args, "--peer", p)
		}
		var stdout, stderr bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		code := run(ctx, append(args, extra...), &stdout, &stderr)
		return code, stderr.String()
	}

	empty := t.TempDir()
	if code, msg := join(empty); code != 2 || !strings.Contains(msg, "no game in progress") {
		t.Errorf("resume with no game: exit %d, %q", code, msg)
	}

	other := t.TempDir()
	seed := make([]byte, protocol.SeedSize)
	rand.Read(seed)
	st := resume.State{Table: "friday", Players: 4, Transcript: filepath.Join(other, "t.mjt"), Seed: seed,
		Peers: []string{peers[0], peers[1], "/ip4/127.0.0.1/tcp/9/p2p/12D3KooWCaV8Toyt3MqJg9ApRj8WqkR3GfwF69WPBsKoZ7NfEDJY"}}
	if err := resume.Save(resume.File(other, "friday"), st); err != nil {
		t.Fatal(err)
	}
	if code, msg := join(other); code != 2 || !strings.Contains(msg, "was not played with") {
		t.Errorf("resume with other peers: exit %d, %q", code, msg)
	}

	// The right peers, but the transcript is another player's game.
	mine := t.TempDir()
	if _, err := node.LoadOrCreateIdentity(mine); err != nil {
		t.Fatal(err)
	}
	st.Peers = peers
	st.Transcript = writeForeignTranscript(t, mine)
	if err := resume.Save(resume.File(mine, "friday"), st); err != nil {
		t.Fatal(err)
	}
	if code, msg := join(mine); code != 2 || !strings.Contains(msg, "not this game's") {
		t.Errorf("resume with another game's transcript: exit %d, %q", code, msg)
	}
}

// writeForeignTranscript writes, in dir, a transcript opening with the
// Hello of a player who is not dir's node, and returns its path.
func writeForeignTranscript(t *testing.T, dir string) string {
	t.Helper()
	key, err := node.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	o, err := protocol.Seal(key, &pb.Entry{Sender: []byte(id), Body: &pb.Entry_Hello{Hello: &pb.Hello{Table: "friday", Version: protocol.Version}}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "foreign.mjt")
	tr, err := protocol.CreateTranscript(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Append(o); err != nil {
		t.Fatal(err)
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
