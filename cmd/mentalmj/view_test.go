package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/record/mjai"
	"github.com/mentalmj/mentalmj/record/mjlog"
)

// Files the viewer cannot show get exit 2 and a message naming the file
// and saying what it looks like: never a panic, never a page.
func TestViewRefusesBadFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mjlogRec, err := os.ReadFile("../../ui/viewer/testdata/hand.mjlog.xml")
	if err != nil {
		t.Fatal(err)
	}
	mjt, err := os.ReadFile("../../ui/viewer/testdata/hand.mjt")
	if err != nil {
		t.Fatal(err)
	}
	// The record as an mjai log, cut at a line boundary after a discard,
	// two events before its result: every line is valid JSON.
	g, err := mjlog.Parse(bytes.NewReader(mjlogRec), "hand.mjlog.xml")
	if err != nil {
		t.Fatal(err)
	}
	var mj bytes.Buffer
	if err := mjai.WriteMjlog(&mj, g, -1); err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(mj.Bytes(), []byte("\n"))
	cutLine := 0
	for i, l := range lines {
		if bytes.Contains(l, []byte(`"type":"hora"`)) || bytes.Contains(l, []byte(`"type":"ryukyoku"`)) {
			for cutLine = i - 1; !bytes.Contains(lines[cutLine-1], []byte(`"type":"dahai"`)); cutLine-- {
			}
			break
		}
	}
	cutMjai := bytes.Join(lines[:cutLine], nil)
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(i*7919 + i/13)
	}
	cases := []struct {
		name string
		data []byte
		want []string
	}{
		{"cut.xml", mjlogRec[:len(mjlogRec)/2], []string{"it is a Tenhou mjlog, but"}},
		{"cut.mjt", mjt[:len(mjt)/2], []string{"it is a mentalmj transcript, but", "cut short"}},
		{"noise.bin", random, []string{"not a game record the viewer reads", "binary data"}},
		{"notes.txt", []byte("East 1: alice wins\n"), []string{"not a game record the viewer reads", "text"}},
		{"page.xml", []byte(`<?xml version="1.0"?><html><body>hi</body></html>`), []string{"XML whose root element is <html>, not an mjlog"}},
		{"game.json", []byte(`{"title": "a game", "players": ["a", "b"]}`), []string{`JSON without a "log" array (keys: title, players)`, "not tenhou.net/6"}},
		{"bad6.json", []byte(`{"log": [[1, 2, 3]], "name": ["a", "b", "c", "d"]}`), []string{"it is tenhou.net/6 JSON, but", "17-element"}},
		{"empty.mjt", nil, []string{"an empty file"}},
		{"v2.mjt", otherVersionTranscript(t), []string{"it is a mentalmj transcript, but", `protocol version "mentalmj/2"`}},
		{"cut.mjai", cutMjai, []string{"it is an mjai log, but it is cut short: kyoku 1 (E1-0) stops in phase ", fmt.Sprintf(" at line %d, before its result", cutLine)}},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runMain(t, "view", "--check", path)
		ok := code == 2 && strings.Contains(stderr, path) && stdout == ""
		for _, w := range c.want {
			ok = ok && strings.Contains(stderr, w)
		}
		if !ok {
			t.Errorf("view %s: exit %d, stderr %q, stdout %q; want exit 2 naming the file and saying %q", c.name, code, stderr, stdout, c.want)
		}
	}
	if code, _, stderr := runMain(t, "view", filepath.Join(dir, "missing.xml")); code != 2 || !strings.Contains(stderr, "missing.xml") {
		t.Errorf("view of a missing file: exit %d, %q", code, stderr)
	}
	if code, _, stderr := runMain(t, "view"); code != 2 || !strings.Contains(stderr, "give one record file") {
		t.Errorf("view without a file: exit %d, %q", code, stderr)
	}
	const mjlog = "../../ui/viewer/testdata/hand.mjlog.xml"
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--me", "player-1"}, 0, ""},
		{[]string{"--seat", "3"}, 0, ""},
		{[]string{"--me", "nobody"}, 2, `--me: no player "nobody" in ` + mjlog + "; its players are player-0, player-2, player-1, player-3"},
		{[]string{"--seat", "4"}, 2, "--seat: seat 4: " + mjlog + " has seats 0..3"},
		{[]string{"--seat", "1", "--me", "player-1"}, 2, "give --seat or --me, not both"},
	} {
		code, _, stderr := runMain(t, append([]string{"view", "--check", mjlog}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("view %v: exit %d, %q; want %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
	if code, _, _ := runMain(t, "view", "--check", mjlog); code != 0 {
		t.Errorf("view --check of a good record: exit %d", code)
	}
}

// otherVersionTranscript returns the opening of a game whose four Hellos
// announce protocol version mentalmj/2, signed by four fixed keys.
func otherVersionTranscript(t *testing.T) []byte {
	t.Helper()
	var privs []crypto.PrivKey
	var raw [][]byte
	for i := range 4 {
		k, err := crypto.UnmarshalEd25519PrivateKey(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{byte(0x31 + i)}, 32)))
		if err != nil {
			t.Fatal(err)
		}
		id, err := peer.IDFromPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		privs = append(privs, k)
		raw = append(raw, []byte(id))
	}
	var buf bytes.Buffer
	tr := protocol.NewTranscript(&buf)
	for i, k := range privs {
		h := &pb.Hello{Table: "old", Version: "mentalmj/2", Peers: raw, Nick: "p", Nonce: bytes.Repeat([]byte{byte(i)}, 16)}
		o, err := protocol.Seal(k, &pb.Entry{Sender: raw[i], Body: &pb.Entry_Hello{Hello: h}})
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Append(o); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// view --no-open serves the page at the URL it prints (with --kyoku and
// --step in its fragment; --step alone is a step of the first kyoku)
// until the context ends, then exits 0.
func TestViewServes(t *testing.T) {
	t.Parallel()
	for _, pos := range [][]string{{"--kyoku", "0", "--step", "5"}, {"--step", "5"}} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		r, w := io.Pipe()
		done := make(chan int, 1)
		go func() {
			code := run(ctx, append(append([]string{"view", "--no-open"}, pos...), "../../ui/viewer/testdata/hand.mjlog.xml"), w, io.Discard)
			w.Close()
			done <- code
		}()
		line, err := bufio.NewReader(r).ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		go io.Copy(io.Discard, r)
		u := line[strings.Index(line, "http://"):]
		u = strings.TrimSpace(u)
		if !strings.HasSuffix(u, "#k=0&a=5") {
			t.Errorf("view %q: URL %q, want the position #k=0&a=5", pos, u)
		}
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %s", u, resp.Status)
		}
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("view exited %d after the interrupt, want 0", code)
		}
	}
}
