package stats

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// badFiles are files stats must refuse, each with the words its error must
// hold (what the file looks like) and the error it must wrap.
func badFiles(t *testing.T) []struct {
	name    string
	content []byte
	want    string
	is      error
} {
	real, err := os.ReadFile(filepath.Join("testdata", "hand", "a.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(real)
	zw.Close()
	return []struct {
		name    string
		content []byte
		want    string
		is      error
	}{
		{"cut.xml", real[:len(real)/2], "cut short", ErrTruncated},
		{"cut-in-tag.xml", real[:bytes.Index(real, []byte("<AGARI"))+20], "cut short", ErrTruncated},
		{"cut.xml.gz", gz.Bytes()[:gz.Len()/2], "gzip data cut short", ErrTruncated},
		{"empty.xml", nil, "an empty file", ErrNotMjlog},
		{"page.xml", []byte("<!DOCTYPE html><html><body>404</body></html>"), "HTML page", ErrNotMjlog},
		{"other.xml", []byte(`<?xml version="1.0"?><!-- c --><rss version="2.0"><channel/></rss>`), "root element is <rss>", ErrNotMjlog},
		{"log.json", []byte(`{"title":["",""],"name":["a","b","c","d"],"rule":{"disp":"x"},"log":[]}`), `tenhou.net/6 JSON that cannot be read: its "log" array is empty`, nil},
		{"kyoku.json", []byte(`{"name":["a","b","c","d"],"log":[[[0,0,0],[25000]]]}`), "tenhou.net/6 JSON that cannot be read: kyoku 0 of its \"log\": not a 17-element kyoku array", nil},
		{"settings.json", []byte(`{"nick":"alice","relay":true}`), "JSON, but not tenhou.net/6 JSON", ErrNotMjlog},
		{"list.json", []byte(`[1,2,3]`), "JSON, but not tenhou.net/6 JSON", ErrNotMjlog},
		{"game.mjai", []byte("{\"type\":\"start_game\"}\n{\"type\":\"end_game\"}\n"), "an mjai log (JSON Lines), which stats does not read", ErrNotMjlog},
		{"notes.xml", []byte("hello, these are my notes"), `text, not XML, starting "hello`, ErrNotMjlog},
		{"blob.xml", []byte{0x00, 0x01, 0x02, 0xff, 0xfe, 'x'}, "binary data", ErrNotMjlog},
		{"game.mjt", []byte{0x8a, 0x01, 0x0a, 0x20, 0x00}, "named like a mentalmj transcript (.mjt) but not one: binary data", ErrNotMjlog},
		{"badseat.xml", []byte(`<mjloggm ver="2.3"><GO type="185"/><INIT seed="0,0,0,0,0,0" ten="350,350,350,0" oya="0"/><AGARI who="3" fromWho="3" ten="30,1000,0"/></mjloggm>`), "want a seat 0..2", nil},
		{"badmeld.xml", []byte(`<mjloggm ver="2.3"><INIT seed="0,0,0,0,0,0" ten="250,250,250,250" oya="0"/><N who="1" m="99999"/></mjloggm>`), "meld code", nil},
		{"early.xml", []byte(`<mjloggm ver="2.3"><AGARI who="0" fromWho="1" ten="30,1000,0"/></mjloggm>`), "before the first <INIT>", nil},
		{"badowari.xml", []byte(`<mjloggm ver="2.3"><INIT seed="0,0,0,0,0,0" ten="250,250,250,250" oya="0"/><RYUUKYOKU owari="250,0"/></mjloggm>`), "owari", nil},
		{"nokyoku.xml", []byte(`<mjloggm></mjloggm>`), "an empty record: an mjlog without a kyoku", ErrEmpty},
		{"nokyoku.mjlog", []byte(`<mjloggm ver="2.3"><GO type="169"/><UN n0="A" n1="B" n2="C" n3="D"/><TAIKYOKU oya="0"/></mjloggm>`), "an empty record", ErrEmpty},
		{"badattr.xml", []byte(`<mjloggm ver="2.3"><INIT seed=0 oya="0"/></mjloggm>`), "malformed XML", nil},
	}
}

// TestTranscriptWithoutHands: a real transcript that holds only the
// Hellos and a player quitting (protocol's transcript vector) is refused
// with the audit's reason, naming the file.
func TestTranscriptWithoutHands(t *testing.T) {
	path := filepath.Join("..", "protocol", "testdata", "transcript-v4.mjt")
	_, err := ReadFile(path)
	if err == nil || !strings.Contains(err.Error(), path+": a mentalmj transcript without an audited hand") {
		t.Errorf("ReadFile(%s): %v", path, err)
	}
}

// TestBadFiles: every bad file gets an error naming it and saying what it
// looks like, never a panic.
func TestBadFiles(t *testing.T) {
	dir := t.TempDir()
	for _, c := range badFiles(t) {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, c.content, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadFile(path)
		if err == nil {
			t.Errorf("%s: read without error", c.name)
			continue
		}
		if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q lacks the path or %q", c.name, err, c.want)
		}
		if c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%s: error %q does not wrap %v", c.name, err, c.is)
		}
	}
}

// FuzzScan: no input panics Scan, and every prefix of a real record is
// either an error or a game.
func FuzzScan(f *testing.F) {
	for _, name := range handFiles {
		b, err := os.ReadFile(filepath.Join("testdata", "hand", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/3])
	}
	f.Add([]byte(`<mjloggm><INIT oya="0"/><N who="0" m="31264"/><RYUUKYOKU owari="1,2,3,4,5,6,7,8"/></mjloggm>`))
	f.Add([]byte(`<mjloggm ver='2.3'><T1><D1/></mjloggm>`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		g, err := Scan(doc, "fuzz")
		if err != nil {
			return
		}
		if p := g.Placements(); p != nil && len(p) != g.Players {
			t.Fatalf("placements %v for %d players", p, g.Players)
		}
	})
}
