package mjlog

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"
)

// The fast path. An mjlog is a flat sequence of ASCII empty elements, so
// most of encoding/xml's work (entity decoding, Unicode name tables,
// namespaces, a fresh string and slice per attribute) is wasted on it.
// scanner tokenizes the common subset of XML that mjlogs use and gives up
// (errFallback) on anything else: a processing instruction, comment,
// DOCTYPE or CDATA, an entity or character reference, a byte outside
// printable ASCII, tab and newline (or a ']' in text), a name outside [A-Za-z_][A-Za-z0-9_.-]*,
// attributes not separated by whitespace, or any syntax error. Parse then
// reparses the whole document with encoding/xml, so the fast path never
// decides an error itself and the two readers produce the same Game or the
// same error on every input (the differential tests and FuzzScanner check
// this).

// errFallback tells Parse to reparse the document with encoding/xml.
var errFallback = errors.New("mjlog: input outside the fast scanner's subset")

// tokKind is the kind of a token the parser reads.
type tokKind uint8

const (
	// tokOther is text, a comment, a processing instruction or a
	// directive: the parser ignores it.
	tokOther tokKind = iota
	// tokStart is a start element (name and attributes).
	tokStart
	// tokEnd is an end element (name), also after a self-closing tag.
	tokEnd
)

// token is one token of the document, filled in place (no interface value
// per token). attr may be reused by the next token.
type token struct {
	kind tokKind
	name xml.Name
	attr []xml.Attr
}

// tokenSource is what the parser reads: the scanner, or encoding/xml's
// Decoder (RawToken) when dec is set. It is a concrete type, not an
// interface, so that the parser's token stays on its stack (no write
// barriers when the scanner fills it).
type tokenSource struct {
	fast *scanner
	dec  *xml.Decoder
}

// next reads the next token into t; io.EOF at the end.
func (x *tokenSource) next(t *token) error {
	if x.dec == nil {
		return x.fast.next(t)
	}
	tok, err := x.dec.RawToken()
	if err != nil {
		return err
	}
	switch tok := tok.(type) {
	case xml.StartElement:
		*t = token{kind: tokStart, name: tok.Name, attr: tok.Attr}
	case xml.EndElement:
		*t = token{kind: tokEnd, name: tok.Name}
	default:
		*t = token{kind: tokOther}
	}
	return nil
}

// inputPos returns the 1-based line and column just after the last token
// read, for error messages.
func (x *tokenSource) inputPos() (line, column int) {
	if x.dec != nil {
		return x.dec.InputPos()
	}
	done := x.fast.doc[:x.fast.pos]
	line = 1 + strings.Count(done, "\n")
	return line, len(done) - strings.LastIndexByte(done, '\n')
}

// scanner is a tokenizer over a whole document held as one string; names
// and attribute values are substrings of it (no copy per attribute). The
// Attr slice of a StartElement is reused by the next token: the parser
// copies what it keeps.
type scanner struct {
	doc   string
	pos   int
	attrs []xml.Attr
	// closing is the name of a self-closing element whose EndElement is
	// due next ("" when none).
	closing string
}

// Byte classes of the scanner, read-only.
const (
	classSpace = 1 << iota // ' ', '\t', '\n'
	classNameStart
	className
	classPlain // may stand for itself in text or a value
)

var byteClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		if b == ' ' || b == '\t' || b == '\n' {
			t[c] |= classSpace
		}
		start := b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_'
		if start {
			t[c] |= classNameStart
		}
		if start || b >= '0' && b <= '9' || b == '.' || b == '-' {
			t[c] |= className
		}
		if b >= 0x20 && b < 0x7f && b != '&' && b != '<' || b == '\t' || b == '\n' {
			t[c] |= classPlain
		}
	}
	return t
}()

func isSpace(c byte) bool { return byteClass[c]&classSpace != 0 }

func isNameStart(c byte) bool { return byteClass[c]&classNameStart != 0 }

func isNameByte(c byte) bool { return byteClass[c]&className != 0 }

// plain reports whether c may appear in text or an attribute value as
// itself (printable ASCII but & and <, tab or newline).
func plain(c byte) bool { return byteClass[c]&classPlain != 0 }

// name reads a name at s.pos.
func (s *scanner) name() (string, bool) {
	start := s.pos
	if start >= len(s.doc) || !isNameStart(s.doc[start]) {
		return "", false
	}
	i := start + 1
	for i < len(s.doc) && isNameByte(s.doc[i]) {
		i++
	}
	s.pos = i
	return s.doc[start:i], true
}

func (s *scanner) spaces() int {
	n := 0
	for s.pos < len(s.doc) && isSpace(s.doc[s.pos]) {
		s.pos++
		n++
	}
	return n
}

// next reads the next start or end element into t (text between
// elements, which must be plain, is skipped: the parser ignores it). It
// returns io.EOF at the end, or errFallback.
func (s *scanner) next(t *token) error {
	if s.closing != "" {
		*t = token{kind: tokEnd, name: xml.Name{Local: s.closing}}
		s.closing = ""
		return nil
	}
	doc := s.doc
	for s.pos < len(doc) && doc[s.pos] != '<' {
		// "]]>" is an error in text (not in attribute values): leave any
		// ']' in text to encoding/xml.
		if c := doc[s.pos]; !plain(c) || c == ']' {
			return errFallback
		}
		s.pos++
	}
	if s.pos >= len(doc) {
		return io.EOF
	}
	s.pos++ // '<'
	if s.pos < len(doc) && doc[s.pos] == '/' {
		s.pos++
		n, ok := s.name()
		if !ok {
			return errFallback
		}
		s.spaces()
		if s.pos >= len(doc) || doc[s.pos] != '>' {
			return errFallback
		}
		s.pos++
		*t = token{kind: tokEnd, name: xml.Name{Local: n}}
		return nil
	}
	n, ok := s.name()
	if !ok {
		return errFallback
	}
	s.attrs = s.attrs[:0]
	for {
		sp := s.spaces()
		if s.pos >= len(doc) {
			return errFallback
		}
		switch doc[s.pos] {
		case '>':
			s.pos++
			*t = token{kind: tokStart, name: xml.Name{Local: n}, attr: s.attrs}
			return nil
		case '/':
			if s.pos+1 >= len(doc) || doc[s.pos+1] != '>' {
				return errFallback
			}
			s.pos += 2
			s.closing = n
			*t = token{kind: tokStart, name: xml.Name{Local: n}, attr: s.attrs}
			return nil
		}
		if sp == 0 {
			return errFallback
		}
		an, ok := s.name()
		if !ok {
			return errFallback
		}
		s.spaces()
		if s.pos >= len(doc) || doc[s.pos] != '=' {
			return errFallback
		}
		s.pos++
		s.spaces()
		if s.pos >= len(doc) || doc[s.pos] != '"' && doc[s.pos] != '\'' {
			return errFallback
		}
		q := doc[s.pos]
		s.pos++
		start := s.pos
		for s.pos < len(doc) && doc[s.pos] != q {
			if !plain(doc[s.pos]) {
				return errFallback
			}
			s.pos++
		}
		if s.pos >= len(doc) {
			return errFallback
		}
		v := doc[start:s.pos]
		s.pos++
		s.attrs = append(s.attrs, xml.Attr{Name: xml.Name{Local: an}, Value: v})
	}
}
