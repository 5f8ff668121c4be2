package mjlog

import (
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// TestMeldCorpusRoundTrip extracts every meld code of the shared logs
// with a regular expression (every <N m=> and every AGARI m= list) and
// checks EncodeMeld(DecodeMeld(m)) == m, plus the shape of each meld.
func TestMeldCorpusRoundTrip(t *testing.T) {
	nTag := regexp.MustCompile(`<N who="\d" m="(\d+)"`)
	agariM := regexp.MustCompile(`<AGARI [^>]* m="([\d,]+)"`)
	count := map[riichi.MeldType]int{}
	for _, c := range loadCorpus(t) {
		var codes []string
		for _, m := range nTag.FindAllSubmatch(c.raw, -1) {
			codes = append(codes, string(m[1]))
		}
		for _, m := range agariM.FindAllSubmatch(c.raw, -1) {
			codes = append(codes, strings.Split(string(m[1]), ",")...)
		}
		for _, s := range codes {
			m, _ := strconv.Atoi(s)
			md, err := DecodeMeld(m)
			if err != nil {
				t.Errorf("%s: %v", c.path, err)
				continue
			}
			count[md.Type]++
			back, err := EncodeMeld(md)
			if err != nil || back != m {
				t.Errorf("%s: meld %d → %+v → %d, %v", c.path, m, md, back, err)
			}
			checkMeldShape(t, md)
		}
	}
	for _, mt := range []riichi.MeldType{riichi.Chi, riichi.Pon, riichi.Daiminkan, riichi.Ankan, riichi.Kakan, riichi.Kita} {
		if count[mt] == 0 {
			t.Errorf("no %v in the corpus", mt)
		}
	}
	t.Logf("meld codes by type: %v", count)
}

func checkMeldShape(t *testing.T, md Meld) {
	t.Helper()
	want := map[riichi.MeldType]int{riichi.Chi: 3, riichi.Pon: 3, riichi.Daiminkan: 4, riichi.Ankan: 4, riichi.Kakan: 4, riichi.Kita: 1}[md.Type]
	if len(md.Tiles) != want || !slices.IsSorted(md.Tiles) {
		t.Errorf("meld %d: tiles %v, want %d ascending", md.Code, md.Tiles, want)
	}
	switch md.Type {
	case riichi.Ankan, riichi.Kita:
		if md.Called != -1 || md.From != 0 {
			t.Errorf("meld %d: %v with called %d from %d", md.Code, md.Type, md.Called, md.From)
		}
	default:
		if !slices.Contains(md.Tiles, md.Called) || md.From == 0 {
			t.Errorf("meld %d: called %d not in %v or from %d", md.Code, md.Called, md.Tiles, md.From)
		}
	}
	if (md.Type == riichi.Kakan) != (md.Added != -1) || (md.Type == riichi.Ankan) != (md.KanTile != -1) {
		t.Errorf("meld %d: added %d kantile %d on %v", md.Code, md.Added, md.KanTile, md.Type)
	}
}

// TestMeldExhaustive decodes every 16-bit code. Each accepted code must
// re-encode to itself and have a valid shape; the number accepted must
// match a count from the layout: chi 21 bases × 3 called × 4³ copies
// (from kamicha only) = 4032; pon and kakan 34 kinds × 3 called × 4
// unused × 3 seats = 1224 each; kans 136 ids × 4 relative seats = 544;
// kita 4 north ids.
func TestMeldExhaustive(t *testing.T) {
	count := map[riichi.MeldType]int{}
	for m := range 1 << 16 {
		md, err := DecodeMeld(m)
		if err != nil {
			continue
		}
		count[md.Type]++
		back, err := EncodeMeld(md)
		if err != nil || back != m {
			t.Fatalf("meld %d → %+v → %d, %v", m, md, back, err)
		}
		for _, tl := range md.Tiles {
			if !tl.Valid() {
				t.Fatalf("meld %d: tile %d", m, tl)
			}
		}
		checkMeldShape(t, md)
	}
	want := map[riichi.MeldType]int{riichi.Chi: 4032, riichi.Pon: 1224, riichi.Kakan: 1224, riichi.Daiminkan: 408, riichi.Ankan: 136, riichi.Kita: 4}
	if !reflect.DeepEqual(count, want) {
		t.Errorf("accepted codes %v, want %v", count, want)
	}
	for _, m := range []int{-1, 1 << 16} {
		if _, err := DecodeMeld(m); err == nil {
			t.Errorf("DecodeMeld(%d) accepted", m)
		}
	}
}

// TestMeldExamples decodes codes read by hand from the shared logs, each
// quoted with its log context.
func TestMeldExamples(t *testing.T) {
	cases := []struct {
		m    int
		want Meld
		ctx  string
	}{
		// 2009100718gm-00e1-0000-470654d3: <E30/><N who="3" m="11274"/>:
		// seat 3 pons 8m (id 30) from toimen (seat 1).
		{11274, Meld{Type: riichi.Pon, From: 2, Tiles: []wall.Tile{29, 30, 31}, Called: 30, Added: -1, KanTile: -1, Code: 11274}, "pon"},
		// 3p logs: <N who= m="31008"/> is kita of id 121.
		{31008, Meld{Type: riichi.Kita, Tiles: []wall.Tile{121}, Called: -1, Added: -1, KanTile: -1, Code: 31008}, "kita"},
		// 2016052515gm-00a9-0000-c4d72066: <T16/><N who="0" m="4608"/>: an
		// ankan of 5m whose code stores id 18 (m = 18<<8), not the lowest.
		{4608, Meld{Type: riichi.Ankan, Tiles: []wall.Tile{16, 17, 18, 19}, Called: -1, Added: -1, KanTile: 18, Code: 4608}, "ankan"},
	}
	for _, c := range cases {
		got, err := DecodeMeld(c.m)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: DecodeMeld(%d) = %+v, %v; want %+v", c.ctx, c.m, got, err, c.want)
		}
	}
}

// TestEncodeMeldRejects tampers with valid melds; EncodeMeld must refuse.
func TestEncodeMeldRejects(t *testing.T) {
	chi := Meld{Type: riichi.Chi, From: 3, Tiles: []wall.Tile{0, 4, 8}, Called: 4}
	pon := Meld{Type: riichi.Pon, From: 1, Tiles: []wall.Tile{29, 30, 31}, Called: 30}
	kakan := Meld{Type: riichi.Kakan, From: 1, Tiles: []wall.Tile{28, 29, 30, 31}, Called: 30, Added: 28}
	ankan := Meld{Type: riichi.Ankan, Tiles: []wall.Tile{28, 29, 30, 31}, KanTile: 28}
	for _, md := range []Meld{chi, pon, kakan, ankan} {
		if _, err := EncodeMeld(md); err != nil {
			t.Fatalf("valid %v rejected: %v", md, err)
		}
	}
	bad := []Meld{
		{Type: riichi.Chi, From: 2, Tiles: chi.Tiles, Called: 4},                        // chi not from kamicha
		{Type: riichi.Chi, From: 3, Tiles: []wall.Tile{0, 4, 12}, Called: 4},            // not a sequence
		{Type: riichi.Chi, From: 3, Tiles: []wall.Tile{28, 32, 36}, Called: 32},         // 8m 9m 1p
		{Type: riichi.Chi, From: 3, Tiles: []wall.Tile{108, 112, 116}, Called: 112},     // honours
		{Type: riichi.Chi, From: 3, Tiles: chi.Tiles, Called: 5},                        // called not in meld
		{Type: riichi.Pon, From: 0, Tiles: pon.Tiles, Called: 30},                       // pon from self
		{Type: riichi.Pon, From: 1, Tiles: []wall.Tile{29, 30, 32}, Called: 30},         // mixed kinds
		{Type: riichi.Pon, From: 1, Tiles: []wall.Tile{30, 29, 31}, Called: 30},         // not ascending
		{Type: riichi.Kakan, From: 1, Tiles: kakan.Tiles, Called: 30, Added: 27},        // added not in meld
		{Type: riichi.Ankan, From: 1, Tiles: ankan.Tiles, KanTile: 28},                  // ankan from other
		{Type: riichi.Daiminkan, From: 0, Tiles: ankan.Tiles, Called: 28},               // daiminkan from self
		{Type: riichi.Kita, Tiles: []wall.Tile{116}},                                    // west, not north
		{Type: riichi.Pon, From: 1, Tiles: []wall.Tile{29, 30, 136}, Called: 30},        // bad id
		{Type: riichi.MeldType(0), From: 1, Tiles: []wall.Tile{29, 30, 31}, Called: 30}, // no type
	}
	for _, md := range bad {
		if m, err := EncodeMeld(md); err == nil {
			t.Errorf("EncodeMeld(%+v) = %d, want error", md, m)
		}
	}
}
