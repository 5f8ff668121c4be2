package mjlog

import (
	"encoding/xml"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/mentalmj/mentalmj/wall"
)

// tag is one start element being interpreted; its methods parse attribute
// values and build errors that name the file, the tag and the attribute.
type tag struct {
	file  string
	name  string
	attrs []xml.Attr
}

// errMissing is wrapped when a required attribute is absent.
var errMissing = errors.New("missing attribute")

func (t *tag) errf(format string, a ...any) error {
	return fmt.Errorf("%s: <%s>: %w", t.file, t.name, fmt.Errorf(format, a...))
}

func (t *tag) attrErr(attr, value string, err error) error {
	return fmt.Errorf("%s: <%s> attribute %s: %q: %w", t.file, t.name, attr, value, err)
}

// get returns the value of attribute name and whether it is present.
func (t *tag) get(name string) (string, bool) {
	for _, a := range t.attrs {
		if a.Name.Local == name && a.Name.Space == "" {
			return a.Value, true
		}
	}
	return "", false
}

// need returns the value of a required attribute.
func (t *tag) need(name string) (string, error) {
	v, ok := t.get(name)
	if !ok {
		return "", fmt.Errorf("%s: <%s> attribute %s: %w", t.file, t.name, name, errMissing)
	}
	return v, nil
}

// extra returns the attributes whose names are not in known, in order.
func (t *tag) extra(known ...string) []Attr {
	var out []Attr
	for _, a := range t.attrs {
		name := attrName(a.Name)
		found := false
		for _, k := range known {
			if name == k {
				found = true
				break
			}
		}
		if !found {
			out = append(out, Attr{Name: name, Value: a.Value})
		}
	}
	return out
}

func attrName(n xml.Name) string {
	if n.Space != "" {
		return n.Space + ":" + n.Local
	}
	return n.Local
}

// intAttr parses a required integer attribute in [lo, hi].
func (t *tag) intAttr(name string, lo, hi int) (int, error) {
	v, err := t.need(name)
	if err != nil {
		return 0, err
	}
	n, err := parseInt(v, lo, hi)
	if err != nil {
		return 0, t.attrErr(name, v, err)
	}
	return n, nil
}

// optIntAttr parses an optional integer attribute, def when absent.
func (t *tag) optIntAttr(name string, lo, hi, def int) (int, error) {
	if _, ok := t.get(name); !ok {
		return def, nil
	}
	return t.intAttr(name, lo, hi)
}

// intsAttr parses an optional comma-separated integer list; nil when the
// attribute is absent or empty. want > 0 requires exactly want values.
func (t *tag) intsAttr(name string, want int) ([]int, error) {
	v, ok := t.get(name)
	if !ok || v == "" {
		if want > 0 && ok {
			return nil, t.attrErr(name, v, fmt.Errorf("want %d values", want))
		}
		return nil, nil
	}
	count := strings.Count(v, ",") + 1
	if want > 0 && count != want {
		return nil, t.attrErr(name, v, fmt.Errorf("%d values, want %d", count, want))
	}
	out := make([]int, 0, count)
	for f := range strings.SplitSeq(v, ",") {
		n, err := parseInt(f, math.MinInt32, math.MaxInt32)
		if err != nil {
			return nil, t.attrErr(name, v, err)
		}
		out = append(out, n)
	}
	return out, nil
}

// tilesAttr parses an optional comma-separated tile id list; nil when
// absent or empty.
func (t *tag) tilesAttr(name string) ([]wall.Tile, error) {
	v, ok := t.get(name)
	if !ok || v == "" {
		return nil, nil
	}
	out := make([]wall.Tile, 0, strings.Count(v, ",")+1)
	for f := range strings.SplitSeq(v, ",") {
		n, err := parseTile(f)
		if err != nil {
			return nil, t.attrErr(name, v, err)
		}
		out = append(out, n)
	}
	return out, nil
}

// haiAttr is tilesAttr for an <INIT> hai list, where view also accepts
// "?" as a Hidden tile.
func (t *tag) haiAttr(name string, view bool) ([]wall.Tile, error) {
	v, ok := t.get(name)
	if !ok || v == "" {
		return nil, nil
	}
	out := make([]wall.Tile, 0, strings.Count(v, ",")+1)
	for f := range strings.SplitSeq(v, ",") {
		if f == "?" {
			if !view {
				return nil, t.attrErr(name, v, errHidden)
			}
			out = append(out, Hidden)
			continue
		}
		n, err := parseTile(f)
		if err != nil {
			return nil, t.attrErr(name, v, err)
		}
		out = append(out, n)
	}
	return out, nil
}

// tileAttr parses a required single tile id.
func (t *tag) tileAttr(name string) (wall.Tile, error) {
	v, err := t.need(name)
	if err != nil {
		return 0, err
	}
	n, err := parseTile(v)
	if err != nil {
		return 0, t.attrErr(name, v, err)
	}
	return n, nil
}

// owariAttr parses an optional owari="score,points,…" attribute.
func (t *tag) owariAttr() (*Owari, error) {
	v, ok := t.get("owari")
	if !ok {
		return nil, nil
	}
	fields := strings.Split(v, ",")
	if len(fields)%2 != 0 {
		return nil, t.attrErr("owari", v, errors.New("odd number of values, want score,points pairs"))
	}
	o := &Owari{Scores: make([]int, len(fields)/2), Points: make([]float64, len(fields)/2)}
	for i := 0; i < len(fields); i += 2 {
		s, err := parseInt(fields[i], math.MinInt32, math.MaxInt32)
		if err != nil {
			return nil, t.attrErr("owari", v, err)
		}
		p, err := parseFloat(fields[i+1])
		if err != nil {
			return nil, t.attrErr("owari", v, err)
		}
		o.Scores[i/2], o.Points[i/2] = s, p
	}
	return o, nil
}

// baAttr parses ba="honba,kyotaku" (0,0 when absent).
func (t *tag) baAttr() (honba, kyotaku int, err error) {
	ba, err := t.intsAttr("ba", 2)
	if err != nil || ba == nil {
		return 0, 0, err
	}
	return ba[0], ba[1], nil
}

// parseInt parses a decimal integer in [lo, hi].
func parseInt(s string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, err
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("%d out of range %d..%d", n, lo, hi)
	}
	return n, nil
}

// parseTile parses a Tenhou tile id 0..135.
func parseTile(s string) (wall.Tile, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, err
	}
	if !wall.Tile(n).Valid() {
		return 0, fmt.Errorf("tile id %d out of range 0..135", n)
	}
	return wall.Tile(n), nil
}

// parseFloat parses a finite decimal number.
func parseFloat(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, err
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%q is not a finite number", s)
	}
	return f, nil
}

// decodeName decodes a %-encoded UTF-8 player name.
func decodeName(s string) (string, error) {
	return url.PathUnescape(s)
}

// encodeName %-encodes every byte of name, as Tenhou does.
func encodeName(name string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(3 * len(name))
	for i := 0; i < len(name); i++ {
		c := name[i]
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
