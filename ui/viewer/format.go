package viewer

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/record/tenhou6"
)

// Format is a kind of game record the viewer reads.
type Format string

// The formats, as Detect names them.
const (
	// Transcript is a mentalmj transcript (.mjt): uvarint-framed signed
	// protobuf envelopes (SPEC.md "Transcript file").
	Transcript Format = "mentalmj transcript"
	// Mjlog is Tenhou's mjlog XML (<mjloggm>), plain or gzip.
	Mjlog Format = "Tenhou mjlog"
	// Tenhou6 is tenhou.net/6 JSON: one object with a "log" array.
	Tenhou6 Format = "tenhou.net/6 JSON"
	// Mjai is an mjai log: JSON Lines of mjai events.
	Mjai Format = "mjai log"
)

// article returns the format's name with its article ("a Tenhou mjlog",
// "an mjai log", "tenhou.net/6 JSON").
func (f Format) article() string {
	switch f {
	case Tenhou6:
		return string(f)
	case Mjai:
		return "an " + string(f)
	}
	return "a " + string(f)
}

// ErrUnknownFormat is wrapped by Detect's error for content of no known
// format; the message says what the content looks like.
var ErrUnknownFormat = errors.New("not a game record the viewer reads")

// headSize is how much of a file Detect looks at.
const headSize = 4096

// Detect names the format of a record from its first bytes (head, at
// most a few KiB; gzip is looked into), never from the file name. It
// returns an error wrapping ErrUnknownFormat that says what the content
// looks like: "XML whose root element is <html>, not an mjlog
// (<mjloggm>)", "JSON without a "log" array (keys: a, b): not
// tenhou.net/6 JSON", "text", "binary data", "an empty file".
func Detect(head []byte) (Format, error) {
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(head))
		if err != nil {
			return "", fmt.Errorf("%w: it is gzip data that does not open (%v)", ErrUnknownFormat, err)
		}
		inner, _ := io.ReadAll(io.LimitReader(zr, headSize))
		if f, err := detectXML(inner); err != nil || f != "" {
			return f, err
		}
		return "", fmt.Errorf("%w: it is gzip data holding %s", ErrUnknownFormat, looks(inner))
	}
	if f, err := detectXML(head); err != nil || f != "" {
		return f, err
	}
	trimmed := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		return detectJSON(trimmed)
	}
	if isTranscriptHead(head) {
		return Transcript, nil
	}
	return "", fmt.Errorf("%w: it looks like %s", ErrUnknownFormat, looks(head))
}

var rootElement = regexp.MustCompile(`<([A-Za-z_][-A-Za-z0-9_.:]*)`)

// detectXML returns Mjlog for an mjlog, an error for other XML and ""
// for content that is not XML.
func detectXML(head []byte) (Format, error) {
	trimmed := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(trimmed) == 0 || trimmed[0] != '<' {
		return "", nil
	}
	if bytes.Contains(head, []byte("<mjloggm")) {
		return Mjlog, nil
	}
	// The root element: the first start tag that is not <?xml…?>,
	// <!DOCTYPE…> or a comment.
	for _, m := range rootElement.FindAllSubmatchIndex(trimmed, -1) {
		if m[0] > 0 && (trimmed[m[0]-1] == '?' || trimmed[m[0]-1] == '!') {
			continue
		}
		return "", fmt.Errorf("%w: it is XML whose root element is <%s>, not an mjlog (<mjloggm>)", ErrUnknownFormat, trimmed[m[2]:m[3]])
	}
	return "", fmt.Errorf("%w: it is XML without an element, not an mjlog (<mjloggm>)", ErrUnknownFormat)
}

// detectJSON tells tenhou.net/6 JSON (one object with a "log" array) from
// an mjai log (JSON Lines whose first object has a "type").
func detectJSON(trimmed []byte) (Format, error) {
	line, _, _ := bytes.Cut(trimmed, []byte("\n"))
	var first map[string]json.RawMessage
	if json.Unmarshal(line, &first) == nil {
		if _, ok := first["type"]; ok {
			return Mjai, nil
		}
	}
	// A tenhou.net/6 document may be longer than the head: look for its
	// keys at the top level of what was read.
	keys := tenhou6.Keys(trimmed)
	if slices.Contains(keys, "log") {
		return Tenhou6, nil
	}
	if trimmed[0] == '[' {
		return "", fmt.Errorf("%w: it is a JSON array, not tenhou.net/6 JSON (an object with a \"log\" array) nor an mjai log (one event object per line)", ErrUnknownFormat)
	}
	if len(keys) > 8 {
		keys = append(keys[:8], "…")
	}
	return "", fmt.Errorf("%w: it is JSON without a \"log\" array (keys: %s): not tenhou.net/6 JSON, and not an mjai log (its first line has no \"type\")", ErrUnknownFormat, strings.Join(keys, ", "))
}

// isTranscriptHead reports whether head starts as a transcript does: a
// first record that decodes as a signed entry (protocol.LoadRecords's
// check; a record cut off by the end of head does not matter).
func isTranscriptHead(head []byte) bool {
	recs, err := protocol.LoadRecords(bytes.NewReader(head), "")
	return len(recs) > 0 && !errors.Is(err, protocol.ErrNotTranscript)
}

// looks names what content of no known format looks like.
func looks(head []byte) string {
	switch {
	case len(head) == 0:
		return "an empty file"
	case utf8.Valid(head) && !bytes.ContainsFunc(head, func(r rune) bool { return r < ' ' && r != '\n' && r != '\r' && r != '\t' }):
		line, _, _ := bytes.Cut(bytes.TrimSpace(head), []byte("\n"))
		if len(line) > 40 {
			line = append(slices.Clone(line[:40]), "…"...)
		}
		return fmt.Sprintf("text (%q)", line)
	}
	return "binary data of another kind"
}
