package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// A hand that ends without a result (here a fault) reports the scores as
// they stood when it started, not zeros (issue 21).
func TestHandWithoutResultKeepsScores(t *testing.T) {
	t.Parallel()
	start := [4]int{31000, 19000, 25000, 25000}
	var buf bytes.Buffer
	r := &progress.Reporter{W: &buf, JSON: true}
	seats := []peer.ID{"a", "b", "c", "d"}
	r.Hand(protocol.HandResult{Number: 2, Seats: seats, Start: game.Deal{Scores: start}}, seats[0], nil, 4, 0)
	line, _, _ := strings.Cut(buf.String(), "\n")
	e, err := progress.Decode([]byte(line))
	ev, ok := e.(progress.Hand)
	if err != nil || !ok {
		t.Fatalf("%v: %q is not a hand", err, line)
	}
	if ev.Scores != start {
		t.Errorf("scores %v, want the starting scores %v", ev.Scores, start)
	}

	buf.Reset()
	r = &progress.Reporter{W: &buf}
	r.Hand(protocol.HandResult{Number: 2, Seats: seats, Start: game.Deal{Scores: start}}, seats[0], nil, 4, 0)
	if !strings.Contains(buf.String(), "31000") || !strings.Contains(buf.String(), "19000") {
		t.Errorf("text line does not show the scores as they stood: %q", buf.String())
	}
}

func TestParseBytes(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{"128KiB": 128 << 10, "256MiB": 256 << 20, "1GiB": 1 << 30, "100B": 100, "4096": 4096} {
		got, err := parseBytes(in)
		if err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "KiB", "-1KiB", "0", "12x", "1.5MiB", "99999999999GiB"} {
		if _, err := parseBytes(in); err == nil {
			t.Errorf("parseBytes(%q) accepted", in)
		}
	}
}

// Malformed --bootstrap, --relay and relay limits are usage errors naming
// the flag (exit 2), before anything is started.
func TestPublicFlagsBadInput(t *testing.T) {
	t.Parallel()
	peers := []string{"--table", "t", "--data-dir", t.TempDir(), "--listen", "/ip4/127.0.0.1/tcp/0",
		"--peer", "/ip4/127.0.0.1/tcp/1/p2p/12D3KooWJCWxBq7eAqRQ4ZM8Pk64eSSSyveWjhecbjqDpJmXmMMw",
		"--peer", "/ip4/127.0.0.1/tcp/2/p2p/12D3KooWGAWcfV1JY7XqfCHZrtkE8n8WKpNBhZ9PWXQ7fYjepf8D"}
	for _, c := range []struct {
		cmd  string
		args []string
		want string
	}{
		{"join", append(peers, "--bootstrap", "/ip4/198.51.100.2/tcp/4001"), "--bootstrap"},
		{"join", append(peers, "--bootstrap", "not an address"), "--bootstrap"},
		{"join", append(peers, "--relay", "/ip4/198.51.100.2/tcp/4001/p2p/nope"), "--relay"},
		{"join", append(peers, "--no-public", "--bootstrap", "/ip4/198.51.100.2/tcp/4001/p2p/12D3KooWJCWxBq7eAqRQ4ZM8Pk64eSSSyveWjhecbjqDpJmXmMMw"), "--no-public"},
		{"relay", []string{"--data-dir", t.TempDir(), "--limit-data", "lots"}, "--limit-data"},
		{"relay", []string{"--data-dir", t.TempDir(), "--limit-duration", "0s"}, "--limit-duration"},
	} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), append([]string{c.cmd}, c.args...), &out, &errb); code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming %s", c.args[len(c.args)-2:], code, firstLine(errb.String()), c.want)
		}
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// Which nodes join the public network: never with --no-public, always
// with --bootstrap, otherwise only without --relay and off loopback.
func TestUsePublic(t *testing.T) {
	t.Parallel()
	loop := []multiaddr.Multiaddr{multiaddr.StringCast("/ip4/127.0.0.1/tcp/0")}
	every := []multiaddr.Multiaddr{multiaddr.StringCast("/ip4/0.0.0.0/tcp/4001")}
	for _, c := range []struct {
		noPublic, bootstrap, relays bool
		listen                      []multiaddr.Multiaddr
		want                        bool
	}{
		{false, false, false, every, true},
		{false, false, false, loop, false},
		{false, true, false, loop, true},
		{false, false, true, every, false},
		{false, true, true, every, true},
		{true, false, false, every, false},
	} {
		if got := usePublic(c.noPublic, c.bootstrap, c.relays, c.listen); got != c.want {
			t.Errorf("usePublic(%v, %v, %v, %v) = %v", c.noPublic, c.bootstrap, c.relays, c.listen, got)
		}
	}
}
