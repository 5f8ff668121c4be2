package mjlog

import (
	"bufio"
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/wall"
)

// TestMalformed parses each document of testdata/malformed.txt and checks
// it fails with an error that starts with the file name and contains the
// expected text (naming the tag and attribute at fault).
func TestMalformed(t *testing.T) {
	f, err := os.Open("testdata/malformed.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) != 3 {
			t.Fatalf("bad testdata line %q", line)
		}
		name, want, doc := parts[0], parts[1], parts[2]
		n++
		g, err := Parse(strings.NewReader(doc), "logs/"+name+".xml")
		if err == nil {
			t.Errorf("%s: parsed without error: %+v", name, g)
			continue
		}
		if !strings.HasPrefix(err.Error(), "logs/"+name+".xml: ") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %q, want it to name the file and contain %q", name, err, want)
		}
	}
	if n < 10 {
		t.Fatalf("only %d cases read", n)
	}
}

// TestBadGzip checks a stream with the gzip magic but a corrupt body fails
// with an error naming the file.
func TestBadGzip(t *testing.T) {
	_, err := Parse(bytes.NewReader([]byte{0x1f, 0x8b, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}), "x.gz")
	if err == nil || !strings.HasPrefix(err.Error(), "x.gz: ") {
		t.Errorf("error %v", err)
	}
	if _, err := Read("testdata/does-not-exist.xml"); err == nil {
		t.Error("Read of a missing file succeeded")
	}
}

// TestUnknownKept parses testdata/unknown.xml, a hand-written log with an
// unknown tag before and inside play, extra attributes, a BYE before play
// and a reconnection, checks the values read against the document text,
// and that Write→Parse keeps all of them.
func TestUnknownKept(t *testing.T) {
	g, err := Read("testdata/unknown.xml")
	if err != nil {
		t.Fatal(err)
	}
	want := &Game{
		File:         "testdata/unknown.xml",
		Version:      "2.3",
		Shuffle:      &Shuffle{Seed: "mt19937ar-sha512-n288-base64,AAAA"},
		Go:           GoRule{Type: 169, Extra: []Attr{{"title", "t&x"}}},
		Players:      []Player{{"A", 1, 1500, "M"}, {"B", 2, 1600.5, "F"}, {"C", 3, 1700.25, "C"}, {"D", 4, 1800, "M"}},
		PlayersExtra: []Attr{{"gold", "1,2,3,4"}},
		Oya:          1,
		Prelude:      []Event{Bye{Who: 2}},
		Unknown:      []Unknown{{Name: "FOO", Attrs: []Attr{{"a", "1"}, {"b", "x y"}}}},
	}
	owari := &Owari{Scores: []int{260, 230, 260, 250}, Points: []float64{10, -20, 5.5, 4.5}}
	hai := func(from int) []wall.Tile {
		var ts []wall.Tile
		for i := range 13 {
			ts = append(ts, wall.Tile(from+i))
		}
		return ts
	}
	want.Rounds = []Round{{
		Init: Init{Kyoku: 4, Honba: 1, Kyotaku: 2, Dice: [2]int{5, 0}, DoraIndicator: 77,
			Ten: []int{250, 240, 260, 250}, Oya: 1, Hai: [4][]wall.Tile{hai(0), hai(13), hai(26), hai(39)},
			Extra: []Attr{{"chip", "0,0,0,0"}}},
		Events: []Event{
			Unknown{Name: "BAR"},
			Draw{Who: 1, Tile: 60},
			Discard{Who: 1, Tile: 60},
			Reconnect{Who: 2, Name: "E"},
			Agari{Who: 1, FromWho: 1, Hai: append(hai(13), 60), Machi: 60, Fu: 30, Ten: 1000,
				Yaku: []YakuHan{{1, 1}}, Honba: 1, Kyotaku: 2, Sc: []int{250, 10, 240, -10, 260, 0, 250, 0},
				Owari: owari, Paowho: -1, Extra: []Attr{{"ratio", "0,1"}}},
		},
	}}
	want.Owari = owari
	if !reflect.DeepEqual(g, want) {
		t.Fatalf("parsed\n%#v\nwant\n%#v\n%s", g, want, firstDiff(g, want))
	}
	var buf bytes.Buffer
	if err := Write(&buf, g); err != nil {
		t.Fatal(err)
	}
	g2, err := Parse(&buf, g.File)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, g2) {
		t.Errorf("Write→Parse differs: %s", firstDiff(g, g2))
	}
}

// TestInitMatchesWallLayout checks the INIT fields against the worked
// example of docs/wall-layout.md §8 (log 2022060100gm-00a9-0000-a11749d5,
// kyoku 0: seed "0,0,0,5,3,87", hai0 = 36,0,122,114,93,129,127,7,71,65,
// 47,99,135, first draw <T56/>).
func TestInitMatchesWallLayout(t *testing.T) {
	g, err := Read(tenhoucorpus.For(t).Path(t, "2022060100gm-00a9-0000-a11749d5.xml"))
	if err != nil {
		t.Fatal(err)
	}
	in := g.Rounds[0].Init
	if in.Kyoku != 0 || in.Honba != 0 || in.Kyotaku != 0 || in.Dice != [2]int{5, 3} || in.DoraIndicator != 87 || in.Oya != 0 {
		t.Errorf("init %+v", in)
	}
	want := []wall.Tile{36, 0, 122, 114, 93, 129, 127, 7, 71, 65, 47, 99, 135}
	if !reflect.DeepEqual(in.Hai[0], want) {
		t.Errorf("hai0 %v, want %v", in.Hai[0], want)
	}
	if ev := g.Rounds[0].Events[0]; ev != (Draw{Who: 0, Tile: 56}) {
		t.Errorf("first event %#v, want Draw{0, 56}", ev)
	}
}

// FuzzParse checks Parse never panics and that whatever it accepts,
// Write→Parse reproduces.
func FuzzParse(f *testing.F) {
	corpus := tenhoucorpus.For(f)
	for _, p := range []string{
		corpus.Path(f, "2009100718gm-00e1-0000-470654d3.xml"),
		corpus.Path(f, "2014091101gm-00b9-0000-5ca6b487.xml"),
		"testdata/unknown.xml",
	} {
		raw, err := tenhoucorpus.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add([]byte(`<mjloggm><GO type="1"/><INIT seed="0,0,0,0,0,0" oya="0"/><T1/><N who="0" m="31008"/></mjloggm>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Parse(bytes.NewReader(data), "fuzz.xml")
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, g); err != nil {
			t.Fatalf("Write of a parsed game: %v", err)
		}
		g2, err := Parse(&buf, "fuzz.xml")
		if err != nil {
			t.Fatalf("reparse: %v\n%s", err, buf.String())
		}
		if g.Version == "" {
			g.Version = "2.3" // Write fills in the default version
		}
		if !reflect.DeepEqual(g, g2) {
			t.Fatalf("Write→Parse differs: %s", firstDiff(g, g2))
		}
	})
}
