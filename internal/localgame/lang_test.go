package localgame

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// summaryOf plays the progress of a game of one hand to a local run in
// language lang, as the four nodes would report it: each node's
// progress.Reporter writes JSON lines (the process boundary), which the
// run relays; the hand ends in an exhaustive draw, player-2 fell silent
// while the others waited for its turn (a fault), and player-3 is blamed
// for a shuffle pass that fails its proof. It returns what the run
// printed: the relayed lines, the verdicts, the hand and the standings.
func summaryOf(t *testing.T, lang string) string {
	t.Helper()
	var out bytes.Buffer
	r, err := seat(context.Background(), Config{Dir: t.TempDir(), Players: 4, Lang: lang, Timeout: time.Minute, Hands: 1}, &out)
	if err != nil {
		t.Fatal(err)
	}
	defer r.table.Close()
	var ids []peer.ID
	var seats []string
	nicks := map[peer.ID]string{}
	for _, p := range r.players {
		ids, seats = append(ids, p.ID), append(seats, p.ID.String())
		nicks[p.ID] = p.Name
	}
	scores := [4]int{25000, 25000, 25000, 25000}
	h := protocol.HandResult{Number: 1, Seats: ids, Oya: 0, Dice: [2]int{2, 4}, DoraIndicator: 4 * 30, Yama: make([]int, 136), Events: 70,
		Start: game.Deal{Scores: scores}, Result: &game.Result{End: game.EndExhaustive, Scores: scores},
		Faults: []protocol.Fault{{Peer: ids[2], Hand: 1, Kind: protocol.FaultSilence, Want: "turn", Wait: 90 * time.Second, Reason: "silent for 1m30s while we waited for its turn"}},
		Blame:  []protocol.Blame{{Peer: ids[3], Hand: 1, Kind: protocol.BlameShuffle, Reason: "shuffle pass 3 (seq 5) fails its proof"}}}
	for i, p := range r.players {
		var lines bytes.Buffer
		rep := &progress.Reporter{W: &lines, JSON: true}
		rep.Event(progress.Seats{Seats: seats, Nicks: []string{"player-0", "player-1", "player-2", "player-3"}, Self: i}, "")
		rep.Hand(h, p.ID, nicks, 4, wall.RedsOf())
		rep.Event(progress.Standings{Order: [4]game.Seat{0, 1, 2, 3}, Scores: scores, Points: [4]int{450, 50, -150, -350}}, "")
		r.relay(p.Name, &lines)
	}
	r.judge()
	return out.String()
}

// TestSummaryInJapanese: `local --lang ja` prints its summary in
// Japanese: the seating, the hand's line (東1局, 流局, ドラ表示牌 as the
// tile's face), the blame and the fault said from their kinds (洗牌の不正,
// 応答なし: 打牌を90秒待ちました), the verdicts and the standings (1位 …
// 点), with no English word left but the players' names, tile names and
// "ms".
func TestSummaryInJapanese(t *testing.T) {
	got := summaryOf(t, "ja")
	t.Logf("\n%s", got)
	for _, want := range []string{
		"席順（第1局）:\n  player-0（東家・0番席） 東1局\n",
		"第1局（東1局 0本場）: 親 player-0（東家・0番席）、サイコロ 3+5、ドラ表示牌 北: 流局",
		"監査 失敗または監査の不一致",
		"[player-0] 不正の証明 第1局: player-3（3番席） ",
		": 洗牌（シャッフル）の不正（shuffle pass 3 (seq 5) fails its proof）\n",
		"[player-0] 障害 第1局: player-2（2番席） ",
		": 応答なし: 打牌を90秒待ちました\n",
		"判定: 障害 第1局: player-2（2番席） ",
		": 応答なし（障害は不正の証明ではありません）（報告: player-0, player-1, player-2, player-3）",
		"判定: 不正の証明 第1局: player-3（3番席） ",
		"打った局までの順位（ここで終了した場合のウマ込みの得点）:\n  1位 player-0（東家・0番席）: 25000点（+45.0）\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the Japanese summary lacks %q", want)
		}
	}
	rest := regexp.MustCompile(`player-\d|12D3KooW\w+|\b[1-9][mps]\b|\bms\b|shuffle pass 3 \(seq 5\) fails its proof`).ReplaceAllString(got, "")
	if left := regexp.MustCompile(`[A-Za-z]{3,}`).FindAllString(rest, -1); len(left) > 0 {
		t.Errorf("English left in the Japanese summary: %v", left)
	}
}

// TestSummaryInEnglish: in English the lines are those local always
// printed (a second, hand-written statement of them).
func TestSummaryInEnglish(t *testing.T) {
	got := summaryOf(t, "en")
	for _, want := range []string{
		"seating (hand 1):\n  player-0 (East, seat 0) in East 1\n",
		"hand 1 (East 1, honba 0): dealer player-0 (East, seat 0), dice 3+5, dora indicator 4z: exhaustive draw",
		"; 70 events, audit FAILED or audits disagree, setup 0 ms, 0 ms\n",
		"[player-0] BLAME hand 1: player-3 (seat 3) ",
		"[player-1] FAULT hand 1: player-2 (seat 2) ",
		": silent for 90 s while we waited for its turn\n",
		": silence (a fault: it proves nothing about intent); reported by player-0, player-1, player-2, player-3\n",
		"standings after the hands played (points with uma, as if the match ended there):\n  1. player-0 (East, seat 0): 25000 points (+45.0)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the English summary lacks %q:\n%s", want, got)
		}
	}
	var old bytes.Buffer
	WriteHand(&old, []progress.Hand{{Hand: 2, Round: 1, Honba: 1, Result: "exhaustive draw", Nicks: []string{"a", "b", "c", "d"}, OyaSeat: 1, Dice: [2]int{0, 5}, DoraIndicator: 0, Yama: []int{1}, AuditOK: true, Events: 9, SetupMs: 12.4, DurationMs: 99.6}}, nil)
	if want := "hand 2 (East 2, honba 1): dealer b (East, seat 1), dice 1+6, dora indicator 1m: exhaustive draw; scores a (North, seat 0) 0; 9 events, audit ok (1 of 1 audits agree), setup 12 ms, 100 ms\n"; old.String() != want {
		t.Errorf("WriteHand:\n%q, want\n%q", old.String(), want)
	}
}
