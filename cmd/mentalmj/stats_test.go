package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
)

const statsHand = "../../stats/testdata/hand"

// TestStatsCommand runs "mentalmj stats" on the hand-written records:
// the text table, --json with exactly the keys, --player, and the
// usage errors (exit 2).
func TestStatsCommand(t *testing.T) {
	t.Parallel()
	var o, e bytes.Buffer
	if code := run(context.Background(), []string{"stats", statsHand}, &o, &e); code != 0 {
		t.Fatalf("stats: exit %d: %s", code, e.String())
	}
	for _, want := range []string{"Four-player: 2 games, 5 kyoku", "Three-player (sanma): 1 game, 2 kyoku", "(all players)", "tenpai@draw"} {
		if !strings.Contains(o.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, o.String())
		}
	}
	if !strings.Contains(e.String(), "1 left out as copies") {
		t.Errorf("stderr does not report the duplicate: %q", e.String())
	}
	if strings.Contains(e.String(), "--since") {
		t.Errorf("stderr names --since, which was not given: %q", e.String())
	}
	o.Reset()
	e.Reset()
	if code := run(context.Background(), []string{"stats", "--since", "2999-01-01", statsHand}, &o, &e); code != 0 || !strings.Contains(e.String(), "dated before --since 2999-01-01") {
		t.Errorf("stats --since 2999-01-01: exit %d, stderr %q; want 0 and the games left out named", code, e.String())
	}

	o.Reset()
	e.Reset()
	if code := run(context.Background(), []string{"stats", statsHand, "--json", "--player", "B"}, &o, &e); code != 0 {
		t.Fatalf("stats --json: exit %d: %s", code, e.String())
	}
	var doc map[string]*struct {
		Players []map[string]json.RawMessage `json:"players"`
		All     map[string]json.RawMessage   `json:"all"`
	}
	if err := json.Unmarshal(o.Bytes(), &doc); err != nil {
		t.Fatalf("--json: %v\n%s", err, o.String())
	}
	keys := []string{"name", "games", "kyoku", "placements", "avg_placement", "bust_rate", "win_rate", "tsumo_share",
		"deal_in_rate", "riichi_rate", "call_rate", "avg_win_points", "avg_deal_in_points", "draw_tenpai_rate"}
	slices.Sort(keys)
	four := doc["four_player"]
	if four == nil || len(four.Players) != 1 || doc["three_player"] != nil {
		t.Fatalf("--player B: %s", o.String())
	}
	for _, p := range append(four.Players, four.All) {
		var got []string
		for k := range p {
			got = append(got, k)
		}
		slices.Sort(got)
		if !slices.Equal(got, keys) {
			t.Errorf("player keys %v, want exactly %v", got, keys)
		}
	}
	var place []int
	json.Unmarshal(four.Players[0]["placements"], &place)
	if string(four.Players[0]["name"]) != `"B"` || !slices.Equal(place, []int{1, 0, 0, 0}) {
		t.Errorf("--player B: %s", o.String())
	}

	for _, args := range [][]string{
		{},
		{statsHand, "--since", "2020/01/01"},
		{statsHand, "--player", "nobody"},
		{statsHand, "--json", "--ui"},
		{"no-such-dir-xyz"},
		{statsHand, "--bogus"},
	} {
		o.Reset()
		e.Reset()
		if code := run(context.Background(), append([]string{"stats"}, args...), &o, &e); code != 2 || e.Len() == 0 {
			t.Errorf("stats %q: exit %d, stderr %q; want 2 with a message", args, code, e.String())
		}
	}
}

// TestStatsBadFiles: a truncated record, another format and an XML that is
// not an mjlog exit 2 naming the file and what it looks like; --skip-bad
// leaves them out.
func TestStatsBadFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good, err := os.ReadFile(filepath.Join(statsHand, "a.xml"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"good.xml":   good,
		"cut.xml":    good[:len(good)/2],
		"other.xml":  []byte(`<?xml version="1.0"?><feed/>`),
		"game.mjlog": []byte(`{"name":["a"],"log":[]}`),
		"empty.xml":  []byte(`<mjloggm></mjloggm>`),
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var o, e bytes.Buffer
	if code := run(context.Background(), []string{"stats", dir}, &o, &e); code != 2 {
		t.Errorf("stats with bad files: exit %d, want 2", code)
	}
	for _, want := range []string{"cut.xml: cut short", "other.xml: not a game record stats reads: XML whose root element is <feed>", "game.mjlog: tenhou.net/6 JSON that cannot be read: its \"log\" array is empty", "empty.xml: an empty record: an mjlog without a kyoku", "--skip-bad"} {
		if !strings.Contains(e.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, e.String())
		}
	}
	if o.Len() != 0 {
		t.Errorf("figures written despite bad files:\n%s", o.String())
	}
	o.Reset()
	e.Reset()
	if code := run(context.Background(), []string{"stats", "--skip-bad", dir}, &o, &e); code != 0 || !strings.Contains(o.String(), "Four-player: 1 game, 4 kyoku") {
		t.Errorf("--skip-bad: exit %d\n%s\n%s", code, o.String(), e.String())
	}
}

// TestStatsUI serves --ui --no-open on 127.0.0.1, fetches the page with
// the printed URL (charts present) and without its token (403), then
// stops it by cancelling the context.
func TestStatsUI(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		var e bytes.Buffer
		done <- run(ctx, []string{"stats", "--ui", "--no-open", statsHand}, pw, &e)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	url := strings.TrimSpace(strings.TrimPrefix(line, "statistics page: "))
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("first line %q", line)
	}
	get := func(u string) (int, string) {
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := get(url)
	if code != 200 || !strings.Contains(body, `data-chart="placements"`) || !strings.Contains(body, `data-chart="rates"`) || !strings.Contains(body, "(all players)") {
		t.Errorf("page: %d\n%.500s", code, body)
	}
	if code, _ := get(url[:strings.Index(url, "?")]); code != http.StatusForbidden {
		t.Errorf("page without the token: %d, want 403", code)
	}
	cancel()
	select {
	case c := <-done:
		if c != 0 {
			t.Errorf("stats --ui ended with %d", c)
		}
	case <-time.After(5 * time.Second):
		t.Error("stats --ui did not stop")
	}
}

// TestStatsReadsJoinJSON: a directory holding only tenhou.net/6 JSON, as
// join leaves DATA-DIR/games (here two real Tenhou games, four- and
// three-player, converted by "mentalmj tenhou json"), gives the same
// --json figures as the original mjlogs; a JSON file that is not
// tenhou.net/6 beside them exits 2 naming it and what it is.
func TestStatsReadsJoinJSON(t *testing.T) {
	t.Parallel()
	games := t.TempDir()
	logs := []string{corpusLog(t, e1Log), corpusLog(t, "2014091101gm-00b9-0000-5ca6b487.xml")}
	for _, l := range logs {
		out := filepath.Join(games, strings.TrimSuffix(tenhoucorpus.Name(l), ".xml")+".json")
		var o, e bytes.Buffer
		if code := run(context.Background(), []string{"tenhou", "json", l, "--out", out}, &o, &e); code != 0 {
			t.Fatalf("tenhou json %s: exit %d: %s", l, code, e.String())
		}
	}
	stats := func(args ...string) (int, string, string) {
		var o, e bytes.Buffer
		code := run(context.Background(), append([]string{"stats", "--json"}, args...), &o, &e)
		return code, o.String(), e.String()
	}
	code, fromJSON, stderr := stats(games)
	if code != 0 {
		t.Fatalf("stats %s: exit %d: %s", games, code, stderr)
	}
	code, fromLogs, stderr := stats(logs...)
	if code != 0 {
		t.Fatalf("stats on the mjlogs: exit %d: %s", code, stderr)
	}
	if fromJSON != fromLogs {
		t.Errorf("figures from the JSON differ from the mjlogs':\n%s\nwant\n%s", fromJSON, fromLogs)
	}
	var doc map[string]*struct{ Games, Unfinished int }
	if err := json.Unmarshal([]byte(fromJSON), &doc); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"four_player", "three_player"} {
		if d := doc[kind]; d == nil || d.Games != 1 || d.Unfinished != 0 {
			t.Errorf("%s: %+v, want one finished game", kind, d)
		}
	}

	other := filepath.Join(games, "settings.json")
	if err := os.WriteFile(other, []byte(`{"nick": "alice"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := stats(games)
	if code != 2 || out != "" || !strings.Contains(stderr, other+": not a game record stats reads: JSON, but not tenhou.net/6 JSON") {
		t.Errorf("with %s: exit %d, stdout %q, stderr %q; want 2 naming it", other, code, out, stderr)
	}
}
