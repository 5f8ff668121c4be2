package stats

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/record/tenhou6"
)

// ErrEmpty is wrapped by ReadFile for a record that deals no kyoku (an
// mjlog such as <mjloggm></mjloggm>): it is no game to count.
var ErrEmpty = errors.New("an empty record")

// MaxRecord is the largest record ReadFile reads, in bytes after
// decompression: a real mjlog is under 1 MB.
const MaxRecord = 64 << 20

// ReadFile reads the record at path — mjlog XML, plain or gzip (detected
// by the magic bytes 1f 8b), or a mentalmj transcript, which is audited
// offline first (seconds per game; see transcriptRecord) — and returns its
// Game with Stamp set (see Game.Stamp). Errors name path; a record that
// deals no kyoku wraps ErrEmpty; for a file that
// is not an mjlog (wrapping ErrNotMjlog) or is cut short (ErrTruncated)
// they say what the file looks like: another format (tenhou.net/6 JSON,
// mjai JSON Lines, HTML), text or binary data.
func ReadFile(path string) (*Game, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return nil, fmt.Errorf("%s: is a directory", path)
	}
	raw, err := io.ReadAll(io.LimitReader(f, MaxRecord+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	doc, err := Decompress(raw, path)
	if err != nil {
		return nil, err
	}
	if len(doc) > MaxRecord {
		return nil, fmt.Errorf("%s: larger than %d MB: not an mjlog (a real one is under 1 MB)", path, MaxRecord>>20)
	}
	if !looksLikeXML(doc) {
		rec, ok, err := transcriptRecord(doc, path)
		if err != nil {
			return nil, err
		}
		switch {
		case ok:
			doc = rec
		case strings.EqualFold(filepath.Ext(path), ".mjt"):
			return nil, fmt.Errorf("%s: %w: named like a mentalmj transcript (.mjt) but not one: %s", path, ErrNotMjlog, Describe(doc))
		case looksLikeJSON(doc):
			if doc, err = tenhou6Record(doc, path); err != nil {
				return nil, err
			}
		}
	}
	g, err := Scan(doc, path)
	if err != nil {
		return nil, err
	}
	if g.Seats[0].Kyoku == 0 {
		return nil, fmt.Errorf("%s: %w: an mjlog without a kyoku", path, ErrEmpty)
	}
	g.Stamp = stampFromName(filepath.Base(path))
	if g.Stamp == 0 {
		t := info.ModTime().UTC()
		g.Stamp = t.Year()*10000 + int(t.Month())*100 + t.Day()
	}
	return g, nil
}

// Decompress returns raw itself, or its gzip content when raw starts with
// gzip's magic bytes. A damaged or cut-short gzip stream is an error
// naming name (wrapping ErrTruncated when it ends early).
func Decompress(raw []byte, name string) ([]byte, error) {
	if len(raw) < 2 || raw[0] != 0x1f || raw[1] != 0x8b {
		return raw, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: gzip data %w", name, ErrTruncated)
		}
		return nil, fmt.Errorf("%s: damaged gzip data: %w", name, err)
	}
	doc, err := io.ReadAll(io.LimitReader(zr, MaxRecord+1))
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("%s: gzip data %w (%d bytes decompressed)", name, ErrTruncated, len(doc))
		}
		return nil, fmt.Errorf("%s: damaged gzip data: %w", name, err)
	}
	return doc, nil
}

// looksLikeJSON reports whether doc starts (after white space and a
// UTF-8 byte order mark) with '{' or '['.
func looksLikeJSON(doc []byte) bool {
	d := bytes.TrimLeft(bytes.TrimPrefix(doc, []byte("\xef\xbb\xbf")), " \t\r\n")
	return len(d) > 0 && (d[0] == '{' || d[0] == '[')
}

// tenhou6Record reads a tenhou.net/6 JSON document with record/tenhou6's
// reader (tenhou6.Read: the order of play rebuilt from each seat's
// takes and discards, the results as the JSON gives them) and returns it
// as an mjlog document for Scan. It returns an error naming path,
// wrapping ErrNotMjlog and saying what the file looks like, for JSON
// that is not tenhou.net/6 (an mjai log among them), or saying what is
// wrong with a tenhou.net/6 document that cannot be read.
func tenhou6Record(doc []byte, path string) ([]byte, error) {
	g, err := tenhou6.Read(doc, path)
	switch {
	case errors.Is(err, tenhou6.ErrNotTenhou6):
		return nil, fmt.Errorf("%s: %w: %s", path, ErrNotMjlog, Describe(doc))
	case err != nil:
		return nil, fmt.Errorf("%s: tenhou.net/6 JSON that cannot be read: %w", path, errors.Unwrap(err))
	}
	var b bytes.Buffer
	if err := mjlog.Write(&b, g); err != nil {
		return nil, fmt.Errorf("%s: tenhou.net/6 JSON that cannot be read as a game: %w", path, err)
	}
	return b.Bytes(), nil
}

// looksLikeXML reports whether doc starts (after white space and a UTF-8
// byte order mark) with '<'.
func looksLikeXML(doc []byte) bool {
	d := bytes.TrimLeft(bytes.TrimPrefix(doc, []byte("\xef\xbb\xbf")), " \t\r\n")
	return len(d) > 0 && d[0] == '<'
}

// Describe says in a few words what doc looks like, for an error about a
// file that is not an mjlog: "an empty file", "tenhou.net/6 JSON", "mjai
// JSON Lines", "JSON", "an HTML page", "XML whose root element is <x>",
// "text starting "…"" or "binary data (first bytes …)".
func Describe(doc []byte) string {
	d := bytes.TrimLeft(bytes.TrimPrefix(doc, []byte("\xef\xbb\xbf")), " \t\r\n")
	switch {
	case len(d) == 0:
		return "an empty file"
	case d[0] == '{' || d[0] == '[':
		first, _, _ := bytes.Cut(d, []byte("\n"))
		switch {
		case bytes.Contains(d, []byte(`"log"`)) && bytes.Contains(d, []byte(`"name"`)):
			return "tenhou.net/6 JSON"
		case bytes.Contains(first, []byte(`"type"`)):
			return "an mjai log (JSON Lines), which stats does not read: convert it to an mjlog or tenhou.net/6 JSON, or view it with mentalmj view"
		}
		return "JSON, but not tenhou.net/6 JSON (an object with a \"log\" array, as join writes into DATA-DIR/games) nor an mjlog"
	case d[0] == '<':
		if root := rootName(d); root != "" {
			if strings.EqualFold(root, "html") || strings.EqualFold(root, "!DOCTYPE") {
				return "an HTML page, not an mjlog (a saved web page instead of the log?)"
			}
			return fmt.Sprintf("XML whose root element is <%s>, not Tenhou's <mjloggm>", root)
		}
		return "XML without a root element"
	}
	if !utf8.Valid(d[:min(len(d), 512)]) || bytes.IndexByte(d[:min(len(d), 512)], 0) >= 0 {
		return fmt.Sprintf("binary data (first bytes % x)", d[:min(len(d), 8)])
	}
	head := d[:min(len(d), 40)]
	for !utf8.Valid(head) && len(head) > 0 {
		head = head[:len(head)-1]
	}
	return fmt.Sprintf("text, not XML, starting %q", head)
}

// rootName returns the name of the first element of an XML document
// (skipping <?…?> and comments), "!DOCTYPE" for a DOCTYPE, or "".
func rootName(d []byte) string {
	for {
		i := bytes.IndexByte(d, '<')
		if i < 0 || i+1 >= len(d) {
			return ""
		}
		d = d[i+1:]
		switch {
		case d[0] == '?':
			j := bytes.Index(d, []byte("?>"))
			if j < 0 {
				return ""
			}
			d = d[j+2:]
			continue
		case bytes.HasPrefix(d, []byte("!--")):
			j := bytes.Index(d, []byte("-->"))
			if j < 0 {
				return ""
			}
			d = d[j+3:]
			continue
		case len(d) >= 8 && strings.EqualFold(string(d[:8]), "!DOCTYPE"):
			return "!DOCTYPE"
		}
		n := 0
		for n < len(d) && n < 64 && isNameByte(d[n]) {
			n++
		}
		return string(d[:n])
	}
}

// stampFromName returns YYYYMMDD from a Tenhou log id at the start of a
// file name ("2019020120gm-0009-10011-215330df.xml": 20190201), or 0.
func stampFromName(name string) int {
	if len(name) < 12 || name[10:12] != "gm" {
		return 0
	}
	n, ok := atoi([]byte(name[:8]))
	if !ok || n < 20000101 || n > 99991231 || name[0] == '+' || name[0] == '-' {
		return 0
	}
	if _, ok := atoi([]byte(name[8:10])); !ok {
		return 0
	}
	return n
}
