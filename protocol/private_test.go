package protocol

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/player/bot"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// playSeeded plays hands hands at tb with bots, every player's keys,
// permutations and nonces drawn from a seeded ChaCha8 stream, so that two
// runs with the same seeds deal the same walls and play the same moves;
// private chooses private-hands mode. It returns each player's results
// and game record.
func playSeeded(t *testing.T, tb *table, hands int, private bool) ([][]HandResult, []*mjlog.Game) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	results := make([][]HandResult, len(tb.ids))
	records := make([]*mjlog.Game, len(tb.ids))
	errs := make([]error, len(tb.ids))
	var wg sync.WaitGroup
	for i := range tb.ids {
		b := bot.New(uint64(700 + i))
		var seed [32]byte
		seed[0] = byte(i + 1)
		tb.transcripts[i].Reset()
		g, err := NewGame(Config{Table: "private", Identity: tb.keys[i], Peers: tb.ids, Hands: hands,
			Transport: tb.net.Transport(tb.ids[i]), Transcript: NewTranscript(tb.transcripts[i]), Timeout: 20 * time.Second,
			Rand: rand.NewChaCha8(seed), PrivateHands: private,
			Player: PlayerFunc(func(_ context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) { return b.Choose(v, s) })})
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			results[i], errs[i] = g.Run(ctx)
			records[i] = g.Record(results[i])
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("private %v: player %d: %v", private, i, err)
		}
	}
	return results, records
}

// keyMessage is one key-bearing message of a transcript: who signed it,
// to whom (""  for everyone), and the positions it carries a key for.
type keyMessage struct {
	hand      uint32
	sender    peer.ID
	recipient peer.ID
	kind      string
	positions []int
	globalKey bool
}

// keyMessages lists every key-bearing message of a transcript: key
// releases, shown tiles (dahai, calls, wins, tenpai hands) and key
// reveals, read straight from the signed entries.
func keyMessages(t *testing.T, transcript []byte) []keyMessage {
	t.Helper()
	os, err := ReadTranscript(bytes.NewReader(transcript), "transcript")
	if err != nil {
		t.Fatal(err)
	}
	var out []keyMessage
	for _, o := range os {
		e := o.Entry
		m := keyMessage{hand: e.Hand, sender: o.Sender, recipient: o.Recipient, kind: o.Kind()}
		var shown *pb.Shown
		switch {
		case e.GetKeyRelease() != nil:
			for _, p := range e.GetKeyRelease().Positions {
				m.positions = append(m.positions, int(p))
			}
		case e.GetKeyReveal() != nil:
			kr := e.GetKeyReveal()
			m.globalKey = len(kr.GlobalKey) > 0
			for _, p := range kr.Positions {
				m.positions = append(m.positions, int(p))
			}
			if len(kr.Positions) == 0 && len(kr.PositionKeys) > 0 {
				for p := range len(kr.PositionKeys) / 32 {
					m.positions = append(m.positions, p)
				}
			}
		case e.GetTurn() != nil:
			shown = e.GetTurn().Shown
		case e.GetCall() != nil:
			shown = e.GetCall().Shown
		case e.GetDeclare() != nil:
			shown = e.GetDeclare().Shown
		default:
			continue
		}
		for _, p := range shown.GetPositions() {
			m.positions = append(m.positions, int(p))
		}
		out = append(out, m)
	}
	return out
}

// Four bots play private-hands hands. The check of privacy reads the
// transcripts themselves: a seat's concealed positions are the positions
// released to it privately (its haipai and draws) that it never showed
// in a signed message; for every seat that did not win, show a tenpai
// hand or declare riichi, none of those positions may appear in any
// key-bearing message of any of the four transcripts other than the
// private releases to that seat, and no key reveal carries a global key.
// The walls come from an independent source: the same game played again
// with the same seeds and the full key reveal. Every tile the private
// audit opened must be the full wall's, each player's own view in its
// record must show its haipai as the full wall has it, and every hand
// must audit clean, live and offline, with the partial wall reported.
func TestPrivateHandsKeepLosersHandsPrivate(t *testing.T) {
	t.Parallel()
	hands := 4
	if testing.Short() {
		hands = 3 // the fixed walls give a riichi player's reveal by then
	}
	tb := newFixedTable(t, 2)
	full, _ := playSeeded(t, tb, hands, false)
	private, records := playSeeded(t, tb, hands, true)
	for i := range tb.ids {
		if len(private[i]) != len(full[i]) {
			t.Fatalf("player %d: %d private hands, %d full", i, len(private[i]), len(full[i]))
		}
	}
	var concealedChecked, riichiRevealed, hidden int
	for h := range private[0] {
		seats := private[0][h].Seats
		yama := full[0][h].Yama
		// The public wall: the same for all four, a subset of the full one.
		for i := range tb.ids {
			r := private[i][h]
			if len(r.Blame) > 0 || len(r.Faults) > 0 || r.Record == nil {
				t.Fatalf("hand %d player %d: blame %v faults %v", h+1, i, r.Blame, r.Faults)
			}
			if !slices.Equal(r.Yama, private[0][h].Yama) {
				t.Errorf("hand %d: player %d's public wall differs from player 0's", h+1, i)
			}
		}
		shown := 0
		for pos, id := range private[0][h].Yama {
			if id < 0 {
				continue
			}
			shown++
			if id != yama[pos] {
				t.Errorf("hand %d: position %d opened as %d, the full wall has %d", h+1, pos, id, yama[pos])
			}
		}
		if shown == 0 || shown >= len(yama) {
			t.Errorf("hand %d: %d of %d positions public", h+1, shown, len(yama))
		}
		res := private[0][h].Result
		// Who showed its hand, and who declared riichi.
		var msgs [][]keyMessage
		for i := range tb.ids {
			msgs = append(msgs, slices.DeleteFunc(keyMessages(t, tb.transcripts[i].Bytes()), func(m keyMessage) bool { return m.hand != uint32(h+1) }))
		}
		exposed := map[peer.ID]bool{}
		for _, w := range res.Wins {
			exposed[seats[w.Seat]] = true
		}
		for s := range seats {
			if res.Tenpai[s] {
				exposed[seats[s]] = true
			}
		}
		received := map[peer.ID][]int{}
		showed := map[peer.ID][]int{}
		for i, ms := range msgs {
			for _, m := range ms {
				if m.kind == "key release" && m.recipient == tb.ids[i] {
					received[m.recipient] = append(received[m.recipient], m.positions...)
				}
				if m.kind == "turn" || m.kind == "call" || m.kind == "declare" {
					showed[m.sender] = append(showed[m.sender], m.positions...)
				}
				if m.globalKey {
					t.Fatalf("hand %d: %s's key reveal carries its global key", h+1, m.sender)
				}
			}
		}
		for _, p := range seats {
			if exposed[p] {
				continue
			}
			riichi := slices.ContainsFunc(private[0][h].Record.Events, func(e mjlog.Event) bool {
				r, ok := e.(mjlog.Reach)
				return ok && r.Step == 1 && seats[r.Who] == p
			})
			for _, pos := range received[p] {
				if slices.Contains(showed[p], pos) {
					continue
				}
				concealedChecked++
				for i, ms := range msgs {
					for _, m := range ms {
						if !slices.Contains(m.positions, pos) || m.kind == "key release" && m.recipient == p {
							continue
						}
						if riichi && m.kind == "key reveal" {
							riichiRevealed++
							continue // the rules need a riichi loser's hand
						}
						t.Errorf("hand %d: player %d's transcript holds a %s from %s to %q with a key for position %d, concealed in the hand of loser %s", h+1, i, m.kind, m.sender, m.recipient, pos, p)
					}
				}
			}
		}
		// Each player's own view: its haipai as the full wall has it,
		// every other tile either hidden or the full wall's.
		fullHai := full[0][h].Record.Init.Hai
		for i := range tb.ids {
			own := slices.Index(seats, tb.ids[i])
			in := records[i].Rounds[h].Init
			for s := range in.Hai {
				for n, tile := range in.Hai[s] {
					switch {
					case tile == mjlog.Hidden && s == own:
						t.Errorf("hand %d: player %d's record hides its own haipai tile %d", h+1, i, n)
					case tile == mjlog.Hidden:
						hidden++
					case tile != fullHai[s][n]:
						t.Errorf("hand %d: player %d's record has seat %d's haipai tile %d as %d, the full wall %d", h+1, i, s, n, tile, fullHai[s][n])
					}
				}
			}
		}
	}
	if concealedChecked == 0 || hidden == 0 || riichiRevealed == 0 {
		t.Fatalf("nothing checked: %d concealed positions, %d hidden haipai tiles, %d revealed riichi keys", concealedChecked, hidden, riichiRevealed)
	}
	t.Logf("%d concealed loser positions checked in %d hands, %d keys of riichi losers revealed, %d hidden haipai tiles in the records", concealedChecked, len(private[0]), riichiRevealed, hidden)
	// Offline: every transcript audits clean and says the wall was partly
	// revealed.
	for i := range tb.ids {
		recs, err := ReadRecords(bytes.NewReader(tb.transcripts[i].Bytes()), "transcript")
		if err != nil {
			t.Fatal(err)
		}
		a := AuditTranscript(recs)
		if !a.OK() || !a.PrivateHands {
			t.Fatalf("player %d: offline audit: ok %v, private %v, blame %v, faults %v", i, a.OK(), a.PrivateHands, a.Blame, a.Faults)
		}
		for h, ha := range a.Hands {
			if !ha.PrivateHands || !ha.Proven || ha.Shown == 0 || !slices.Equal(ha.Yama, private[i][h].Yama) {
				t.Errorf("player %d hand %d: offline private %v proven %v shown %d, yama equal to the live one %v", i, h+1, ha.PrivateHands, ha.Proven, ha.Shown, slices.Equal(ha.Yama, private[i][h].Yama))
			}
		}
	}
	// The records: a view is refused by Parse and read by ParseView.
	var buf bytes.Buffer
	if err := mjlog.Write(&buf, records[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := mjlog.Parse(bytes.NewReader(buf.Bytes()), "view.xml"); err == nil || !strings.Contains(err.Error(), "private-hands") {
		t.Errorf("Parse of a private view: %v, want a refusal naming private hands", err)
	}
	back, err := mjlog.ParseView(bytes.NewReader(buf.Bytes()), "view.xml")
	if err != nil || !back.HasHidden() || len(back.Rounds) != len(records[0].Rounds) {
		t.Fatalf("ParseView: %v", err)
	}
}

// A wrong tile shown in private-hands mode is still blamed on its
// sender: its keys open the proven wall to another tile.
func TestPrivateHandsWrongDahaiBlamed(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	const cheater = 1
	out := tb.play(t, 1, func(i int, c *Config) {
		c.PrivateHands = true
		if i == cheater {
			c.Misbehavior = tamper(func(_ uint32, _ peer.ID, e *pb.Entry) {
				if s := e.GetTurn().GetShown(); s != nil && len(s.Tiles) == 1 {
					s.Tiles[0] = (s.Tiles[0] + 4) % wall.NumTiles
				}
			})
		}
	})
	for i, o := range out {
		if i != cheater && blamed(o.err) != tb.ids[cheater] {
			t.Errorf("player %d: %v, want a blame of %s", i, o.err, tb.ids[cheater])
		}
	}
}

// A key reveal that publishes a wrong key for a needed position, or keys
// the rules do not need, is blamed on its signer by the audit.
func TestPrivateHandsBadRevealBlamed(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	const cheater = 2
	out := tb.play(t, 1, func(i int, c *Config) {
		c.PrivateHands = true
		if i == cheater {
			c.Misbehavior = tamper(func(_ uint32, _ peer.ID, e *pb.Entry) {
				if kr := e.GetKeyReveal(); kr != nil {
					// A key for position 0 the rules do not need (the
					// rinshan tile is never a riichi hand's at the end of
					// this tsumogiri hand).
					kr.Positions = append(kr.Positions, 0)
					kr.PositionKeys = append(kr.PositionKeys, make([]byte, 32)...)
					kr.PositionKeys[len(kr.PositionKeys)-32] = 1
				}
			})
		}
	})
	for i, o := range out {
		if i == cheater {
			continue
		}
		var found bool
		for _, r := range o.results {
			for _, b := range r.Blame {
				found = found || b.Peer == tb.ids[cheater] && strings.Contains(b.Reason, "revealed the keys of positions")
			}
		}
		if !found {
			t.Errorf("player %d: %v, blames %v; want the bad reveal of %s blamed", i, o.err, o.results, tb.ids[cheater])
		}
	}
}

// One node with private hands at a table without: every node names it as
// a configuration fault, like no_proofs.
func TestPrivateHandsMismatchIsAConfigFault(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	const odd = 3
	out := tb.play(t, 1, func(i int, c *Config) { c.PrivateHands = i == odd })
	for i, o := range out {
		var fe *FaultError
		if !errors.As(o.err, &fe) || fe.Peer != tb.ids[odd] || fe.Kind != FaultConfig || !strings.Contains(fe.Reason, "private_hands") {
			t.Errorf("player %d: %v, want a configuration fault of %s for private_hands", i, o.err, tb.ids[odd])
		}
	}
}

// Private hands needs the proofs.
func TestPrivateHandsRefusedWithoutProofs(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	_, err := NewGame(Config{Identity: tb.keys[0], Peers: tb.ids, Transport: tb.net.Transport(tb.ids[0]), PrivateHands: true, NoProofs: true})
	if err == nil || !strings.Contains(err.Error(), "NoProofs") {
		t.Errorf("NewGame: %v, want a refusal", err)
	}
}
