package screen

import (
	"errors"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/settings"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/wall"
)

// TestMessagesSayTheEnglishLines: the result, audit and info messages the
// model builds for a view's language say in English what the English
// lines say (protocol/verdict's DescribeResult, the audit verdict: a
// second code path), and in Japanese Tenhou's words (和了, ツモ, ロン,
// 流局, 聴牌, 不聴, 牌山検証) with no English message left.
func TestMessagesSayTheEnglishLines(t *testing.T) {
	ja, err := i18n.Load("ja")
	if err != nil {
		t.Fatal(err)
	}
	en := i18n.English()
	names := Names{Seats: testSeats, Nicks: []string{"alice", "bob", "carol", "dave"}, Oya: 1}
	win := func(seat, from game.Seat, tsumo bool, yakuman ...int) game.Win {
		v := riichi.WinResult{Han: 3, Fu: 40, Points: 5200, Yaku: []riichi.Yaku{{ID: 1, Han: 1}, {ID: 52, Han: 2}, {ID: 53, Han: 0}}}
		if len(yakuman) > 0 {
			v = riichi.WinResult{Han: 13, Fu: 30, Points: 32000, Yakuman: yakuman}
		}
		return game.Win{Seat: seat, From: from, Tsumo: tsumo, Value: v}
	}
	for _, c := range []struct {
		r    *game.Result
		want []string // in the Japanese line
	}{
		{&game.Result{End: game.EndAgari, Wins: []game.Win{win(2, 2, true)}}, []string{"carol (南) ツモ和了 40符3飜5200点", "立直1飜", "ドラ2飜"}},
		{&game.Result{End: game.EndAgari, Wins: []game.Win{win(0, 3, false), win(1, 3, false, 39)}}, []string{"alice (北) ロン和了（放銃 dave (西)）", "；", "bob (東) ロン和了", "大三元"}},
		{&game.Result{End: game.EndExhaustive, Tenpai: [4]bool{true, false, true, false}}, []string{"流局 聴牌：alice (北)、carol (南)"}},
		{&game.Result{End: game.EndExhaustive}, []string{"流局 全員不聴"}},
		{&game.Result{End: game.EndExhaustive, Nagashi: [4]bool{false, false, false, true}}, []string{"流し満貫 dave (西)"}},
		{&game.Result{End: game.EndAbortive, Abort: game.AbortKyuushu}, []string{"途中流局（九種九牌）"}},
	} {
		msg := DescribeMsg(c.r, names)
		if got, want := en.Say(msg), Describe(c.r, names); got != want && c.r.End != game.EndAbortive {
			t.Errorf("English message %q, the English line %q", got, want)
		}
		line := ja.Say(msg)
		for _, w := range c.want {
			if !strings.Contains(line, w) {
				t.Errorf("Japanese %q lacks %q", line, w)
			}
		}
		if left := ja.EnglishLeft(line, "feed.", "yaku.", "name", "abort."); len(left) > 0 || strings.Contains(line, "‹") {
			t.Errorf("Japanese %q: English left %v", line, left)
		}
	}

	m := NewModel(nil)
	m.Observe(protocol.Observation{Hand: 1, Stage: "shuffle", Seat: 0, Seats: testSeats, Nicks: names.Nicks})
	yama := make([]int, 136)
	m.HandDone(protocol.HandResult{Number: 1, Seats: testSeats, Yama: yama, Result: &game.Result{End: game.EndExhaustive}})
	yama[5] = -1
	m.HandDone(protocol.HandResult{Number: 2, Seats: testSeats, Yama: yama, Result: &game.Result{End: game.EndExhaustive}})
	m.HandDone(protocol.HandResult{Number: 3, Seats: testSeats, Blame: []protocol.Blame{{Peer: "peer-c", Hand: 3, Kind: protocol.BlameKey, Reason: "key for position 40 fails its commitment"}}})
	m.PauseFor(protocol.Pause{Peer: "peer-b", Nick: "bob", Left: 90e9})
	m.PauseFor(protocol.Pause{})
	m.Finish(nil, nil)
	s := m.Snapshot()
	var jaFeed []string
	for _, e := range s.Feed {
		if e.Kind != "audit" && e.Kind != "info" {
			continue
		}
		if e.Msg == nil {
			t.Errorf("%s event %q has no message", e.Kind, e.Text)
			continue
		}
		if got := en.Say(*e.Msg); got != e.Text {
			t.Errorf("%s event: English message %q, the line %q", e.Kind, got, e.Text)
		}
		jaFeed = append(jaFeed, ja.Say(*e.Msg))
	}
	all := strings.Join(jaFeed, "\n")
	for _, w := range []string{"第1局 牌山検証済み：4人が公開した鍵で136枚を復号", "第2局 牌山を一部公開（非公開手牌）：136箇所中135箇所", "第3局 監査失敗・不正を証明：", "bobの再接続を待っています（残り1:30）", "全員が戻りました", "対局終了"} {
		if !strings.Contains(all, w) {
			t.Errorf("the Japanese feed lacks %q:\n%s", w, all)
		}
	}
	// The blame is said as Japanese words (its reason, the protocol's
	// detail, in （）): TestBlameInJapanese.
	if left := ja.EnglishLeft(all, "feed.", "audit.", "info.", "verdict.", "blame."); len(left) > 0 {
		t.Errorf("English left in the Japanese feed: %v\n%s", left, all)
	}
	if h := s.Hands[0]; h.AuditMsg == nil || !h.AuditOK || en.Say(*h.AuditMsg) != h.Audit || h.TextMsg == nil || ja.Say(*h.TextMsg) != "流局 全員不聴" {
		t.Errorf("hand 1's summary: ok %v audit %q, text %v", h.AuditOK, h.Audit, h.TextMsg)
	}
	if h := s.Hands[2]; h.AuditOK || !strings.Contains(h.Audit, "cheating proven") {
		t.Errorf("hand 3's summary: ok %v audit %q", h.AuditOK, h.Audit)
	}
	if s.StatusMsg == nil || ja.Say(*s.StatusMsg) != "対局終了" {
		t.Errorf("status message at the end: %v", s.StatusMsg)
	}
}

// TestActionMsg: an action's message says in English what Words says of
// the engine's own Format, and in Japanese 打/立直/スキップ with the
// honours' faces.
func TestActionMsg(t *testing.T) {
	ja, _ := i18n.Load("ja")
	reds := game.TenhouRules(true, true, true).Hand.Reds()
	for _, c := range []struct {
		a  game.Action
		ja string
	}{
		{game.Action{Type: game.Discard, Tile: 108}, "打東"},
		{game.Action{Type: game.Discard, Tile: 17, Riichi: true}, "立直 打5m"},
		{game.Action{Type: game.Discard, Tile: 133}, "打中"},
		{game.Action{Type: game.Pass}, "スキップ"},
		{game.Action{Type: game.Pon, Tile: 109, Tiles: []wall.Tile{108, 110}}, "pon East (East East)"},
	} {
		msg := ActionMsg(c.a, reds)
		if got, want := i18n.English().Say(msg), Words(c.a.Format(reds)); got != want {
			t.Errorf("%+v: English %q, Words %q", c.a, got, want)
		}
		if got := ja.Say(msg); got != c.ja {
			t.Errorf("%+v: Japanese %q, want %q", c.a, got, c.ja)
		}
	}
}

// TestPlayMessages: every event of played discards has a message, said in
// Japanese as 打 with the seat's wind (東, the engine's dealer) and, in
// English, as the event's own line.
func TestPlayMessages(t *testing.T) {
	ja, _ := i18n.Load("ja")
	k := openKyoku(t)
	m := NewModel(nil)
	obs := func() {
		m.Observe(protocol.Observation{Hand: 1, Stage: "play", Seat: 1, Seats: testSeats, Nicks: []string{"alice", "bob", "carol", "dave"}, View: k.Clone()})
	}
	next := wall.Tile(52)
	for range 4 {
		if _, err := k.Draw(next); err != nil {
			t.Fatal(err)
		}
		next++
		obs()
		s := k.Turn()
		tiles, _ := k.Hand(s)
		if err := k.Apply(game.Action{Type: game.Discard, Seat: s, Tile: tiles[len(tiles)-1]}); err != nil {
			t.Fatal(err)
		}
		obs()
		for _, a := range k.Awaiting() {
			if err := k.Apply(game.Action{Type: game.Pass, Seat: a}); err != nil {
				t.Fatal(err)
			}
		}
	}
	var lines []string
	for _, e := range m.Snapshot().Feed {
		if e.Msg == nil {
			t.Errorf("%s event %q has no message", e.Kind, e.Text)
			continue
		}
		if got := i18n.English().Say(*e.Msg); got != e.Text {
			t.Errorf("%s event: English message %q, the line %q", e.Kind, got, e.Text)
		}
		lines = append(lines, ja.Say(*e.Msg))
	}
	all := strings.Join(lines, "\n")
	for _, w := range []string{"第1局 牌山を暗号化シャッフル中", "東1局 0本場 親 alice (東)", "alice (東) 打", "bob (南) 打", "（ツモ切り）", "ツモ "} {
		if !strings.Contains(all, w) {
			t.Errorf("the Japanese feed lacks %q:\n%s", w, all)
		}
	}
	if left := ja.EnglishLeft(all, "feed.", "round", "wind."); len(left) > 0 {
		t.Errorf("English left: %v\n%s", left, all)
	}
}

// TestStatusMessages: the status lines before the game (connecting, the
// question, the waiting room) carry messages whose English is the line
// and whose Japanese has no English left.
func TestStatusMessages(t *testing.T) {
	ja, _ := i18n.Load("ja")
	m := NewModel(nil)
	check := func(want string) {
		t.Helper()
		s := m.Snapshot()
		if s.StatusMsg == nil {
			t.Fatalf("status %q has no message", s.Status)
		}
		if got := i18n.English().Say(*s.StatusMsg); got != s.Status {
			t.Errorf("English message %q, the line %q", got, s.Status)
		}
		if got := ja.Say(*s.StatusMsg); !strings.Contains(got, want) || len(ja.EnglishLeft(got, "status.")) > 0 {
			t.Errorf("Japanese %q, want %q and no English", got, want)
		}
	}
	check("他のプレイヤーを待っています")
	m.Ask(i18n.M("game.table", "friday", "4 players"))
	check("参加")
	m.Answered(i18n.M("status.accepted"))
	check("参加しました")
	m.SetRoom([]string{"alice", "bob"}, 4)
	check("あと2人")
	m.SetRoom([]string{"alice", "bob", "carol", "dave"}, 4)
	check("卓が揃いました")
}

// TestSettingsMsg: a game's settings said in English are
// settings.Settings.Summary's line (a second code path) for presets,
// lengths, time controls, rule switches and proof options; in Japanese
// they read 人打ち, 半荘戦/東風戦, ルール, 赤, 喰いタン with no English left
// but the switches as typed.
func TestSettingsMsg(t *testing.T) {
	ja, _ := i18n.Load("ja")
	for _, args := range [][]string{
		nil,
		{"--tonpuu", "--hands", "1"},
		{"--players", "3", "--hands", "2", "--time", "off"},
		{"--rules", "majsoul", "--rule", "tobi=off", "--rule", "aka=0"},
		{"--rules", "mleague", "--no-proofs", "--no-pipeline"},
		{"--private-hands", "--rule", "kuitan=off", "--proofs", "tw"},
	} {
		var f settings.Flags
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		f.Register(fs, true)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		s, err := f.Settings(4)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		msg := SettingsMsg(s)
		if got, want := i18n.English().Say(msg), s.Summary(); got != want {
			t.Errorf("%v: English %q, Summary %q", args, got, want)
		}
		got := ja.Say(msg)
		t.Logf("%v: %s", args, got)
		if !strings.Contains(got, "人打ち") || !strings.Contains(got, "ルール（") {
			t.Errorf("%v: Japanese %q", args, got)
		}
		if left := ja.EnglishLeft(got, "game."); len(left) > 0 {
			t.Errorf("%v: Japanese %q: English left %v", args, got, left)
		}
	}
}

// TestFaultMessages: a blame and a fault that stop the game are said in
// Japanese (不正を証明, 中断) with the peer's name and seat wind, the
// protocol's reason in its own words; the status and the feed's fault line
// carry the message.
func TestFaultMessages(t *testing.T) {
	ja, _ := i18n.Load("ja")
	for _, c := range []struct {
		err  error
		want string
	}{
		{&protocol.BlameError{Blame: protocol.Blame{Peer: "peer-c", Hand: 1, Reason: "key for position 40 fails its commitment"}, Err: errors.New("x")}, "不正を証明（第1局）: c ("},
		{errors.New("the host went away"), "中断（第0局）: "},
	} {
		m := NewModel(nil)
		m.Observe(protocol.Observation{Hand: 1, Stage: "shuffle", Seat: 0, Seats: testSeats, Nicks: []string{"a", "b", "c", "d"}})
		m.Finish(nil, c.err)
		s := m.Snapshot()
		e := s.Feed[len(s.Feed)-1]
		if s.StatusMsg == nil || e.Kind != "fault" || e.Msg == nil {
			t.Fatalf("%v: status message %v, last event %+v", c.err, s.StatusMsg, e)
		}
		if got := ja.Say(*s.StatusMsg); !strings.HasPrefix(got, c.want) {
			t.Errorf("%v: Japanese %q, want it to start %q", c.err, got, c.want)
		}
		if got := i18n.English().Say(*e.Msg); got != s.Status || got != e.Text {
			t.Errorf("%v: English %q, status %q, feed %q", c.err, got, s.Status, e.Text)
		}
	}
}
