package screen

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/ui/i18n"
)

// declaredKinds reads the blame and fault kinds protocol/verdict.go
// declares (`BlameX BlameKind = "…"`, `FaultX FaultKind = "…"`), so that a
// kind added there without a message fails here.
func declaredKinds(t *testing.T, typ string) []string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "protocol", "verdict.go"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^\s*\w+ ` + typ + ` = "([^"]+)"`)
	var out []string
	for _, m := range re.FindAllStringSubmatch(string(src), -1) {
		out = append(out, m[1])
	}
	if len(out) < 5 {
		t.Fatalf("found only %v of type %s in protocol/verdict.go: the scan is broken", out, typ)
	}
	return out
}

// latin finds a word of English (three Latin letters or more).
var latin = regexp.MustCompile(`[A-Za-z]{3,}`)

// TestEveryVerdictKindInJapanese: every blame and fault kind the protocol
// declares is said in Japanese by the ja catalogue itself (no fallback,
// no raw key), differently from English; the English line keeps the
// protocol's reason after the kind, the Japanese line keeps it only as a
// parenthetical after the Japanese kind.
func TestEveryVerdictKindInJapanese(t *testing.T) {
	ja := must(i18n.Load("ja"))
	en := i18n.English()
	const reason = "shuffle pass 1 (seq 5) fails its proof"
	for _, k := range declaredKinds(t, "BlameKind") {
		if !ja.Has("blame.kind." + k) {
			t.Errorf("blame kind %q: no message in catalog/ja.json", k)
		}
		m := BlameReasonMsg(protocol.Blame{Kind: protocol.BlameKind(k), Reason: reason})
		got, eng := ja.Say(m), en.Say(m)
		kind := strings.TrimSuffix(got, "（"+reason+"）")
		if kind == got || kind == "" || latin.MatchString(kind) || strings.Contains(got, "‹") {
			t.Errorf("blame kind %q in Japanese: %q, want a Japanese kind and the reason in （）", k, got)
		}
		if !strings.HasSuffix(eng, ": "+reason) || strings.Contains(eng, "‹") || eng == got {
			t.Errorf("blame kind %q in English: %q", k, eng)
		}
	}
	for _, k := range declaredKinds(t, "FaultKind") {
		if !ja.Has("fault.kind." + k) {
			t.Errorf("fault kind %q: no message in catalog/ja.json", k)
		}
		kind := ja.Say(i18n.M("fault.kind." + k))
		if latin.MatchString(kind) || kind == en.Say(i18n.M("fault.kind."+k)) {
			t.Errorf("fault kind %q in Japanese: %q", k, kind)
		}
		got := ja.Say(FaultReasonMsg(protocol.Fault{Kind: protocol.FaultKind(k), Reason: "record 7: bad signature"}))
		if !strings.HasPrefix(got, kind) || strings.Contains(got, "‹") {
			t.Errorf("fault kind %q in Japanese: %q, want it to start with %q", k, got, kind)
		}
	}
	// Every entry kind a silence may wait for has Japanese words.
	for _, k := range []string{"hello", "nonce commitment", "nonce reveal", "shuffle pass", "rekey pass", "key release", "key reveal", "turn", "answer", "call", "declare"} {
		if s, ok := EntryMsg(k).(i18n.Msg); !ok || !ja.Has(s.Key) || latin.MatchString(ja.Say(s)) {
			t.Errorf("entry kind %q: %v", k, EntryMsg(k))
		}
	}
}

// TestFaultsAPlayerCanActOn: a silence and a lost connection this node saw
// are said in Japanese from their fields alone (whose entry, how long),
// with Tenhou's 回線切断, and no English at all; the stop line names the
// player with the seat wind.
func TestFaultsAPlayerCanActOn(t *testing.T) {
	ja := must(i18n.Load("ja"))
	for _, c := range []struct {
		f    protocol.Fault
		want string
	}{
		{protocol.Fault{Kind: protocol.FaultSilence, Want: "turn", Wait: 61400 * time.Millisecond, Reason: "silent for 1m1.4s while we waited for its turn"}, "応答なし: 打牌を61秒待ちました"},
		{protocol.Fault{Kind: protocol.FaultSilence, Wait: 30 * time.Second, Reason: "silent: we waited 30s for bob's answer, and …"}, "応答なし: 30秒待ちました"},
		{protocol.Fault{Kind: protocol.FaultConnection, Want: "shuffle pass", Reason: "connection lost while we waited for its shuffle pass"}, "回線切断（洗牌（シャッフル）を待っている間）"},
		{protocol.Fault{Kind: protocol.FaultConnection, Wait: 20 * time.Second, Reason: "connection lost, and it did not come back within 20s while …"}, "回線切断: 20秒以内に再接続しませんでした"},
		{protocol.Fault{Kind: protocol.FaultConnection, Reason: "connection lost while we sent our turn"}, "回線切断"},
		{protocol.Fault{Kind: protocol.FaultQuit, Reason: "this node was stopped (interrupted)"}, "途中退出"},
	} {
		if got := ja.Say(FaultReasonMsg(c.f)); got != c.want {
			t.Errorf("%s: Japanese %q, want %q", c.f.Reason, got, c.want)
		}
		c.f.Peer, c.f.Hand = "peer-b", 2
		m := NewModel(nil)
		m.Observe(protocol.Observation{Hand: 2, Stage: "shuffle", Seat: 0, Seats: testSeats, Nicks: []string{"a", "b", "c", "d"}})
		m.Finish(nil, &protocol.FaultError{Fault: c.f, Err: errors.New("stream reset")})
		s := m.Snapshot()
		line := ja.Say(*s.StatusMsg)
		id := testSeats[1].String()
		if want := "中断（第2局）: b (南) " + id + ": " + c.want; line != want {
			t.Errorf("stop line %q, want %q", line, want)
		}
		if left := latin.FindAllString(strings.ReplaceAll(line, id, ""), -1); len(left) > 0 {
			t.Errorf("English left in %q: %v", line, left)
		}
		if en := i18n.English().Say(*s.StatusMsg); en != s.Status || !strings.HasPrefix(en, "stopped, hand 2: b (South) "+id+": ") {
			t.Errorf("English stop line %q, status %q", en, s.Status)
		}
	}
}

// TestBlameInJapanese: a blame that stops the game, and one in a hand's
// audit line, are said with the Japanese kind, the evidence's entry kind
// in Japanese, and the protocol's reason only in （）.
func TestBlameInJapanese(t *testing.T) {
	ja := must(i18n.Load("ja"))
	b := protocol.Blame{Peer: "peer-c", Hand: 3, Kind: protocol.BlameShuffle, Reason: "shuffle pass 2 (seq 5) fails its proof",
		Evidence: []protocol.Evidence{{Sender: "peer-c", Hand: 3, Seq: 5, Kind: "shuffle pass", Hash: [32]byte{0xab, 0xcd, 0xef, 1, 2, 3}}}}
	m := NewModel(nil)
	m.Observe(protocol.Observation{Hand: 3, Stage: "shuffle", Seat: 0, Seats: testSeats, Nicks: []string{"a", "b", "c", "d"}})
	m.HandDone(protocol.HandResult{Number: 3, Seats: testSeats, Blame: []protocol.Blame{b}})
	m.Finish(nil, &protocol.BlameError{Blame: b})
	s := m.Snapshot()
	id := testSeats[2].String()
	want := "不正を証明（第3局）: c (西) " + id + ": 洗牌（シャッフル）の不正（shuffle pass 2 (seq 5) fails its proof）（証拠: 洗牌（シャッフル） #5（abcdef010203…））"
	if got := ja.Say(*s.StatusMsg); got != want {
		t.Errorf("stop line\n%q, want\n%q", got, want)
	}
	audit := ja.Say(*s.Hands[0].AuditMsg)
	if want := "監査失敗・不正を証明：第3局: c (西): 洗牌（シャッフル）の不正（shuffle pass 2 (seq 5) fails its proof）"; audit != want {
		t.Errorf("audit line\n%q, want\n%q", audit, want)
	}
	en := i18n.English().Say(*s.StatusMsg)
	if want := "cheating proven, hand 3: c (West) " + id + ": tampered shuffle: shuffle pass 2 (seq 5) fails its proof (evidence: shuffle pass seq 5 (entry abcdef010203…))"; en != want {
		t.Errorf("English stop line\n%q, want\n%q", en, want)
	}
}

// must returns v, panicking on err (a catalogue that does not load is a
// build defect).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
