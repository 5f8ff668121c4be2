package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/mentalmj/mentalmj/node/spectate"
	"github.com/mentalmj/mentalmj/ui/screen"
)

// TestWatchHostedTable runs "mentalmj host --spectators 2", a
// "mentalmj watch" of the link it prints, and three guests on 127.0.0.1:
// the spectator prints a verified line for each of the two hands and the
// audit's verdict, exits 0, and the entries it saved audit again with
// "mentalmj audit" to the same walls as a player's transcript. A second
// spectator with --table prints each hand's table at its deal with every
// concealed hand as backs (#) and, after the reveal, face up, with two
// verified audits.
func TestWatchHostedTable(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test starts five processes")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	common := func(name string) []string {
		return []string{"--bot", "--name", name, "--hands", "2", "--listen", "/ip4/127.0.0.1/tcp/0",
			"--data-dir", filepath.Join(dir, name), "--transcript", filepath.Join(dir, name+".mjt"),
			"--timeout", "20s", "--connect-timeout", "60s"}
	}
	h := startHost(t, ctx, bin, append([]string{"host", "--table", "friday", "--spectators", "2"}, common("alice")...)...)
	var err error
	var line string
	for !strings.HasPrefix(line, "mentalmj watch") {
		if line, err = h.lines.ReadString('\n'); err != nil {
			t.Fatalf("host printed no watch link: %v\n%s", err, h.hostErr.String())
		}
	}
	m := regexp.MustCompile(`^mentalmj watch (mmjw1[a-z2-7]+)\n$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("the host's second line %q is not 'mentalmj watch mmjw1…'", line)
	}
	link, err := spectate.ParseLink(m[1])
	if err != nil || link.Table != "friday" {
		t.Fatalf("watch link: %+v %v", link, err)
	}
	go func() { _, _ = io.Copy(io.Discard, h.lines) }()
	var wout, werr bytes.Buffer
	watch := exec.CommandContext(ctx, bin, "watch", m[1], "--no-public", "--listen", "/ip4/127.0.0.1/tcp/0", "--data-dir", filepath.Join(dir, "spectator"), "--idle", "60s", "--events", "-v")
	watch.Stdout, watch.Stderr = &wout, &werr
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	// A second spectator draws the text table (--table).
	var tout, terr bytes.Buffer
	table := exec.CommandContext(ctx, bin, "watch", m[1], "--no-public", "--listen", "/ip4/127.0.0.1/tcp/0", "--data-dir", filepath.Join(dir, "spectator2"), "--idle", "60s", "--table", "--lang", "en", "-v")
	table.Stdout, table.Stderr = &tout, &terr
	if err := table.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second) // the spectators dial the host
	h.join(t, ctx, bin, []string{"bob", "carol", "dave"}, common, 300*time.Millisecond)
	h.wg.Wait()
	if err := h.host.Wait(); err != nil {
		t.Fatalf("host: %v\n%s", err, h.hostErr.String())
	}
	for i, err := range h.errs {
		if err != nil {
			t.Fatalf("guest %d: %v\n%s", i, err, h.outs[i].String())
		}
	}
	if err := watch.Wait(); err != nil {
		t.Fatalf("watch: %v\n%s\n%s", err, wout.String(), werr.String())
	}
	if err := table.Wait(); err != nil {
		t.Fatalf("watch --table: %v\n%s\n%s", err, tout.String(), terr.String())
	}
	text := tout.String()
	backs := regexp.MustCompile(`(?m)^ +concealed: (# ){12,13}#$`).FindAllString(text, -1)
	faces := regexp.MustCompile(`(?m)^ +concealed: [0-9a-zA-Z][^#\n]*$`).FindAllString(text, -1)
	if len(backs) != 8 || len(faces) < 8 || strings.Count(text, "audit: wall verified") != 2 || regexp.MustCompile(`(?m)^hand \d+ \(\w+ \d, \d+ honba\): `).MatchString(text) {
		t.Errorf("watch --table: %d seats drawn as backs at the deals (want 8), %d face up, %d verified audits (want 2):\n%s\n%s", len(backs), len(faces), strings.Count(text, "audit: wall verified"), text, terr.String())
	}
	out := wout.String()
	for _, want := range []string{"alice sits at table", " dahai ", "hand 1 (East ", "hand 2 (East ", "audit: wall verified", "verified"} {
		if !strings.Contains(out, want) {
			t.Errorf("watch output lacks %q:\n%s\n%s", want, out, werr.String())
		}
	}
	saved := regexp.MustCompile(`watched entries: (\S+\.mjt)`).FindStringSubmatch(out)
	if saved == nil {
		t.Fatalf("watch names no saved file:\n%s", out)
	}
	audit := exec.CommandContext(ctx, bin, "audit", "--json", saved[1])
	a, err := audit.Output()
	if err != nil {
		t.Fatalf("audit of the watched entries: %v\n%s", err, a)
	}
	player := exec.CommandContext(ctx, bin, "audit", "--json", filepath.Join(dir, "bob.mjt"))
	b, err := player.Output()
	if err != nil {
		t.Fatalf("audit of bob's transcript: %v\n%s", err, b)
	}
	yama := regexp.MustCompile(`"yama": \[[^\]]*\]`)
	if ws, bs := yama.FindAllString(string(a), -1), yama.FindAllString(string(b), -1); len(ws) != 2 || strings.Join(ws, "") != strings.Join(bs, "") {
		t.Errorf("the spectator's walls (%d) differ from bob's audit's (%d)", len(ws), len(bs))
	}
}

// TestWatchViewFlags: --table and --ui contradict each other, --no-open
// and --port need --ui, and --lang takes only a language there is: usage
// errors (exit 2) naming the flags, before any network.
func TestWatchViewFlags(t *testing.T) {
	t.Parallel()
	link := spectate.Link{Table: "t", Host: "12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN"}.String()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--table", "--ui"}, "--table and --ui"},
		{[]string{"--no-open"}, "--no-open and --port go with --ui"},
		{[]string{"--port", "8080"}, "--no-open and --port go with --ui"},
		{[]string{"--lang", "xx"}, "--lang"},
	} {
		code, _, stderr := runMain(t, append([]string{"watch", link}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("watch %v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// TestWatchLate starts "mentalmj watch --ui --no-open" only once the
// host has printed its second hand's line: the spectator catches up from
// the host through the node's spectator slot (SPEC.md §25), its page's
// WebSocket sends spectator's snapshots (no decision, a seat's concealed
// hand all backs during play), and it says it joined late, audits every
// hand clean, those before it came included, and exits 0.
func TestWatchLate(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end test starts five processes")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	common := func(name string) []string {
		return []string{"--bot", "--name", name, "--hands", "8", "--listen", "/ip4/127.0.0.1/tcp/0",
			"--data-dir", filepath.Join(dir, name), "--transcript", filepath.Join(dir, name+".mjt"),
			"--timeout", "20s", "--connect-timeout", "60s"}
	}
	// tobi=off: the game plays its 8 hands (a CI run's game ended after
	// hand 6 on a bust, and the test wants 8).
	h := startHost(t, ctx, bin, append([]string{"host", "--table", "late", "--spectators", "1", "--rule", "tobi=off"}, common("alice")...)...)
	var link string
	for link == "" {
		line, err := h.lines.ReadString('\n')
		if err != nil {
			t.Fatalf("host printed no watch link: %v\n%s", err, h.hostErr.String())
		}
		if m := regexp.MustCompile(`^mentalmj watch (mmjw1[a-z2-7]+)\n$`).FindStringSubmatch(line); m != nil {
			link = m[1]
		}
	}
	h.join(t, ctx, bin, []string{"bob", "carol", "dave"}, common, 300*time.Millisecond)
	for {
		line, err := h.lines.ReadString('\n')
		if err != nil {
			t.Fatalf("the host printed no hand: %v\n%s", err, h.hostErr.String())
		}
		// After hand 2: the host's first message waits up to 2 s for a
		// spectator, so during hand 1 the whole game may still be queued
		// there, and a spectator then takes it all from the topic.
		if strings.HasPrefix(line, "hand 2 (") {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, h.lines) }()
	var wout strings.Builder
	var werr bytes.Buffer
	watch := exec.CommandContext(ctx, bin, "watch", link, "--no-public", "--listen", "/ip4/127.0.0.1/tcp/0", "--data-dir", filepath.Join(dir, "spectator"), "--idle", "60s",
		"--ui", "--no-open", "--ui-linger", "0s")
	pipe, err := watch.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	watch.Stderr = &werr
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	// The page's address, then the rest of the output.
	lines := bufio.NewReader(pipe)
	var page string
	for page == "" {
		line, err := lines.ReadString('\n')
		if err != nil {
			t.Fatalf("watch --ui printed no page: %v\n%s", err, werr.String())
		}
		wout.WriteString(line)
		if m := regexp.MustCompile(`^spectator's table: (http://127\.0\.0\.1:\d+/\?token=[0-9a-f]+) `).FindStringSubmatch(line); m != nil {
			page = m[1]
		}
	}
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(&wout, lines); close(copied) }()
	// The page's WebSocket sends a spectator's snapshot: no seat is the
	// viewer's, and during play every concealed tile is a back.
	u, _ := url.Parse(page)
	ws := "ws://" + u.Host + "/ws?" + u.RawQuery
	c, _, err := websocket.Dial(ctx, ws, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://" + u.Host}}})
	if err != nil {
		t.Fatalf("the spectator's page: %v", err)
	}
	sawPlay := false
	var seen []string
	for !sawPlay {
		_, b, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("the spectator's page: %v (states seen %v)\n%s", err, seen, werr.String())
		}
		var snap screen.Snapshot
		if err := json.Unmarshal(b, &snap); err != nil {
			t.Fatal(err)
		}
		seen = append(seen, fmt.Sprintf("%s/%d/%d/%v", snap.State, snap.Hand, snap.Players, snap.Seats[0].Hand))
		if !snap.Spectator || snap.Decision != nil {
			t.Fatalf("the page's snapshot: spectator %v, decision %v", snap.Spectator, snap.Decision)
		}
		if snap.State == screen.StatePlaying && snap.Players == 4 && snap.Seats[0].Concealed > 0 && len(snap.Seats[0].Hand) == snap.Seats[0].Concealed && !slices.ContainsFunc(snap.Seats[0].Hand, func(x int) bool { return x >= 0 }) {
			sawPlay = true
		}
	}
	c.CloseNow()
	h.wg.Wait()
	if err := h.host.Wait(); err != nil {
		t.Fatalf("host: %v\n%s", err, h.hostErr.String())
	}
	<-copied
	if err := watch.Wait(); err != nil {
		t.Fatalf("watch: %v\n%s\n%s", err, wout.String(), werr.String())
	}
	out := wout.String()
	hands := regexp.MustCompile(`(?m)^hand (\d+) \(\w+ \d, \d+ honba\): .*; audit: wall verified$`).FindAllStringSubmatch(out, -1)
	// The catch-up brings the whole game so far: every hand is audited,
	// those before the spectator came included.
	if !strings.Contains(out, "joined the game late: took ") || !strings.Contains(out, "audited hands 1–8") || len(hands) != 8 || hands[0][1] != "1" || !strings.Contains(out, "verified: every hand") {
		t.Fatalf("a late watch: %d verified hands (%v):\n%s\n%s", len(hands), hands, out, werr.String())
	}
	t.Logf("the late watch printed:\n%s", out)
}

// lateLine names the hands a late spectator could not audit when the
// host's catch-up left them out, and says every hand was audited when it
// caught up on the whole game; a spectator there from the start gets no
// line.
func TestLateLine(t *testing.T) {
	for _, c := range []struct {
		joined   bool
		caughtUp int
		audited  []int
		want     string
	}{
		{false, 0, []int{1, 2, 3}, ""},
		{false, 412, []int{1, 2, 3}, "joined the game late: took 412 entries from the host's catch-up, the hands before included; audited hands 1–3"},
		{true, 230, []int{3, 4, 5}, "joined the game late: the host's catch-up left out hands 1–2, which are not audited; audited hands 3–5"},
		{true, 230, nil, "joined the game late: the host's catch-up left entries out; audited no hand"},
		{false, 10, []int{4}, "joined the game late: took 10 entries from the host's catch-up, the hands before included; audited hand 4"},
	} {
		if got := lateLine(c.joined, c.caughtUp, c.audited); got != c.want {
			t.Errorf("lateLine(%v, %d, %v) = %q, want %q", c.joined, c.caughtUp, c.audited, got, c.want)
		}
	}
}
