package mjaibot

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/player/bot"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/memnet"
	"github.com/mentalmj/mentalmj/record/mjai"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// client is the Python mjai client of the tests.
const client = "python3 testdata/mjai_client.py"

// syncBuffer is a log sink shared by goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// tableSeed returns the protocol.SeedSize-byte seed of player i's source
// named what ("identity" or "game"): SHA-256 of "mentalmj mjaibot test",
// what and i.
func tableSeed(what string, i int) []byte {
	h := sha256.Sum256(fmt.Appendf(nil, "mentalmj mjaibot test %s %d", what, i))
	return h[:protocol.SeedSize]
}

// builtin is the built-in bot as a protocol.Player.
type builtin struct{ b *bot.Bot }

func (p builtin) Act(_ context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) {
	return p.b.Choose(v, s)
}

// table plays hands in memory with players[i] at player i (nil: the
// built-in bot), three players (sanma) when players has three, and
// returns player 0's results and game. Every player's identity key and
// secrets come from a fixed seed (tableSeed), so the walls and seats are
// the same in every run: a test's premise, such as the crashing client
// reaching its third decision, is checked once, not left to a random
// wall (TestFaultyClients/crash once ended its hand before the crash
// was seen).
func table(t *testing.T, hands int, decision time.Duration, players []protocol.Player) ([]protocol.HandResult, *protocol.Game) {
	t.Helper()
	net := memnet.New()
	var keys []crypto.PrivKey
	var ids []peer.ID
	for i := range len(players) {
		k, _, err := crypto.GenerateEd25519Key(protocol.SeedRand(tableSeed("identity", i)))
		if err != nil {
			t.Fatal(err)
		}
		id, _ := peer.IDFromPrivateKey(k)
		keys, ids = append(keys, k), append(ids, id)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	results := make([][]protocol.HandResult, len(players))
	games := make([]*protocol.Game, len(players))
	errs := make([]error, len(players))
	for i := range len(players) {
		p := players[i]
		if p == nil {
			p = builtin{bot.New(uint64(i) + 1)}
		}
		cfg := protocol.Config{Table: "mjai", Identity: keys[i], Peers: ids, Hands: hands,
			Transport: net.Transport(ids[i]), Player: p, Timeout: 20 * time.Second, TurnTimeout: 20 * time.Second,
			DecisionTimeout: decision, Rand: protocol.SeedRand(tableSeed("game", i))}
		if o, ok := p.(protocol.Observer); ok {
			cfg.Observer = o
		}
		g, err := protocol.NewGame(cfg)
		if err != nil {
			t.Fatal(err)
		}
		games[i] = g
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = g.Run(ctx)
			if errs[i] != nil {
				net.Disconnect(ids[i])
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("player %d: %v", i, err)
		}
	}
	for _, r := range results[0] {
		if len(r.Blame) > 0 || r.Yama == nil {
			t.Fatalf("hand %d: audit failed: %v", r.Number, r.Blame)
		}
	}
	return results[0], games[0]
}

// startClient starts the Python client with MJAI_LOG (and MJAI_MODE).
func startClient(t *testing.T, logPath, mode string, logger *slog.Logger) *Player {
	t.Helper()
	cmd := "MJAI_LOG=" + logPath + " MJAI_MODE=" + mode + " " + client
	if mode == "" {
		// Started at the first hand with its seat on the command line.
		cmd = "MJAI_EXPECT_SEAT={seat} " + cmd
	}
	p, err := Start(Config{Command: cmd, Logger: logger, Fallback: builtin{bot.New(99)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func readLines(t *testing.T, path string) []mjai.Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []mjai.Event
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e mjai.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, e)
	}
	return out
}

// checkNoLeak fails if a bot received a concealed tile of another seat:
// others' haipai and tsumo must be "?".
func checkNoLeak(t *testing.T, received []mjai.Event) (seat int) {
	t.Helper()
	seat = -1
	for _, e := range received {
		switch e.Type {
		case mjai.StartGame:
			seat = e.ID
		case mjai.StartKyoku:
			for s, th := range e.Tehais {
				for _, x := range th {
					if (s != seat) != (x == mjai.Hidden) {
						t.Fatalf("seat %d received haipai tile %q of seat %d", seat, x, s)
					}
				}
			}
		case mjai.Tsumo:
			if (e.Actor != seat) != (e.Pai == mjai.Hidden) {
				t.Fatalf("seat %d received %s", seat, e)
			}
		}
	}
	if seat < 0 {
		t.Fatal("no start_game with an id")
	}
	return seat
}

// discards lists seat's discards in an mjlog game, as mjai names.
func discards(g *mjlog.Game, seat int) []string {
	var out []string
	for _, rd := range g.Rounds {
		for _, e := range rd.Events {
			if d, ok := e.(mjlog.Discard); ok && d.Who == seat {
				out = append(out, mjai.Tile(d.Tile, g.Go.Reds()))
			}
		}
	}
	return out
}

// TestThreeMjaiClients plays two hands with the Python mjai client at
// three seats and the built-in bot at the fourth. Every discard of a
// client seat in the audited record must be the client's own reply, in
// order, and no client may have received another seat's concealed tile.
func TestThreeMjaiClients(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	players := make([]protocol.Player, protocol.Players)
	var bots []*Player
	for i := range 3 {
		p := startClient(t, filepath.Join(dir, "bot"+string(rune('0'+i))+".jsonl"), "", logger)
		players[i] = p
		bots = append(bots, p)
	}
	results, g := table(t, 2, 10*time.Second, players)
	rec := g.Record(results)
	for _, b := range bots {
		b.Close()
	}
	for i := range 3 {
		path := filepath.Join(dir, "bot"+string(rune('0'+i))+".jsonl")
		received := readLines(t, path)
		seat := checkNoLeak(t, received)
		var said []string
		for _, r := range readLines(t, path+".out") {
			if r.Type == mjai.Dahai {
				said = append(said, r.Pai)
			}
		}
		want := discards(rec, seat)
		if strings.Join(said, " ") != strings.Join(want, " ") {
			t.Errorf("seat %d: the client discarded\n%v\nthe record has\n%v", seat, said, want)
		}
		if len(want) == 0 {
			t.Errorf("seat %d made no discard", seat)
		}
		t.Logf("seat %d: %d events received, %d discards decided by the client", seat, len(received), len(said))
	}
	for _, r := range results {
		if len(r.TimedOut) > 0 {
			t.Errorf("hand %d: timed out: %v", r.Number, r.TimedOut)
		}
	}
	if s := logs.String(); strings.Contains(s, "level=WARN") || strings.Contains(s, "level=ERROR") {
		t.Errorf("warnings in a clean game:\n%s", s)
	}
}

// TestFaultyClients plays one hand per fault with the faulty client at
// seat 0 and well-behaved clients elsewhere: the hand must end audited and
// the log must name the bot and the fault.
func TestFaultyClients(t *testing.T) {
	t.Parallel()
	cases := []struct{ mode, want string }{
		{"crash", "exited"},
		{"garbage", "malformed reply"},
		{"illegal", "not legal"},
		{"slow", "did not answer in time"},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			t.Parallel() // each fault's table is its own
			dir := t.TempDir()
			var logs syncBuffer
			logger := slog.New(slog.NewTextHandler(&logs, nil))
			players := make([]protocol.Player, protocol.Players)
			players[0] = startClient(t, filepath.Join(dir, "faulty.jsonl"), c.mode, logger)
			players[1] = startClient(t, filepath.Join(dir, "ok.jsonl"), "", logger)
			start := time.Now()
			results, _ := table(t, 1, time.Second, players)
			s := logs.String()
			if !strings.Contains(s, c.want) || !strings.Contains(s, "MJAI_MODE="+c.mode) {
				t.Errorf("log lacks %q naming the bot:\n%s", c.want, s)
			}
			if c.mode == "slow" && len(results[0].TimedOut) == 0 {
				t.Error("slow bot: the hand records no timeout")
			}
			t.Logf("%s: hand audited in %s", c.mode, time.Since(start).Round(time.Millisecond))
			if testing.Verbose() {
				t.Log(s)
			}
		})
	}
}

// TestStartErrors: a command that does not start is an error before the
// game, naming the command.
func TestStartErrors(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"", "no-such-mjai-bot-xyz --seat 1", "exit 3", "echo broken >&2; exit 1"} {
		_, err := Start(Config{Command: cmd})
		if err == nil {
			t.Errorf("Start(%q) succeeded", cmd)
			continue
		}
		if cmd == "echo broken >&2; exit 1" && !strings.Contains(err.Error(), "broken") {
			t.Errorf("Start(%q): %v; want the bot's stderr", cmd, err)
		}
	}
}
