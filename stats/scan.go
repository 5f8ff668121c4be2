package stats

import (
	"bytes"
	"errors"
	"fmt"
	"hash"
	"hash/fnv"
	"net/url"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
)

// ErrTruncated is wrapped by Scan for a record that ends before
// </mjloggm>: an incomplete download, or a game still being written.
var ErrTruncated = errors.New("cut short: the record ends before </mjloggm>")

// ErrNotMjlog is wrapped by Scan and ReadFile for input that is not a
// record stats reads at all (an mjlog, tenhou.net/6 JSON or a mentalmj
// transcript); the message says what it looks like.
var ErrNotMjlog = errors.New("not a game record stats reads")

// attr is one attribute of the tag being read: name and raw value, both
// slices of the document.
type attr struct{ name, value []byte }

// scanner holds the state of one Scan.
type scanner struct {
	doc   []byte
	pos   int
	file  string
	attrs []attr
	g     *Game
	// Per kyoku.
	inKyoku                 bool
	riichi, called, dealtIn [4]bool
	seenUN, seenGo, started bool
	kyoku                   int
	key                     hashWriter
}

// hashWriter feeds Game.Key.
type hashWriter struct{ h hash.Hash64 }

// ints adds fields first, first+step, … (n of them) of a comma-separated
// list, each as a number (a field that is not one as it is), so that the
// same values written two ways ("-5" and "-5.0" aside) hash the same.
func (w hashWriter) ints(list []byte, first, step, n int) {
	for i := range n {
		f, _ := field(list, first+i*step)
		if x, ok := atoi(f); ok {
			f = fmt.Appendf(nil, "%d", x)
		}
		w.add(f)
	}
}

// sep ends each part hashed (read-only).
var sep = []byte{0}

func (w hashWriter) add(parts ...[]byte) {
	for _, p := range parts {
		w.h.Write(p)
		w.h.Write(sep)
	}
}

// Scan reads one mjlog document (decompressed) and returns its Game, with
// File set to file. It returns an error naming file for input that is not
// an mjlog (wrapping ErrNotMjlog and saying what the root element is), a
// record cut short (ErrTruncated), malformed XML in a tag it reads (with
// the byte offset), a malformed number, seat, meld code (mjlog.ErrMeldCode)
// or owari, and a result outside a kyoku. Tsumo and dahai tags are skipped
// unread, so hidden tiles (private-hands records) are accepted.
func Scan(doc []byte, file string) (*Game, error) {
	h := fnv.New64a()
	s := &scanner{doc: doc, file: file, g: &Game{File: file, Players: 4}, attrs: make([]attr, 0, 24), key: hashWriter{h}}
	if err := s.run(); err != nil {
		return nil, err
	}
	s.g.Key = h.Sum64()
	return s.g, nil
}

// notMjlog says what the document looks like instead.
func (s *scanner) notMjlog() error {
	return fmt.Errorf("%s: %w: %s", s.file, ErrNotMjlog, Describe(s.doc))
}

// truncated reports the document ending inside the tag started at start.
func (s *scanner) truncated(tag []byte, start int) error {
	return fmt.Errorf("%s: %w (inside <%s> at byte %d)", s.file, ErrTruncated, tag, start)
}

// tagErr names the tag being read and its byte offset.
func (s *scanner) tagErr(tag []byte, start int, format string, a ...any) error {
	return fmt.Errorf("%s: <%s> at byte %d: %s", s.file, tag, start, fmt.Sprintf(format, a...))
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == ':'
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// skipTo moves past the next occurrence of end; false at the end of the
// document.
func (s *scanner) skipTo(end string) bool {
	i := bytes.Index(s.doc[s.pos:], []byte(end))
	if i < 0 {
		s.pos = len(s.doc)
		return false
	}
	s.pos += i + len(end)
	return true
}

// name reads a tag or attribute name at s.pos.
func (s *scanner) name() []byte {
	start := s.pos
	for s.pos < len(s.doc) && isNameByte(s.doc[s.pos]) {
		s.pos++
	}
	return s.doc[start:s.pos]
}

// readAttrs reads the attributes of the tag named tag (started at byte
// start) up to and including its '>' into s.attrs.
func (s *scanner) readAttrs(tag []byte, start int) error {
	s.attrs = s.attrs[:0]
	doc := s.doc
	for {
		for s.pos < len(doc) && isSpace(doc[s.pos]) {
			s.pos++
		}
		if s.pos >= len(doc) {
			return s.truncated(tag, start)
		}
		switch doc[s.pos] {
		case '>':
			s.pos++
			return nil
		case '/':
			if s.pos+1 < len(doc) && doc[s.pos+1] == '>' {
				s.pos += 2
				return nil
			}
			return s.tagErr(tag, start, "malformed XML: '/' not followed by '>'")
		}
		n := s.name()
		if s.pos >= len(doc) {
			return s.truncated(tag, start)
		}
		if len(n) == 0 {
			return s.tagErr(tag, start, "malformed XML: %q where an attribute name belongs", doc[s.pos])
		}
		for s.pos < len(doc) && isSpace(doc[s.pos]) {
			s.pos++
		}
		if s.pos >= len(doc) {
			return s.truncated(tag, start)
		}
		if doc[s.pos] != '=' {
			return s.tagErr(tag, start, "malformed XML: attribute %s without '='", n)
		}
		s.pos++
		for s.pos < len(doc) && isSpace(doc[s.pos]) {
			s.pos++
		}
		if s.pos >= len(doc) {
			return s.truncated(tag, start)
		}
		if doc[s.pos] != '"' && doc[s.pos] != '\'' {
			return s.tagErr(tag, start, "malformed XML: attribute %s without a quoted value", n)
		}
		q := doc[s.pos]
		s.pos++
		end := bytes.IndexByte(doc[s.pos:], q)
		if end < 0 {
			return s.truncated(tag, start)
		}
		s.attrs = append(s.attrs, attr{name: n, value: doc[s.pos : s.pos+end]})
		s.pos += end + 1
	}
}

// get returns the value of attribute name of the tag just read.
func (s *scanner) get(name string) ([]byte, bool) {
	for _, a := range s.attrs {
		if string(a.name) == name {
			return a.value, true
		}
	}
	return nil, false
}

// isPlayTag reports a tsumo or dahai tag: T/U/V/W/D/E/F/G followed by
// digits only (or nothing, a hidden tsumo).
func isPlayTag(doc []byte, pos int) bool {
	switch doc[pos] {
	case 'T', 'U', 'V', 'W', 'D', 'E', 'F', 'G':
	default:
		return false
	}
	i := pos + 1
	for i < len(doc) && doc[i] >= '0' && doc[i] <= '9' {
		i++
	}
	return i < len(doc) && (isSpace(doc[i]) || doc[i] == '/' || doc[i] == '>')
}

// run scans the document: the root, then every tag up to </mjloggm>.
func (s *scanner) run() error {
	doc := s.doc
	root := false
	for {
		i := bytes.IndexByte(doc[s.pos:], '<')
		if i < 0 {
			if !root {
				return s.notMjlog()
			}
			return fmt.Errorf("%s: %w after %d kyoku", s.file, ErrTruncated, s.kyoku)
		}
		start := s.pos + i
		s.pos = start + 1
		if s.pos >= len(doc) {
			return fmt.Errorf("%s: %w after %d kyoku", s.file, ErrTruncated, s.kyoku)
		}
		switch c := doc[s.pos]; {
		case c == '?':
			if !s.skipTo("?>") {
				return fmt.Errorf("%s: %w (inside <? at byte %d)", s.file, ErrTruncated, start)
			}
			continue
		case c == '!':
			end := ">"
			if bytes.HasPrefix(doc[s.pos:], []byte("!--")) {
				end = "-->"
			}
			if !s.skipTo(end) {
				return fmt.Errorf("%s: %w (inside <! at byte %d)", s.file, ErrTruncated, start)
			}
			continue
		case c == '/':
			s.pos++
			n := s.name()
			if !root {
				return s.notMjlog()
			}
			if !s.skipTo(">") {
				return fmt.Errorf("%s: %w after %d kyoku", s.file, ErrTruncated, s.kyoku)
			}
			if string(n) == "mjloggm" {
				s.endKyoku()
				return nil
			}
			continue
		case root && isPlayTag(doc, s.pos):
			// The bulk of a log: skip to the tag's end unread.
			j := bytes.IndexByte(doc[s.pos:], '>')
			if j < 0 {
				return fmt.Errorf("%s: %w after %d kyoku", s.file, ErrTruncated, s.kyoku)
			}
			s.pos += j + 1
			continue
		}
		tag := s.name()
		if len(tag) == 0 {
			if !root {
				return s.notMjlog()
			}
			return s.tagErr([]byte("?"), start, "malformed XML: %q after '<'", doc[s.pos])
		}
		if !root {
			if string(tag) != "mjloggm" {
				return s.notMjlog()
			}
			root = true
		}
		if err := s.readAttrs(tag, start); err != nil {
			return err
		}
		if err := s.element(tag, start); err != nil {
			return err
		}
	}
}

// atoi parses a decimal integer (optional sign) of at most 9 digits.
func atoi(b []byte) (int, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = 10*n + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// field returns field i of a comma-separated list and whether it exists.
func field(b []byte, i int) ([]byte, bool) {
	for ; i > 0; i-- {
		j := bytes.IndexByte(b, ',')
		if j < 0 {
			return nil, false
		}
		b = b[j+1:]
	}
	if j := bytes.IndexByte(b, ','); j >= 0 {
		b = b[:j]
	}
	return b, true
}

// seat reads attribute name as a seat of this game (0..Players-1).
func (s *scanner) seat(tag []byte, start int, name string) (int, error) {
	v, ok := s.get(name)
	if !ok {
		return 0, s.tagErr(tag, start, "missing attribute %s", name)
	}
	n, ok := atoi(v)
	if !ok || n < 0 || n >= s.g.Players {
		return 0, s.tagErr(tag, start, "attribute %s=%q: want a seat 0..%d", name, v, s.g.Players-1)
	}
	return n, nil
}

// element interprets a tag the figures need; others are ignored.
func (s *scanner) element(tag []byte, start int) error {
	g := s.g
	switch string(tag) {
	case "GO":
		if s.seenGo || s.started {
			return nil
		}
		s.seenGo = true
		v, _ := s.get("type")
		t, ok := atoi(v)
		if !ok || t < 0 {
			return s.tagErr(tag, start, "type=%q is not a rule number", v)
		}
		if t&0x10 != 0 {
			g.Players = 3
		}
	case "UN":
		if s.seenUN || s.started {
			return nil // a reconnection
		}
		s.seenUN = true
		for i := range 4 {
			v, _ := s.get("n" + string(rune('0'+i)))
			name, err := url.PathUnescape(string(v))
			if err != nil {
				return s.tagErr(tag, start, "n%d=%q: %v", i, v, err)
			}
			g.Names[i] = name
			s.key.add([]byte(name))
		}
	case "INIT":
		oya, _ := s.get("oya")
		if n, ok := atoi(oya); !ok || n < 0 || n >= g.Players {
			return s.tagErr(tag, start, "oya=%q: want a seat 0..%d", oya, g.Players-1)
		} else if !s.started {
			g.FirstOya = n
		}
		s.started = true
		s.endKyoku()
		s.inKyoku = true
		s.kyoku++
		for p := range g.Players {
			g.Seats[p].Kyoku++
		}
		// The key holds only what every format records: no dice, and the
		// dora indicator's kind, not its id.
		seed, _ := s.get("seed")
		ten, _ := s.get("ten")
		s.key.add([]byte("INIT"), oya)
		for i := range 3 {
			f, _ := field(seed, i)
			s.key.add(f)
		}
		f, _ := field(seed, 5)
		if n, ok := atoi(f); ok {
			s.key.add([]byte{byte(n / 4)})
		}
		s.key.ints(ten, 0, 1, g.Players)
	case "REACH":
		if !s.inKyoku {
			return s.tagErr(tag, start, "before the first <INIT>")
		}
		who, err := s.seat(tag, start, "who")
		if err != nil {
			return err
		}
		if v, _ := s.get("step"); string(v) == "1" {
			s.riichi[who] = true
		}
	case "N":
		if !s.inKyoku {
			return s.tagErr(tag, start, "before the first <INIT>")
		}
		who, err := s.seat(tag, start, "who")
		if err != nil {
			return err
		}
		v, _ := s.get("m")
		m, ok := atoi(v)
		if !ok || m < 0 || m > 0xFFFF {
			return s.tagErr(tag, start, "m=%q: want a meld code 0..65535", v)
		}
		md, err := mjlog.DecodeMeld(m)
		if err != nil {
			return s.tagErr(tag, start, "m=%d: %v", m, err)
		}
		switch md.Type {
		case riichi.Chi, riichi.Pon, riichi.Daiminkan, riichi.Kakan:
			s.called[who] = true
		}
	case "AGARI":
		if !s.inKyoku {
			return s.tagErr(tag, start, "before the first <INIT>")
		}
		who, err := s.seat(tag, start, "who")
		if err != nil {
			return err
		}
		from, err := s.seat(tag, start, "fromWho")
		if err != nil {
			return err
		}
		v, _ := s.get("ten")
		f, _ := field(v, 1)
		pts, ok := atoi(f)
		if !ok || pts < 0 {
			return s.tagErr(tag, start, "ten=%q: want fu,points,limit", v)
		}
		s.key.add([]byte{byte(who), byte(from)})
		t := &g.Seats[who]
		t.Wins++
		t.WinPoints += pts
		if who == from {
			t.TsumoWins++
		} else {
			s.dealtIn[from] = true
			g.Seats[from].DealIns++
			g.Seats[from].DealInPoints += pts
		}
		return s.result(tag, start)
	case "RYUUKYOKU":
		if !s.inKyoku {
			return s.tagErr(tag, start, "before the first <INIT>")
		}
		if v, _ := s.get("type"); len(v) == 0 || string(v) == "nm" {
			for p := range g.Players {
				g.Seats[p].DrawKyoku++
				if h, ok := s.get("hai" + string(rune('0'+p))); ok && len(h) > 0 {
					g.Seats[p].DrawTenpai++
				}
			}
		}
		return s.result(tag, start)
	}
	return nil
}

// result hashes a result's sc= and reads its owari=, if any.
func (s *scanner) result(tag []byte, start int) error {
	sc, _ := s.get("sc")
	s.key.add(tag)
	s.key.ints(sc, 1, 2, s.g.Players) // the deltas
	v, ok := s.get("owari")
	if !ok {
		return nil
	}
	s.key.ints(v, 0, 2, s.g.Players) // the final scores
	final := make([]int, s.g.Players)
	for p := range s.g.Players {
		f, ok := field(v, 2*p)
		n, num := atoi(f)
		if !ok || !num {
			return s.tagErr(tag, start, "owari=%q: want score,points pairs for %d players", v, s.g.Players)
		}
		final[p] = n
	}
	s.g.Final = final
	return nil
}

// endKyoku adds the kyoku's per-seat flags to the tallies.
func (s *scanner) endKyoku() {
	if !s.inKyoku {
		return
	}
	for p := range s.g.Players {
		t := &s.g.Seats[p]
		if s.riichi[p] {
			t.RiichiKyoku++
		}
		if s.called[p] {
			t.CallKyoku++
		}
		if s.dealtIn[p] {
			t.DealInKyoku++
		}
	}
	s.riichi, s.called, s.dealtIn = [4]bool{}, [4]bool{}, [4]bool{}
	s.inKyoku = false
}
