package terminal

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/player/bot"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/memnet"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/screen"
)

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
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

// terminalHand is a hand played at a four-player memnet table whose seat
// 0 is a terminal Table and the others bots: the players' IDs, each one's
// hand results and error, and everything the terminal printed.
type terminalHand struct {
	ids     []peer.ID
	results [][]protocol.HandResult
	errs    []error
	out     string
}

// playTerminalHand plays one hand at table name with term, reading the
// pipe whose writer answer types into, at seat 0 (its Config set up by
// configure(0, c) too) and bots elsewhere (configure(i, c)). Every 2 ms
// while the hand runs, answer gets what the terminal printed so far and
// may type. It fails t when a game cannot be made or the hand does not
// end within 2 minutes, and when any player ends with an error.
func playTerminalHand(t *testing.T, name string, term func(in io.Reader, out io.Writer) *Table, configure func(i int, c *protocol.Config), answer func(printed string, in io.Writer)) terminalHand {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	net := memnet.New()
	var keys []crypto.PrivKey
	h := terminalHand{results: make([][]protocol.HandResult, protocol.Players), errs: make([]error, protocol.Players)}
	for range protocol.Players {
		k, _, _ := crypto.GenerateEd25519Key(rand.Reader)
		id, _ := peer.IDFromPrivateKey(k)
		keys, h.ids = append(keys, k), append(h.ids, id)
	}
	inR, inW := io.Pipe()
	var out syncBuffer
	tbl := term(inR, &out)
	var wg sync.WaitGroup
	for i := range protocol.Players {
		cfg := protocol.Config{Table: name, Identity: keys[i], Peers: h.ids, Hands: 1, Transport: net.Transport(h.ids[i]),
			Timeout: 20 * time.Second, TurnTimeout: 30 * time.Second}
		if i == 0 {
			cfg.Player, cfg.Observer, cfg.OnHand = tbl, tbl, tbl.HandDone
		} else {
			b := bot.New(uint64(i))
			cfg.Player = protocol.PlayerFunc(func(_ context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) { return b.Choose(v, s) })
		}
		configure(i, &cfg)
		g, err := protocol.NewGame(cfg)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.results[i], h.errs[i] = g.Run(ctx)
			if h.errs[i] != nil {
				net.Disconnect(h.ids[i])
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for loop := true; loop; {
		select {
		case <-done:
			loop = false
		case <-ctx.Done():
			t.Fatal("the hand did not end in time")
		case <-time.After(2 * time.Millisecond):
			answer(out.String(), inW)
		}
	}
	inW.Close()
	h.out = out.String()
	for i, err := range h.errs {
		if err != nil {
			t.Fatalf("player %d: %v\n%s", i, err, h.out)
		}
	}
	return h
}

// TestTimeoutThenFastTyping lets the first decision time out, then types
// two lines at once at the next prompt — a word the table refuses and a
// line of NULs and Enter — and answers every later prompt at once. The
// refused line must get its reason, and every decision after the first
// must be taken by the player: the node's hand result (its signed
// messages) names exactly one timeout of this player.
//
// A hand can end before the player's second decision (an abortive draw
// in the first go-around, kaze4, or an early win): then nothing was
// typed, and the test plays another hand, up to three.
func TestTimeoutThenFastTyping(t *testing.T) {
	for attempt := 1; ; attempt++ {
		if timeoutThenFastTyping(t) || attempt == 3 {
			return
		}
		t.Logf("hand %d ended before a second decision; another hand", attempt)
	}
}

// timeoutThenFastTyping plays one hand of TestTimeoutThenFastTyping and
// reports whether a prompt came after the timeout (false: nothing was
// checked, the hand ended before).
func timeoutThenFastTyping(t *testing.T) bool {
	answered := 0
	h := playTerminalHand(t, "term-test", func(in io.Reader, out io.Writer) *Table {
		return New(in, out, screen.NewModel(nil))
	}, func(i int, c *protocol.Config) {
		if i == 0 {
			c.Nick = "alice"
			c.DecisionTimeout = time.Second
		}
	}, func(printed string, in io.Writer) {
		prompts := strings.Count(printed, "your action")
		timeouts := strings.Count(printed, "time is up")
		switch {
		case prompts <= answered+1 || prompts == 1:
			// The current prompt is answered, or is the first one,
			// left to time out.
		case answered == 0 && timeouts == 1:
			io.WriteString(in, "zz\n\x00\x00\n") // prompt 2
			answered = 2
		case answered > 0:
			io.WriteString(in, "\x00\n")
			answered++
		}
	})
	text := h.out
	if answered == 0 && strings.Count(text, "your action") <= 1 {
		return false
	}
	if !strings.Contains(text, `unknown command "zz"`) {
		t.Errorf("the refused line got no reason:\n%s", text)
	}
	var mine int
	for _, p := range h.results[0][0].TimedOut {
		if p == h.ids[0] {
			mine++
		}
	}
	if mine != 1 {
		t.Errorf("the node acted for the player %d times, want once (the first decision); output:\n%s", mine, text)
	}
	if !strings.Contains(text, "end of hand 1") || !strings.Contains(text, "alice (") {
		t.Errorf("no end-of-hand summary naming alice with her wind:\n%s", text)
	}
	t.Logf("%d prompts answered after the timeout", answered-1)
	if testing.Verbose() {
		t.Log(text[:min(len(text), 6000)])
	}
	return true
}

// TestJapanese plays a hand at a table speaking Japanese (SetLang ja, as
// LANG=ja_JP.UTF-8 or --lang ja give it) and types help, a wrong word,
// riichi without a tile and a number no tile has: the commands, the
// options, the prompts, the refusals, the feed and the end-of-hand
// summary are in Japanese, with no English message left (the options
// keep the commands' words: pon, pass).
func TestJapanese(t *testing.T) {
	ja, err := i18n.Load("ja_JP.UTF-8")
	if err != nil {
		t.Fatal(err)
	}
	answered := 0
	h := playTerminalHand(t, "term-ja", func(in io.Reader, out io.Writer) *Table {
		term := New(in, out, screen.NewModel(nil))
		term.SetLang(ja)
		return term
	}, func(i int, c *protocol.Config) {
		c.Nick = []string{"alice", "bob", "carol", "dave"}[i]
	}, func(printed string, in io.Writer) {
		if prompts := strings.Count(printed, "行動を入力"); prompts > answered {
			if answered == 0 {
				io.WriteString(in, "help\nzz\nriichi\n99\n")
			}
			io.WriteString(in, "\n")
			answered = prompts
		}
	})
	text := h.out
	for _, want := range []string{"操作（コマンドは英字で入力）", "不明なコマンド「zz」", "打牌する牌を指定してください", "手牌に番号 99 の牌はありません", "打牌: 牌の番号か名前を入力", "第1局終了", "alice (", "打", "秒以内に行動を入力"} {
		if !strings.Contains(text, want) {
			t.Errorf("the Japanese table lacks %q", want)
		}
	}
	// The options list the commands as typed (pon, pass, riichi): the
	// one-word messages meld.* and action.* are such words, left out.
	if left := ja.EnglishLeft(text, "term.", "feed.", "info.", "audit."); len(left) > 0 {
		t.Errorf("English left at the Japanese table: %v", left)
	}
	if t.Failed() || testing.Verbose() {
		t.Log(text[max(0, len(text)-3000):])
	}
}

// TestStandingsInJapanese: the final standings print as screen's
// FormatStandings in English (a second code path) and in Japanese as
// 1位 … 点 with the seat winds as 東南西北.
func TestStandingsInJapanese(t *testing.T) {
	st := game.Standings{Scores: [4]int{35200, 18000, 30000, 16800}, Points: [4]int{552, -320, 100, -332}, Order: [4]game.Seat{0, 2, 1, 3}}
	obs := protocol.Observation{Hand: 1, Stage: "shuffle", Seats: []peer.ID{"peer-a", "peer-b", "peer-c", "peer-d"}, Nicks: []string{"alice", "bob", "carol", "dave"}}
	print := func(l *i18n.Lang) (string, screen.Snapshot) {
		var out bytes.Buffer
		m := screen.NewModel(nil)
		m.Observe(obs)
		tbl := New(strings.NewReader(""), &out, m)
		tbl.SetLang(l)
		tbl.Finish(&st, nil)
		return out.String(), m.Snapshot()
	}
	en, snap := print(nil)
	if want := screen.FormatStandings(snap.Standings); !strings.Contains(en, want) {
		t.Errorf("English standings:\n%s\nwant FormatStandings':\n%s", en, want)
	}
	ja, _ := i18n.Load("ja")
	got, _ := print(ja)
	for _, want := range []string{"最終結果", "1位 alice (", "35200点（+55.2）", "4位 dave ("} {
		if !strings.Contains(got, want) {
			t.Errorf("Japanese standings lack %q:\n%s", want, got)
		}
	}
	if left := ja.EnglishLeft(got, "term.", "info."); len(left) > 0 {
		t.Errorf("English left: %v\n%s", left, got)
	}
}
