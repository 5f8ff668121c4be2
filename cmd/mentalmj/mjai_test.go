package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// TestLocalMjaiBots runs "mentalmj local --hands 1" with the Python mjai
// client of package mjaibot as player-1 and player-3: the hand must be
// audited by all four nodes, the clients must have received events, and
// the game must be written as tenhou.net/6 JSON with its review command.
func TestLocalMjaiBots(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test starts four processes")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	client, err := filepath.Abs("../../player/mjaibot/testdata/mjai_client.py")
	if err != nil {
		t.Fatal(err)
	}
	bin := buildBinary(t)
	dir := filepath.Join(t.TempDir(), "run")
	logs := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "local", "--hands", "1", "--dir", dir,
		"--mjai-bot", "1=MJAI_LOG="+filepath.Join(logs, "p1.jsonl")+" python3 "+client,
		"--mjai-bot", "3=MJAI_LOG="+filepath.Join(logs, "p3.jsonl")+" python3 "+client)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mentalmj local: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"audit ok (4 of 4 audits agree)", "tenhou.net/6 JSON: ", "mjai-reviewer -e mortal -i ", "watch it again, with the audit of every hand: mentalmj view " + filepath.Join(dir, "player-0.mjt")} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, p := range []string{"p1.jsonl", "p3.jsonl"} {
		b, err := os.ReadFile(filepath.Join(logs, p))
		if err != nil || !bytes.Contains(b, []byte(`"type":"start_kyoku"`)) || !bytes.Contains(b, []byte(`"type":"end_kyoku"`)) {
			t.Errorf("%s: the client did not get the hand (%v)", p, err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "player-0.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Log  []any    `json:"log"`
		Name []string `json:"name"`
	}
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.Log) != 1 || len(doc.Name) != 4 {
		t.Errorf("player-0.json: %v, %d kyoku, names %v", err, len(doc.Log), doc.Name)
	}
}

// TestMjaiBotFlags: bad --mjai-bot values are usage errors, and a bot that
// does not start stops join before it connects.
func TestMjaiBotFlags(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"1", "x=bot", "4=bot", "1="} {
		var o, e bytes.Buffer
		if code := run(context.Background(), []string{"local", "--mjai-bot", v}, &o, &e); code != 2 || !strings.Contains(e.String(), "--mjai-bot") {
			t.Errorf("local --mjai-bot %q: exit %d, %q", v, code, e.String())
		}
	}
	var o, e bytes.Buffer
	args := []string{"--table", "t", "--data-dir", t.TempDir(), "--listen", "/ip4/127.0.0.1/tcp/0",
		"--mjai-bot", "no-such-mjai-bot-xyz {seat}", "--connect-timeout", "1m"}
	for i := range 3 {
		k, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := peer.IDFromPrivateKey(k)
		args = append(args, "--peer", fmt.Sprintf("/ip4/127.0.0.1/tcp/%d/p2p/%s", 1+i, id))
	}
	start := time.Now()
	if code := run(context.Background(), append([]string{"join"}, args...), &o, &e); code != 2 || !strings.Contains(e.String(), "no-such-mjai-bot-xyz") {
		t.Errorf("join with a missing bot: exit %d, %q", code, e.String())
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("join took %s to reject the bot", time.Since(start))
	}
}
