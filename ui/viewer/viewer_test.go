package viewer

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/record/mjai"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/record/tenhou6"
)

// Shared logs the tests step through: a four-player hanchan and a
// three-player one, both with SHUFFLE seeds.
const (
	log4p = "2019082700gm-00a9-0000-63d1f136.xml"
	log3p = "2020010100gm-00b9-0000-18a1410f.xml"
)

func TestDetect(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`<mjloggm ver="2.3"><GO type="169"/></mjloggm>`))
	zw.Close()
	mjt, err := os.ReadFile("testdata/hand.mjt")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		head string
		want Format
		err  string // in the error, when want is ""
	}{
		{"mjlog", `<mjloggm ver="2.3"><SHUFFLE seed="mt19937ar-sha512-n288-base64,x"/>`, Mjlog, ""},
		{"mjlog with a declaration", "\ufeff<?xml version=\"1.0\"?>\n<mjloggm ver=\"2.3\">", Mjlog, ""},
		{"gzip mjlog", gz.String(), Mjlog, ""},
		{"tenhou.net/6", `{"ver":2.3,"ref":"","log":[[[0,0,0]]],"name":["a","b","c","d"]}`, Tenhou6, ""},
		{"tenhou.net/6 with log last", `{"title":["",""],"name":["a"],"rule":{"disp":"般南喰赤"},"log":[]}`, Tenhou6, ""},
		{"mjai", `{"type":"start_game","names":["a","b","c","d"]}` + "\n" + `{"type":"start_kyoku"}`, Mjai, ""},
		{"transcript", string(mjt[:headSize]), Transcript, ""},
		{"html", `<!DOCTYPE html><html><body>hi</body></html>`, "", "XML whose root element is <html>, not an mjlog"},
		{"svg", `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>`, "", "root element is <svg>"},
		{"json object", `{"players":["a"],"hands":[]}`, "", `JSON without a "log" array (keys: players, hands)`},
		{"json array", `[1,2,3]`, "", "a JSON array, not tenhou.net/6 JSON"},
		{"text", "East 1: alice wins\n", "", `text ("East 1: alice wins")`},
		{"empty", "", "", "an empty file"},
		{"binary", "\x00\x01\x02\xff\xfe", "", "binary data"},
		{"gzip of text", gzipped("hello"), "", "gzip data holding text"},
	}
	for _, c := range cases {
		got, err := Detect([]byte(c.head))
		switch {
		case c.want != "" && (err != nil || got != c.want):
			t.Errorf("%s: Detect = %q, %v; want %q", c.name, got, err, c.want)
		case c.want == "" && (err == nil || !errors.Is(err, ErrUnknownFormat) || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: Detect = %q, %v; want an ErrUnknownFormat saying %q", c.name, got, err, c.err)
		}
	}
}

func gzipped(s string) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.String()
}

// convert writes the shared log at path as tenhou.net/6 JSON (package
// record/tenhou6's writer) and as an mjai log (package record/mjai's), returning the
// two files.
func convert(t *testing.T, path string) (t6, mj string) {
	t.Helper()
	g, err := mjlog.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	l, err := tenhou6.Convert(g)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := l.Encode(&b); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t6 = filepath.Join(dir, "game.json")
	if err := os.WriteFile(t6, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := mjai.WriteMjlog(&b, g, -1); err != nil {
		t.Fatal(err)
	}
	mj = filepath.Join(dir, "game.mjai")
	if err := os.WriteFile(mj, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return t6, mj
}

// Every kyoku of a four- and a three-player log, read as mjlog, as
// tenhou.net/6 JSON and as mjai, ends with the score changes the log's
// sc attributes give, and the mjlog's walls verify from Tenhou's seed.
func TestFormatsAgreeWithTheLog(t *testing.T) {
	for _, name := range []string{log4p, log3p} {
		path := sharedLog(t, name)
		raw := rawLog(t, path)
		t6, mj := convert(t, path)
		for _, file := range []string{path, t6, mj} {
			rec, err := Load(file)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if len(rec.Kyoku) != len(raw) {
				t.Fatalf("%s (%s): %d kyoku, the log has %d", name, rec.Format, len(rec.Kyoku), len(raw))
			}
			for i, k := range rec.Kyoku {
				if k.Stopped != "" || k.Hand.Result == nil {
					t.Errorf("%s (%s) kyoku %d: not replayed to its end: %s", name, rec.Format, i, k.Stopped)
					continue
				}
				if got, want := k.Hand.Result.Deltas, raw[i].deltas(); got != want {
					t.Errorf("%s (%s) kyoku %d: deltas %v, the log's sc %v", name, rec.Format, i, got, want)
				}
				if rec.Format == Mjlog && (!k.Verified || k.Verification != "wall verified from Tenhou's seed") {
					t.Errorf("%s kyoku %d: verification %q", name, i, k.Verification)
				}
			}
			if rec.Standings == nil {
				t.Errorf("%s (%s): no final standings", name, rec.Format)
			}
			// A converted record says whose yaku and hand values the
			// end-of-hand screens show, in a whole sentence.
			want := "the end-of-hand screens show the rules engine's own scoring of each hand"
			if rec.Format != Mjlog && !slices.ContainsFunc(rec.Notes, func(n string) bool { return strings.HasSuffix(n, want) }) {
				t.Errorf("%s (%s): notes %q, want one ending %q", name, rec.Format, rec.Notes, want)
			}
		}
	}
}

// A tampered SHUFFLE seed makes every kyoku a mismatch, named per kyoku.
func TestTamperedSeedIsAMismatch(t *testing.T) {
	b, err := tenhoucorpus.ReadFile(sharedLog(t, log4p))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte(`seed="mt19937ar-sha512-n288-base64,`)) + len(`seed="mt19937ar-sha512-n288-base64,`)
	b[i] ^= 'A' ^ 'B' // another base64 digit
	rec, err := Read(b, "tampered.xml")
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range rec.Kyoku {
		if k.Verified || !strings.HasPrefix(k.Verification, "wall MISMATCH with Tenhou's seed") {
			t.Errorf("kyoku %d: %q, want a mismatch", i, k.Verification)
		}
	}
}

// A private-hands record (one player's view) never shows another seat's
// concealed tiles: in every frame but each kyoku's last (where a winning
// or tenpai hand is shown to all), the other seats' hands are all hidden,
// and the record's own seat is always the one seen.
func TestPrivateRecordShowsOnlyItsOwner(t *testing.T) {
	const file = "testdata/private-view.mjlog.xml" // player-1's record: seat 2
	rec, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	raw := rawLog(t, file)
	owner := -1
	for s := range 4 {
		if h := rawInts(raw[0].init["hai"+strconv.Itoa(s)]); len(h) > 0 && !slices.Contains(h, -1) {
			owner = s
		}
	}
	if owner < 0 || rec.Owner != owner {
		t.Fatalf("owner %d, want seat %d (the record's haipai shown)", rec.Owner, owner)
	}
	for k, ky := range rec.Kyoku {
		for a := range len(ky.Steps) - 1 {
			f := rec.Frame(k, a, AllOpen)
			if f.Self != owner {
				t.Fatalf("k=%d a=%d: seen by seat %d, want %d", k, a, f.Self, owner)
			}
			want, _, _, _ := raw[k].hands(t, a)
			if got := append(slices.Clone(f.MyHand), drawn(f.Drawn)...); !slices.Equal(sorted(got), want[owner]) {
				t.Errorf("k=%d a=%d: seat %d's hand %v, the record's %v", k, a, owner, sorted(got), want[owner])
			}
			for _, o := range f.Open {
				if o.Seat == owner {
					continue
				}
				if slices.ContainsFunc(append(o.Tiles, o.Drawn), func(x int) bool { return x >= 0 }) {
					t.Fatalf("k=%d a=%d: seat %d's concealed tiles %v %d are shown", k, a, o.Seat, o.Tiles, o.Drawn)
				}
			}
		}
	}
}

func drawn(t int) []int {
	if t < 0 {
		return nil
	}
	return []int{t}
}

func sorted(x []int) []int {
	x = slices.Clone(x)
	slices.Sort(x)
	return x
}

// A seat's view carries no other seat's concealed tiles, and any k, a
// and view (out of range, negative) give a frame, never a panic.
func TestFrameBounds(t *testing.T) {
	rec, err := Load("testdata/hand.mjlog.xml")
	if err != nil {
		t.Fatal(err)
	}
	f := rec.Frame(0, 10, 2)
	if f.Open != nil || f.Self != 2 || f.View != 2 {
		t.Errorf("seat 2's view: open %v, self %d, view %d", f.Open, f.Self, f.View)
	}
	if f.Seats[2].Self {
		t.Errorf("seat 2's view: seat 2's name plate is marked as the reader's own (you)")
	}
	for _, c := range [][3]int{{-5, -5, -9}, {99, 99, 99}, {0, 1 << 30, 4}, {1 << 30, 0, -1}} {
		f := rec.Frame(c[0], c[1], c[2])
		if f.K < 0 || f.K >= f.Kyokus || f.A < 0 || f.A >= f.Steps {
			t.Errorf("Frame%v: k=%d a=%d outside the record", c, f.K, f.A)
		}
	}
	last := rec.Frame(0, 1<<30, AllOpen)
	if len(last.Hands) != 1 || last.State != "hand over" {
		t.Errorf("last step: %d end-of-hand screens, state %q; want the end-of-hand screen", len(last.Hands), last.State)
	}
}

// TestOwnSeatAtTheBottom: a transcript is its writer's record, so the
// page draws the writer's seat at the bottom (Frame.Self), the seat of
// the transcript's owner as the offline audit finds it; a record that
// does not say whose it is keeps seat 0 there.
func TestOwnSeatAtTheBottom(t *testing.T) {
	rec, err := Load("testdata/hand.mjt")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("testdata/hand.mjt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := protocol.ReadRecords(f, "testdata/hand.mjt")
	if err != nil {
		t.Fatal(err)
	}
	a := protocol.AuditTranscript(recs)
	want := slices.Index(a.Seats, a.Owner)
	if want < 0 || rec.Me != want {
		t.Fatalf("Me = %d, the transcript's owner sits at %d", rec.Me, want)
	}
	t.Logf("the transcript's writer sits at seat %d", want)
	if got := rec.Frame(0, 0, AllOpen).Self; got != want {
		t.Errorf("all-open frame draws seat %d at the bottom, want the writer's %d", got, want)
	}
	if x := rec.Index(); x.Me != want || !x.Audited {
		t.Errorf("index: me %d audited %v, want %d true", x.Me, x.Audited, want)
	}
	mj, err := Load("testdata/hand.mjlog.xml")
	if err != nil {
		t.Fatal(err)
	}
	if mj.Me != -1 || mj.Frame(0, 0, AllOpen).Self != 0 {
		t.Errorf("mjlog: Me %d, bottom seat %d; want -1 and 0", mj.Me, mj.Frame(0, 0, AllOpen).Self)
	}
}

// An mjlog does not say who wrote it: --me NAME and --seat N put the
// player the user names at the bottom. hand.mjlog.xml's UN tag seats
// player-1 in seat 2 (n2="%70…%2D%31"); a private view can only be seen
// from its owner's seat.
func TestSetMeOnAnMjlog(t *testing.T) {
	rec, err := Load("testdata/hand.mjlog.xml")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"player-1", "PLAYER-1"} {
		if seat, err := rec.SeatOf(name); seat != 2 || err != nil {
			t.Errorf("SeatOf(%q) = %d, %v; want 2", name, seat, err)
		}
	}
	if _, err := rec.SeatOf("nobody"); err == nil || !strings.Contains(err.Error(), "player-0, player-2, player-1, player-3") {
		t.Errorf("SeatOf(nobody): %v, want an error listing the players", err)
	}
	if err := rec.SetMe(2); err != nil {
		t.Fatal(err)
	}
	if got := rec.Frame(0, 0, AllOpen).Self; got != 2 {
		t.Errorf("after SetMe(2) the all-open frame draws seat %d at the bottom", got)
	}
	if x := rec.Index(); x.Me != 2 {
		t.Errorf("index: me %d, want 2", x.Me)
	}
	for _, bad := range []int{-1, 4} {
		if err := rec.SetMe(bad); err == nil {
			t.Errorf("SetMe(%d) accepted", bad)
		}
	}
	priv, err := Load("testdata/private-view.mjlog.xml")
	if err != nil {
		t.Fatal(err)
	}
	if priv.Owner < 0 {
		t.Fatal("private-view.mjlog.xml read as all open")
	}
	if err := priv.SetMe((priv.Owner + 1) % priv.Players); err == nil {
		t.Errorf("a private view accepted another seat than its owner's %d", priv.Owner)
	}
	if err := priv.SetMe(priv.Owner); err != nil {
		t.Errorf("a private view refused its owner's seat: %v", err)
	}
}
