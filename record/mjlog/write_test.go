package mjlog

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"reflect"
	"testing"

	"github.com/mentalmj/mentalmj/riichi"
)

// TestWriteRoundTrip writes every parsed log and parses the output again:
// the Game must be identical (File aside). It also checks the written
// document has exactly as many play tags as the original text.
func TestWriteRoundTrip(t *testing.T) {
	for _, c := range loadCorpus(t) {
		var buf bytes.Buffer
		if err := Write(&buf, c.game); err != nil {
			t.Fatalf("%s: write: %v", c.path, err)
		}
		g2, err := Parse(bytes.NewReader(buf.Bytes()), c.path)
		if err != nil {
			t.Fatalf("%s: reparse: %v\n%.300s", c.path, err, buf.String())
		}
		if !reflect.DeepEqual(c.game, g2) {
			t.Errorf("%s: Write→Parse differs\n%s", c.path, firstDiff(c.game, g2))
		}
		for _, re := range []string{"<T", "<D", "<N ", "<AGARI ", "<RYUUKYOKU ", "<INIT "} {
			if a, b := bytes.Count(c.raw, []byte(re)), bytes.Count(buf.Bytes(), []byte(re)); a != b {
				t.Errorf("%s: %q occurs %d times in the original, %d in the output", c.path, re, a, b)
			}
		}
	}
}

// firstDiff describes the first differing part of two games.
func firstDiff(a, b *Game) string {
	if len(a.Rounds) != len(b.Rounds) {
		return fmt.Sprintf("%d rounds vs %d", len(a.Rounds), len(b.Rounds))
	}
	for i := range a.Rounds {
		ra, rb := a.Rounds[i], b.Rounds[i]
		if !reflect.DeepEqual(ra.Init, rb.Init) {
			return fmt.Sprintf("round %d init: %#v vs %#v", i, ra.Init, rb.Init)
		}
		if len(ra.Events) != len(rb.Events) {
			return fmt.Sprintf("round %d: %d events vs %d", i, len(ra.Events), len(rb.Events))
		}
		for j := range ra.Events {
			if !reflect.DeepEqual(ra.Events[j], rb.Events[j]) {
				return fmt.Sprintf("round %d event %d: %#v vs %#v", i, j, ra.Events[j], rb.Events[j])
			}
		}
	}
	return fmt.Sprintf("header: %#v vs %#v", *a, *b)
}

// TestGzip checks a gzip-compressed log parses to the same Game as the
// plain one.
func TestGzip(t *testing.T) {
	c := loadCorpus(t)[0]
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(c.raw)
	zw.Close()
	g, err := Parse(&buf, c.path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, c.game) {
		t.Error("gzip parse differs from plain parse")
	}
}

// TestWriteRejects checks Write refuses values it cannot express.
func TestWriteRejects(t *testing.T) {
	base := func() *Game {
		return &Game{Rounds: []Round{{Init: Init{Ten: []int{250, 250, 250, 250}}}}}
	}
	cases := map[string]Event{
		"seat":    Draw{Who: 4, Tile: 1},
		"tile":    Discard{Who: 0, Tile: 136},
		"meld":    Call{Who: 0, Meld: Meld{Type: riichi.Pon, From: 0, Tiles: nil}},
		"agari":   Agari{Who: 0, FromWho: 5, Paowho: -1},
		"unknown": nil,
	}
	g := base()
	g.Rounds[0].Init.Dice = [2]int{0, 6}
	if err := Write(&bytes.Buffer{}, g); err == nil {
		t.Error("Write accepted a die of 6")
	}
	for name, ev := range cases {
		g := base()
		g.Rounds[0].Events = []Event{ev}
		if err := Write(&bytes.Buffer{}, g); err == nil {
			t.Errorf("%s: Write accepted %#v", name, ev)
		}
	}
}
