package viewer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/mentalmj/mentalmj/internal/headless"
)

// viewerPage is what the replay page shows, read from its DOM.
type viewerPage struct {
	Error string `json:"error"`
	K     string `json:"k"`
	A     string `json:"a"`
	View  string `json:"view"`
	Self  string `json:"self"`
	Hand  string `json:"hand"` // the bottom seat's tiles (#hand data-tiles)
	Open  []struct {
		Seat  int    `json:"seat"`
		Tiles string `json:"tiles"`
		N     int    `json:"n"` // tiles drawn (faces or backs)
	} `json:"open"`
	Rivers    []int    `json:"rivers"` // by relative seat: bottom, right, top, left
	Melds     []int    `json:"melds"`
	Kita      []int    `json:"kita"`
	EndHand   bool     `json:"endHand"`
	Standings bool     `json:"standings"`
	Audit     string   `json:"audit"`
	AuditCls  string   `json:"auditClass"`
	Verify    string   `json:"verify"`
	Deltas    []string `json:"deltas"`
	// Ind is the first win's indicators on the end-of-hand screen: the
	// dora and ura tiles, and the room between the last dora and "ura".
	Ind *struct {
		Dora, Ura int
		Gap       float64
	} `json:"ind"`
}

const readViewer = `(() => {
  const q = (s) => document.querySelector(s);
  const d = document.body.dataset;
  const rel = [0, 1, 2, 3].map((i) => q("#seat-" + i));
  return {
    error: d.error || "", k: d.k || "", a: d.a || "", view: d.view || "", self: d.self || "",
    hand: q("#hand").dataset.tiles,
    open: [...document.querySelectorAll(".openhand")].map((e) => ({ seat: Number(e.dataset.seat), tiles: e.dataset.tiles, n: e.querySelectorAll("svg").length })),
    rivers: rel.map((e) => { const r = e.querySelector(".river"); return r ? Number(r.dataset.count) : -1; }),
    // A seat's melds and kita wherever they are drawn: the bottom seat's
    // beside its hand, so that drawing them twice counts twice.
    melds: rel.map((e, i) => e.querySelectorAll(".melds .meld").length + (i ? 0 : q("#hand").querySelectorAll(".mymelds .meld").length)),
    kita: rel.map((e, i) => e.querySelectorAll(".melds .kita svg").length + (i ? 0 : q("#hand").querySelectorAll(".mymelds .kita svg").length)),
    endHand: !q("#overlay").hidden && !!q("#endhand, #standings"),
    standings: !q("#overlay").hidden && !!q("#standings"),
    audit: q("#audit") ? q("#audit").textContent : "",
    auditClass: q("#audit") ? q("#audit").className : "",
    verify: q("#verify").textContent,
    deltas: [...document.querySelectorAll(".deltas tr")].slice(1).map((r) => r.children[2].textContent),
    ind: [...document.querySelectorAll("#overlay .ind")].slice(0, 1).map((e) => {
      const ura = e.querySelector(".label.ura"), tiles = [...e.querySelectorAll("svg")];
      const before = ura ? tiles.filter((x) => x.compareDocumentPosition(ura) & Node.DOCUMENT_POSITION_FOLLOWING) : tiles;
      return { dora: before.length, ura: tiles.length - before.length,
        gap: ura && before.length ? ura.getBoundingClientRect().left - before[before.length - 1].getBoundingClientRect().right : 0 };
    })[0] || null,
  };
})()`

// replayPage serves rec and opens it in headless Chromium.
type replayPage struct {
	t    *testing.T
	rec  *Record
	srv  *Server
	b    context.Context
	name string // the format's name in screenshot files
}

func openReplay(t *testing.T, file, name string) *replayPage {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	b := headless.New(t, ctx)
	rec, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := Listen(rec, 0, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ctx)
	return &replayPage{t: t, rec: rec, srv: srv, b: b, name: name}
}

// at opens the page at kyoku k, step a, seen by view, and waits until it
// shows that moment (a is clamped by the page to the kyoku's last step).
func (r *replayPage) at(k, a, view int) viewerPage {
	r.t.Helper()
	u := r.srv.URL(k, a)
	if view >= 0 {
		u += "&v=" + strconv.Itoa(view)
	}
	if err := chromedp.Do(r.b, chromedp.Navigate(u)); err != nil {
		r.t.Fatal(err)
	}
	a = min(a, len(r.rec.Kyoku[k].Steps)-1)
	return r.wait(k, a, view)
}

// wait reads the page until it shows kyoku k, step a, view.
func (r *replayPage) wait(k, a, view int) viewerPage {
	r.t.Helper()
	var p viewerPage
	for range 200 {
		var err error
		if p, err = chromedp.Run(r.b, chromedp.Evaluate[viewerPage](readViewer)); err != nil {
			r.t.Fatal(err)
		}
		if p.Error != "" {
			r.t.Fatalf("the page reports an error: %s", p.Error)
		}
		if p.K == strconv.Itoa(k) && p.A == strconv.Itoa(a) && p.View == strconv.Itoa(view) {
			return p
		}
		time.Sleep(25 * time.Millisecond)
	}
	r.t.Fatalf("the page does not show k=%d a=%d view=%d: it shows k=%s a=%s view=%s", k, a, view, p.K, p.A, p.View)
	return p
}

func (r *replayPage) key(k string) {
	r.t.Helper()
	if err := chromedp.Do(r.b, chromedp.KeyEvent(k)); err != nil {
		r.t.Fatal(err)
	}
}

// shot saves a 1280×720 screenshot in the test's artifact directory (go
// test -artifacts keeps it) and in $MENTALMJ_SCREENSHOTS when set.
func (r *replayPage) shot(what string) {
	r.t.Helper()
	png, err := chromedp.Run(r.b, chromedp.CaptureScreenshot())
	if err != nil {
		r.t.Errorf("screenshot: %v", err)
		return
	}
	dirs := []string{r.t.ArtifactDir()}
	if d := os.Getenv("MENTALMJ_SCREENSHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			r.t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	for _, d := range dirs {
		p := filepath.Join(d, fmt.Sprintf("view-%s-%s.png", r.name, what))
		if err := os.WriteFile(p, png, 0o644); err != nil {
			r.t.Errorf("screenshot: %v", err)
		}
		r.t.Logf("screenshot: %s", p)
	}
}

func ints(s string) []int {
	if s == "" {
		return nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, _ := strconv.Atoi(f)
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// checkFormat steps the page of file to a known action of the log at
// truth (its first call in kyoku k), and checks against the log read tag
// by tag: every seat's concealed tiles (ids, or kinds when byKind: the
// format names tiles by kind only), rivers and melds; one step further by
// the keyboard; the end-of-hand screen's score changes and verification
// (audit); and seat 2's view, which shows only seat 2's tiles.
func checkFormat(t *testing.T, file, truth, name string, byKind bool, audit string) *replayPage {
	r := openReplay(t, file, name)
	raw := rawLog(t, truth)
	k := slices.IndexFunc(raw, func(rd rawRound) bool { return rd.firstCall() > 0 })
	if k < 0 {
		t.Fatalf("%s: no kyoku with a call", truth)
	}
	a := raw[k].firstCall()
	same := func(got, want []int) bool {
		if byKind {
			return slices.Equal(kinds(got), kinds(want))
		}
		return slices.Equal(got, want)
	}
	check := func(p viewerPage, a int) {
		t.Helper()
		hands, discards, melds, kita := raw[k].hands(t, a)
		self, _ := strconv.Atoi(p.Self)
		for s := range r.rec.Players {
			rel := (s - self + 4) % 4
			var got []int
			if s == self {
				got = ints(p.Hand)
			} else if i := slices.IndexFunc(p.Open, func(o struct {
				Seat  int    `json:"seat"`
				Tiles string `json:"tiles"`
				N     int    `json:"n"`
			}) bool {
				return o.Seat == s
			}); i >= 0 {
				got = ints(p.Open[i].Tiles)
			}
			if !same(got, hands[s]) {
				t.Errorf("%s k=%d a=%d: seat %d's hand on the page %v, the log's %v", name, k, a, s, got, hands[s])
			}
			if p.Rivers[rel] != discards[s] || p.Melds[rel] != melds[s] || p.Kita[rel] != kita[s] {
				t.Errorf("%s k=%d a=%d: seat %d's river %d tiles, %d melds and %d kita on the page, the log's %d, %d and %d", name, k, a, s, p.Rivers[rel], p.Melds[rel], p.Kita[rel], discards[s], melds[s], kita[s])
			}
		}
	}
	p := r.at(k, a, AllOpen)
	check(p, a)
	r.shot("call")
	r.key(kb.ArrowRight)
	check(r.wait(k, a+1, AllOpen), a+1)

	last := len(r.rec.Kyoku[k].Steps) - 1
	p = r.at(k, 1<<20, AllOpen)
	if !p.EndHand {
		t.Errorf("%s k=%d: no end-of-hand screen at the last step", name, k)
	}
	want := raw[k].deltas()
	var gotDeltas []int
	for _, d := range p.Deltas {
		n, _ := strconv.Atoi(strings.TrimPrefix(d, "+"))
		gotDeltas = append(gotDeltas, n)
	}
	if !slices.Equal(gotDeltas, want[:r.rec.Players]) {
		t.Errorf("%s k=%d: the end-of-hand screen's changes %v, the log's sc %v", name, k, gotDeltas, want[:r.rec.Players])
	}
	if !strings.Contains(p.Audit, audit) || !strings.Contains(p.Verify, audit) {
		t.Errorf("%s k=%d: verification %q / %q, want %q", name, k, p.Audit, p.Verify, audit)
	}
	// Verified is ✔ (ok); a record that cannot be verified is neither ✔
	// nor the ✘ of a failed audit.
	wantCls := "audit ok"
	if strings.HasPrefix(audit, "wall not verified") {
		wantCls = "audit none"
	}
	if p.AuditCls != wantCls || strings.Contains(p.Audit, "✘") {
		t.Errorf("%s k=%d: the end-of-hand screen's verification %q is marked %q, want %q", name, k, p.Audit, p.AuditCls, wantCls)
	}
	r.shot("end-of-hand")
	_ = last

	p = r.at(k, a, 2)
	hands, _, _, _ := raw[k].hands(t, a)
	if p.Self != "2" || !same(ints(p.Hand), hands[2]) {
		t.Errorf("%s seat 2's view: bottom seat %s with %v, want seat 2 with %v", name, p.Self, ints(p.Hand), hands[2])
	}
	for _, o := range p.Open {
		if o.Tiles != "" || o.N != len(hands[o.Seat]) {
			t.Errorf("%s seat 2's view shows seat %d's tiles %q (%d drawn), want %d backs", name, o.Seat, o.Tiles, o.N, len(hands[o.Seat]))
		}
	}
	r.shot("seat2")

	// The caller's own view: its melds once, beside its hand at the
	// bottom, not a second time under its river.
	who, _ := strconv.Atoi(raw[k].events[a-1].attrs["who"])
	p = r.at(k, a, who)
	_, _, melds, kita := raw[k].hands(t, a)
	if p.Self != strconv.Itoa(who) || p.Melds[0] != melds[who] || p.Kita[0] != kita[who] {
		t.Errorf("%s seat %d's view at its call: bottom seat %s with %d melds and %d kita drawn, the log's %d and %d", name, who, p.Self, p.Melds[0], p.Kita[0], melds[who], kita[who])
	}
	return r
}

func TestBrowserMjlog4p(t *testing.T) {
	t.Parallel()
	path := sharedLog(t, log4p)
	r := checkFormat(t, path, path, "mjlog4p", false, "wall verified from Tenhou's seed")
	// ↓ goes to the next kyoku's deal; the last step of the game shows
	// the final standings.
	r.at(0, 3, AllOpen)
	r.key(kb.ArrowDown)
	r.wait(1, 0, AllOpen)
	n := len(r.rec.Kyoku) - 1
	if p := r.at(n, 1<<20, AllOpen); !p.Standings {
		t.Errorf("the last step of the game shows no final standings")
	}
	r.shot("standings")
	r.checkIndicators(rawLog(t, path))
}

func TestBrowserMjlog3p(t *testing.T) {
	t.Parallel()
	path := sharedLog(t, log3p)
	r := checkFormat(t, path, path, "mjlog3p", false, "wall verified from Tenhou's seed")
	r.checkIndicators(rawLog(t, path))
}

// checkIndicators checks each kyoku's end-of-hand screen against the
// log's first AGARI: as many dora and ura indicators (doraHai,
// doraHaiUra), the ura set apart from the dora.
func (r *replayPage) checkIndicators(raw []rawRound) {
	t := r.t
	t.Helper()
	uras := 0
	for k, rd := range raw {
		i := slices.IndexFunc(rd.events, func(e rawEvent) bool { return e.name == "AGARI" })
		if i < 0 {
			continue
		}
		dora, ura := len(rawInts(rd.events[i].attrs["doraHai"])), len(rawInts(rd.events[i].attrs["doraHaiUra"]))
		p := r.at(k, 1<<20, AllOpen)
		switch {
		case p.Ind == nil:
			t.Errorf("k=%d: no dora indicators on the end-of-hand screen", k)
		case p.Ind.Dora != dora || p.Ind.Ura != ura:
			t.Errorf("k=%d: the end-of-hand screen shows %d dora and %d ura indicators, the log %d and %d", k, p.Ind.Dora, p.Ind.Ura, dora, ura)
		case ura > 0 && p.Ind.Gap < 8:
			t.Errorf("k=%d: \"ura\" %.0f px from the last dora indicator, run together", k, p.Ind.Gap)
		}
		uras += ura
	}
	if uras == 0 {
		t.Errorf("no kyoku of the log shows ura indicators: the check is idle")
	}
}

func TestBrowserTenhou6(t *testing.T) {
	t.Parallel()
	path := sharedLog(t, log4p)
	t6, _ := convert(t, path)
	checkFormat(t, t6, path, "tenhou6", true, "wall not verified: tenhou.net/6 JSON carries no wall seed")
}

func TestBrowserMjai(t *testing.T) {
	t.Parallel()
	path := sharedLog(t, log4p)
	_, mj := convert(t, path)
	checkFormat(t, mj, path, "mjai", true, "wall not verified: an mjai log carries no wall seed")
}

// The transcript of a one-hand game of `mentalmj local` (testdata), checked
// against the mjlog record the same game's nodes wrote.
func TestBrowserTranscript(t *testing.T) {
	t.Parallel()
	checkFormat(t, "testdata/hand.mjt", "testdata/hand.mjlog.xml", "mjt", false, "wall verified: 136 tiles decrypted")
}

// layoutCheck reports what of the replay page is out of place: the page
// wider than the window, the navigation or the verification below or
// right of it, a seat's parts (name plate, open hand, river, melds)
// spilling out of the seat's place on the table.
const layoutCheck = `(() => {
  const out = [], W = innerWidth, H = innerHeight;
  if (document.documentElement.scrollWidth > W + 1) out.push("the page is " + document.documentElement.scrollWidth + " px wide");
  for (const id of ["nav", "verify"]) {
    const r = document.getElementById(id).getBoundingClientRect();
    if (r.right > W + 1 || r.bottom > H + 1 || r.width === 0) out.push("#" + id + " at " + [r.left, r.top, r.right, r.bottom].map(Math.round) + ", outside the window");
  }
  for (const sec of document.querySelectorAll(".seat")) {
    const s = sec.getBoundingClientRect();
    for (const el of sec.querySelectorAll(":scope > *, .meld, .kita")) {
      const r = el.getBoundingClientRect();
      if (r.width && (r.left < s.left - 1 || r.right > s.right + 1)) out.push(sec.id + " ." + el.className + " spans " + Math.round(r.left) + ".." + Math.round(r.right) + ", its seat " + Math.round(s.left) + ".." + Math.round(s.right));
    }
  }
  return out;
})()`

// At 1280×720, 1024×768, in a narrow 800×900 window and on a 390×844
// phone, every kyoku's busiest moment (the step before its end) fits:
// nothing wider than the window or its seat's place, the navigation and
// the verification on screen. -short checks the widest and the phone.
func TestBrowserLayout(t *testing.T) {
	t.Parallel()
	r := openReplay(t, sharedLog(t, log4p), "mjlog4p")
	sizes := [][2]int64{{1280, 720}, {1024, 768}, {800, 900}, {390, 844}}
	if testing.Short() {
		sizes = [][2]int64{{1280, 720}, {390, 844}}
	}
	for _, size := range sizes {
		if err := chromedp.Do(r.b, chromedp.EmulateViewport(size[0], size[1])); err != nil {
			t.Fatal(err)
		}
		for k := range r.rec.Kyoku {
			a := len(r.rec.Kyoku[k].Steps) - 2
			r.at(k, a, AllOpen)
			bad, err := chromedp.Run(r.b, chromedp.Evaluate[[]string](layoutCheck))
			if err != nil {
				t.Fatal(err)
			}
			if len(bad) > 0 {
				t.Errorf("%d×%d, k=%d a=%d: %s", size[0], size[1], k, a, strings.Join(bad, "; "))
			}
		}
		r.shot(fmt.Sprintf("%dx%d", size[0], size[1]))
	}
}
