package protocol

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/player/bot"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// uraBot is a bot for the ura-dora tests: it declares riichi whenever it
// may (riichi true), or never (false); with win false it never wins (it
// passes a ron and discards instead of a tsumo agari).
func uraBot(seed uint64, calls, riichiAlways, win bool) Player {
	b := bot.New(seed)
	b.Calls, b.Kans = calls, calls
	return PlayerFunc(func(_ context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) {
		a, err := b.Choose(v, s)
		if err != nil {
			return a, err
		}
		legal := v.LegalActions(s)
		discard := func(riichi bool) (game.Action, bool) {
			i := slices.IndexFunc(legal, func(l game.Action) bool { return l.Type == game.Discard && l.Riichi == riichi && l.Tile == a.Tile })
			if i < 0 {
				return a, false
			}
			return legal[i], true
		}
		switch {
		case !win && a.Type == game.Ron:
			return game.Action{Type: game.Pass, Seat: s, Tile: a.Tile}, nil
		case !win && a.Type == game.TsumoAgari:
			// Discard the drawn tile (the only dahai in riichi).
			tiles, _ := v.Hand(s)
			a.Tile = tiles[len(tiles)-1]
			if r, ok := discard(false); ok {
				return r, nil
			}
			for _, l := range legal {
				if l.Type == game.Discard {
					return l, nil
				}
			}
		case a.Type == game.Discard && riichiAlways && !a.Riichi:
			if r, ok := discard(true); ok {
				return r, nil
			}
		case a.Type == game.Discard && !riichiAlways && a.Riichi:
			if r, ok := discard(false); ok {
				return r, nil
			}
		}
		return a, nil
	})
}

// handLog is what one hand's public entries show about ura-dora: every
// publicly decrypted position with the index of its entry in the
// transcript, the entries that declare riichi, and the first entry that
// declares a riichi player's win (a TSUMO turn or a RON call).
type handLog struct {
	public    map[int][]int // position → transcript indices of its public key releases
	revealed  map[int][]int // position → transcript indices of key reveals listing it (private hands)
	riichi    []string      // senders of riichi declarations
	winDeclAt int           // transcript index of the first win declaration, -1 if none
}

// readHandLogs reads a transcript and returns, by hand number, its public
// key releases and win declarations.
func readHandLogs(t *testing.T, transcript []byte) map[uint32]*handLog {
	t.Helper()
	recs, err := ReadRecords(bytes.NewReader(transcript), "transcript")
	if err != nil {
		t.Fatal(err)
	}
	out := map[uint32]*handLog{}
	for i, rec := range recs {
		o, err := Open(rec.Envelope)
		if err != nil {
			t.Fatalf("record %d: %v", rec.Index, err)
		}
		e := o.Entry
		if e.Hand == 0 {
			continue
		}
		h := out[e.Hand]
		if h == nil {
			h = &handLog{public: map[int][]int{}, revealed: map[int][]int{}, winDeclAt: -1}
			out[e.Hand] = h
		}
		switch {
		case e.GetKeyRelease() != nil && o.Recipient == "":
			for _, p := range e.GetKeyRelease().Positions {
				h.public[int(p)] = append(h.public[int(p)], i)
			}
		case e.GetKeyReveal() != nil:
			for _, p := range e.GetKeyReveal().Positions {
				h.revealed[int(p)] = append(h.revealed[int(p)], i)
			}
		case e.GetTurn().GetRiichi():
			h.riichi = append(h.riichi, string(o.Sender))
		case e.GetTurn().GetKind() == pb.TurnKind_TURN_TSUMO, e.GetCall().GetKind() == pb.AnswerKind_ANSWER_RON:
			if h.winDeclAt < 0 {
				h.winDeclAt = i
			}
		}
	}
	return out
}

// uraPositions returns the yama positions of the ura-dora indicators of
// the four-player layout (package wall), k = 0..4.
func uraPositions() []int {
	var out []int
	for k := range 5 {
		out = append(out, wall.FourPlayer.UraIndicatorIndex(k))
	}
	return out
}

func riichiWinner(w game.Win) bool {
	return slices.ContainsFunc(w.Value.Yaku, func(y riichi.Yaku) bool {
		return y.ID == riichi.YakuRiichi || y.ID == riichi.YakuDoubleRiichi
	})
}

// checkAuditsClean fails unless every player finished every hand with no
// blame and the offline audit of each transcript passes.
func checkAuditsClean(t *testing.T, tb *table, out []outcome, hands int) {
	t.Helper()
	for i, o := range out {
		if o.err != nil {
			t.Fatalf("player %d: %v", i, o.err)
		}
		if len(o.results) > hands || len(o.results) < hands && !busted(o.results) {
			t.Fatalf("player %d played %d hands, want %d (or fewer if a player went below zero)", i, len(o.results), hands)
		}
		for h, r := range o.results {
			if len(r.Blame) != 0 || len(r.Faults) != 0 || r.Yama == nil {
				t.Fatalf("player %d, hand %d: blame %v, faults %v", i, h+1, r.Blame, r.Faults)
			}
		}
		recs, err := ReadRecords(bytes.NewReader(tb.transcripts[i].Bytes()), "transcript")
		if err != nil {
			t.Fatal(err)
		}
		if a := AuditTranscript(recs); !a.OK() {
			t.Fatalf("offline audit of player %d's transcript: blame %v, faults %v", i, a.Blame, a.Faults)
		}
	}
}

// busted reports whether the last hand of results left a player below
// zero, which ends the match (Tenhou's tobi) before the hands asked for.
func busted(results []HandResult) bool {
	if len(results) == 0 || results[len(results)-1].Result == nil {
		return false
	}
	for _, s := range results[len(results)-1].Result.Scores {
		if s < 0 {
			return true
		}
	}
	return false
}

// A riichi that is not followed by a riichi player's win never makes the
// table decrypt an ura-dora indicator: two players declare riichi
// whenever they can but never win, two never declare riichi. Whether the
// hand ends in an exhaustive draw or in another player's win, no public
// key release of any hand (in every player's transcript) names an
// ura-dora indicator position of the wall layout, and every audit, live
// and offline, is clean. With private hands the ura-dora indicators then
// stay unknown for good: no end-of-hand reveal names them either, and the
// audited yama leaves them hidden.
func TestUraHiddenWithoutARiichiWin(t *testing.T) {
	t.Parallel()
	for _, private := range []bool{false, true} {
		t.Run(map[bool]string{false: "full reveal", true: "private hands"}[private], func(t *testing.T) {
			testUraHidden(t, private)
		})
	}
}

func testUraHidden(t *testing.T, private bool) {
	hands := 4
	if testing.Short() {
		hands = 2 // the fixed walls give a riichi in each setup by then
	}
	tb := newFixedTable(t, 40)
	out := tb.play(t, hands, func(i int, c *Config) {
		c.Player = uraBot(uint64(40+i), i >= 2, i < 2, i >= 2)
		c.Rand = fixedRand(40 + i) // the same walls every run
		c.PrivateHands = private
	})
	checkAuditsClean(t, tb, out, hands)
	ura := uraPositions()
	riichis := 0
	for i := range tb.ids {
		logs := readHandLogs(t, tb.transcripts[i].Bytes())
		for h := 1; h <= hands; h++ {
			l := logs[uint32(h)]
			if l == nil {
				t.Fatalf("player %d: no entries of hand %d", i, h)
			}
			if i == 0 {
				riichis += len(l.riichi)
			}
			res := out[i].results[h-1]
			for _, pos := range ura {
				if at := l.public[pos]; len(at) > 0 {
					t.Errorf("player %d, hand %d (%s, %d riichi): ura-dora indicator yama[%d] decrypted in public (transcript records %v)", i, h, endName(res.Result.End), len(l.riichi), pos, at)
				}
				if at := l.revealed[pos]; private && len(at) > 0 {
					t.Errorf("player %d, hand %d: ura-dora indicator yama[%d] in the private-hands key reveal (records %v)", i, h, pos, at)
				}
				if private && res.Yama[pos] != int(game.Unknown) {
					t.Errorf("player %d, hand %d: the private-hands audit knows ura-dora indicator yama[%d]", i, h, pos)
				}
			}
		}
	}
	for h, r := range out[0].results {
		for _, w := range r.Result.Wins {
			if riichiWinner(w) || w.UraIndicators != nil {
				t.Fatalf("hand %d: seat %d won with riichi (ura %v): the players were set never to", h+1, w.Seat, w.UraIndicators)
			}
		}
	}
	if riichis == 0 {
		t.Fatalf("no riichi in %d hands: the test shows nothing", hands)
	}
	t.Logf("%d riichi declarations in %d hands; ends %v", riichis, hands, ends(out[0].results))
}

func endName(e game.EndKind) string {
	switch e {
	case game.EndAgari:
		return "agari"
	case game.EndExhaustive:
		return "exhaustive draw"
	case game.EndAbortive:
		return "abortive draw"
	}
	return fmt.Sprint(int(e))
}

func ends(rs []HandResult) []string {
	var out []string
	for _, r := range rs {
		out = append(out, endName(r.Result.End))
	}
	return out
}

// A riichi winner's ura-dora indicators are decrypted in public once the
// win is declared, not before, and scored: four closed bots declare
// riichi whenever they can and take every win. In each hand a riichi
// player wins, the only public key releases of ura-dora positions follow
// the win's TSUMO or RON (one from each player, for the ura indicator of
// every turned dora indicator); the ura indicators the live engine scored
// are the wall's tiles at those positions (package wall's layout, the
// audited yama); and the value and score changes the live engine paid
// equal those of the hand's mjlog record, which an engine given the whole
// wall from the start computed. In hands without a riichi winner no ura
// position is released.
func TestRiichiWinnerGetsUraScored(t *testing.T) {
	t.Parallel()
	hands := 8
	if testing.Short() {
		hands = 2 // the fixed walls give a riichi win in each
	}
	tb := newFixedTable(t, 70)
	out := tb.play(t, hands, func(i int, c *Config) {
		c.Player = uraBot(uint64(70+i), false, true, true)
		c.Rand = fixedRand(70 + i) // the same walls every run
	})
	checkAuditsClean(t, tb, out, hands)
	ura := uraPositions()
	riichiWins := 0
	for h, r := range out[0].results {
		l := readHandLogs(t, tb.transcripts[0].Bytes())[uint32(h+1)]
		var wins []game.Win
		if r.Result.End == game.EndAgari {
			for _, w := range r.Result.Wins {
				if riichiWinner(w) {
					wins = append(wins, w)
				}
			}
		}
		if len(wins) == 0 {
			for _, pos := range ura {
				if len(l.public[pos]) > 0 {
					t.Errorf("hand %d (%s, no riichi winner): ura-dora indicator yama[%d] decrypted in public", h+1, endName(r.Result.End), pos)
				}
			}
			continue
		}
		riichiWins++
		turned := len(wins[0].DoraIndicators)
		for k, pos := range ura {
			at := l.public[pos]
			if k >= turned {
				if len(at) > 0 {
					t.Errorf("hand %d: ura indicator %d (yama[%d]) of an unturned dora indicator decrypted", h+1, k, pos)
				}
				continue
			}
			if len(at) != Players {
				t.Errorf("hand %d: ura indicator %d (yama[%d]) released by %d players, want %d", h+1, k, pos, len(at), Players)
			}
			for _, i := range at {
				if l.winDeclAt < 0 || i < l.winDeclAt {
					t.Errorf("hand %d: ura indicator yama[%d] released at transcript record %d, before the win was declared (record %d)", h+1, pos, i, l.winDeclAt)
				}
			}
		}
		var agari []mjlog.Agari
		for _, e := range r.Record.Events {
			if a, ok := e.(mjlog.Agari); ok {
				agari = append(agari, a)
			}
		}
		for _, w := range wins {
			var want []wall.Tile
			for k := range turned {
				want = append(want, wall.Tile(r.Yama[ura[k]]))
			}
			if !slices.Equal(w.UraIndicators, want) {
				t.Errorf("hand %d: seat %d scored ura indicators %v, the wall holds %v", h+1, w.Seat, w.UraIndicators, want)
			}
			i := slices.IndexFunc(agari, func(a mjlog.Agari) bool { return a.Who == int(w.Seat) })
			if i < 0 {
				t.Fatalf("hand %d: the record has no AGARI of seat %d", h+1, w.Seat)
			}
			a := agari[i]
			if !slices.Equal(a.DoraHaiUra, want) || a.Ten != w.Value.Points || a.Fu != w.Value.Fu || a.Limit != w.Value.Limit {
				t.Errorf("hand %d: seat %d: live engine paid %d points (%d fu, limit %d, ura %v); the whole-wall engine %d (%d fu, limit %d, ura %v)",
					h+1, w.Seat, w.Value.Points, w.Value.Fu, w.Value.Limit, w.UraIndicators, a.Ten, a.Fu, a.Limit, a.DoraHaiUra)
			}
			for s := range Players {
				if len(a.Sc) != 2*Players || a.Sc[2*s+1]*100 != w.Deltas[s] {
					t.Errorf("hand %d: seat %d's win: score changes %v, the record's sc= %v", h+1, w.Seat, w.Deltas, a.Sc)
					break
				}
			}
		}
	}
	if riichiWins == 0 {
		t.Fatalf("no riichi win in %d hands (ends %v): the test shows nothing", hands, ends(out[0].results))
	}
	t.Logf("%d of %d hands won with riichi; ends %v", riichiWins, hands, ends(out[0].results))
}

// A riichi player's false tsumo agari is blamed at once, before any
// ura-dora indicator is decrypted: whether a hand wins never depends on
// ura dora, so a cheater cannot make the table reveal them by declaring a
// win it does not hold. The cheater declares riichi on its first dahai
// (its riichi is accepted: the check that it was tenpai is the audit's)
// and a tsumo agari on its third turn.
func TestFalseRiichiTsumoBlamedBeforeUra(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	const cheater = 2
	turns := 0
	out := tb.play(t, 1, cheat(cheater, func(_ context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) {
		switch v.Phase() {
		case game.PhaseTurn:
			hand, _ := v.Hand(s)
			if turns++; turns == 3 {
				return game.Action{Type: game.TsumoAgari, Seat: s}, nil
			}
			return game.Action{Type: game.Discard, Seat: s, Tile: hand[len(hand)-1], Riichi: turns == 1}, nil
		case game.PhaseResponse:
			return game.Action{Type: game.Pass, Seat: s}, nil
		}
		return game.Action{Type: game.Noten, Seat: s}, nil
	}))
	if turns < 3 {
		t.Fatalf("the hand ended after %d turns of the cheater: %v", turns, out[0].err)
	}
	expectBlameOf(t, tb, out, cheater, "tsumo")
	for i := range tb.ids {
		l := readHandLogs(t, tb.transcripts[i].Bytes())[1]
		if len(l.riichi) != 1 || l.winDeclAt < 0 {
			t.Fatalf("player %d: %d riichi declarations, win declared at record %d; want the cheater's riichi and tsumo", i, len(l.riichi), l.winDeclAt)
		}
		for _, pos := range uraPositions() {
			if at := l.public[pos]; len(at) > 0 {
				t.Errorf("player %d: ura-dora indicator yama[%d] decrypted in public (records %v) for a false tsumo", i, pos, at)
			}
		}
	}
}

// The public engine's step sequence around a riichi, fed entry by entry
// (tiles "decrypt" to what their sender claims): the dealer declares
// riichi, and after every answer to the next dahai — the riichi seat's
// pass included — the kyoku waits for the next draw, not for a public
// decryption; a public key release of the ura-dora indicator yama[4] then
// is out of turn, as the offline audit, which replays the same tracker,
// judges an old transcript that has one. Only once the riichi seat's ron
// is called is yama[4] due, from every seat; the win is then scored with
// it: an ura indicator 4p makes 5p dora, and the hand holds two 5p, so
// the win counts ura dora 2.
func TestTrackerUraOnlyForARiichiWin(t *testing.T) {
	t.Parallel()
	var seats []peer.ID
	for range Players {
		k, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		id, err := peer.IDFromPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, id)
	}
	const uraPos, uraTile = 4, wall.Tile(48) // 4p
	if wall.FourPlayer.UraIndicatorIndex(0) != uraPos {
		t.Fatalf("first ura indicator at yama[%d], want yama[4]", wall.FourPlayer.UraIndicatorIndex(0))
	}
	k, err := game.NewKyoku(game.TenhouRules(true, true, true), game.Deal{Scores: [4]int{25000, 25000, 25000, 25000}, Haipai: hiddenHaipai(Players), DoraIndicator: 9})
	if err != nil {
		t.Fatal(err)
	}
	open := func(st shownTile) (wall.Tile, error) {
		if st.pos == uraPos {
			return uraTile, nil
		}
		return st.tile, nil
	}
	tr := newTracker(k, 1, seats, open, func(int, int, commcrypto.Scalar) error { return nil })
	key := make([]byte, commcrypto.ScalarSize)
	key[0] = 1 // the scalar 1, little-endian
	shown := func(pos []int, tiles []wall.Tile) *pb.Shown {
		sh := &pb.Shown{}
		for i, p := range pos {
			sh.Positions = append(sh.Positions, uint32(p))
			sh.Tiles = append(sh.Tiles, uint32(tiles[i]))
			for range Players {
				sh.Keys = append(sh.Keys, key...)
			}
		}
		return sh
	}
	feed := func(s int, e *pb.Entry) {
		t.Helper()
		if err := tr.feed(&Opened{Entry: e, Sender: seats[s]}); err != nil {
			t.Fatalf("seat %d: %v", s, err)
		}
	}
	expect := func(want step, what string) {
		t.Helper()
		if st, who := tr.next(); st != want {
			t.Fatalf("%s: the kyoku waits for the %s of seats %v (positions %v due), want the %s", what, stepNames[st], who, tr.pendingReveal(), stepNames[want])
		}
	}
	// dahai has seat s draw and discard tile t from its newest position.
	dahai := func(s int, tile wall.Tile, riichi bool) {
		t.Helper()
		expect(stepDraw, fmt.Sprintf("seat %d's draw", s))
		if err := tr.draw(); err != nil {
			t.Fatal(err)
		}
		_, pos := k.Hand(game.Seat(s))
		feed(s, &pb.Entry{Body: &pb.Entry_Turn{Turn: &pb.Turn{Kind: pb.TurnKind_TURN_DAHAI, Riichi: riichi, Shown: shown(pos[len(pos)-1:], []wall.Tile{tile})}}})
	}
	answer := func(s int, kind pb.AnswerKind) {
		t.Helper()
		feed(s, &pb.Entry{Body: &pb.Entry_Answer{Answer: &pb.Answer{Kind: kind}}})
	}
	release := &pb.Entry{Body: &pb.Entry_KeyRelease{KeyRelease: &pb.KeyRelease{Positions: []uint32{uraPos}, Keys: key}}}

	dahai(0, 120, true) // a north, with riichi
	for s := 1; s < Players; s++ {
		answer(s, pb.AnswerKind_ANSWER_PASS)
	}
	if !k.Riichi(0) {
		t.Fatal("the dealer's riichi is not accepted")
	}
	dahai(1, 121, false) // a north
	for _, s := range []int{2, 3, 0} {
		answer(s, pb.AnswerKind_ANSWER_PASS) // seat 0 passes in riichi
	}
	expect(stepDraw, "after the riichi seat's pass")
	err = tr.feed(&Opened{Entry: release, Sender: seats[0]})
	if err == nil || !strings.Contains(err.Error(), "no public decryption is due") || blamed(err) != seats[0] {
		t.Fatalf("a public release of yama[%d] after a riichi seat's pass: %v, want a blame of seat 0 (no public decryption is due)", uraPos, err)
	}

	dahai(2, 53, false) // a 5p (not the red one)
	answer(3, pb.AnswerKind_ANSWER_PASS)
	answer(0, pb.AnswerKind_ANSWER_RON)
	answer(1, pb.AnswerKind_ANSWER_PASS)
	expect(stepCall, "after a riichi seat's ron answer")
	// 123m 456m 789m 123p 5p: ittsuu, waiting on 5p.
	_, pos := k.Hand(0)
	hand := []wall.Tile{0, 4, 8, 12, 17, 20, 24, 28, 32, 36, 40, 44, 54}
	if len(pos) != len(hand) {
		t.Fatalf("seat 0 holds %d tiles, want %d", len(pos), len(hand))
	}
	feed(0, &pb.Entry{Body: &pb.Entry_Call{Call: &pb.Call{Kind: pb.AnswerKind_ANSWER_RON, Shown: shown(pos, hand)}}})
	expect(stepReveal, "after a riichi seat's ron")
	if due := tr.pendingReveal(); !slices.Equal(due, []int{uraPos}) {
		t.Fatalf("due %v, want [%d]", due, uraPos)
	}
	for s := range Players {
		feed(s, release)
	}
	expect(stepDone, "after the ura indicator")
	res := k.Result()
	if res == nil || len(res.Wins) != 1 || res.Wins[0].Seat != 0 {
		t.Fatalf("result %+v, want seat 0's ron", res)
	}
	w := res.Wins[0]
	if !slices.Equal(w.UraIndicators, []wall.Tile{uraTile}) {
		t.Errorf("ura indicators %v, want [%v]", w.UraIndicators, uraTile)
	}
	i := slices.IndexFunc(w.Value.Yaku, func(y riichi.Yaku) bool { return y.ID == riichi.YakuUraDora })
	if i < 0 || w.Value.Yaku[i].Han != 2 {
		t.Errorf("yaku %v, want ura dora 2 (id %d)", w.Value.Yaku, riichi.YakuUraDora)
	}
}

// fixedRand is a player's secret stream from a fixed seed: with bots that
// decide by their own seeds, the hands then go the same way every run (a
// test that needs a riichi finds one).
func fixedRand(n int) io.Reader {
	seed := make([]byte, SeedSize)
	seed[0] = byte(n)
	return SeedRand(seed)
}
