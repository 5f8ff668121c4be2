package tenhou6

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// appendString appends s as a JSON string the way encoding/json writes it
// with HTML escaping off: '"', '\\' and control characters escaped, U+2028
// and U+2029 as \u2028 and \u2029, everything else as UTF-8. Invalid UTF-8
// is left to encoding/json (which writes U+FFFD).
func appendString(b []byte, s string) []byte {
	if !utf8.ValidString(s) {
		q, _ := json.Marshal(s)
		return append(b, q...)
	}
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r < 0x20 || r == 0x2028 || r == 0x2029:
			b = fmt.Appendf(b, `\u%04x`, r)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

// appendFloat appends f as encoding/json does for a float64 in the ranges
// Tenhou's files use (no exponent between 1e-6 and 1e21).
func appendFloat(b []byte, f float64) []byte {
	if a := f; a != 0 && (a < 1e-6 && a > -1e-6 || a >= 1e21 || a <= -1e21) {
		q, _ := json.Marshal(f)
		return append(b, q...)
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64)
}

// appendAny appends the values a Kyoku holds: int, string, []int and
// []any of those.
func appendAny(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case string:
		return appendString(b, v), nil
	case []int:
		if v == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(x), 10)
		}
		return append(b, ']'), nil
	case []any:
		if v == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendAny(b, x); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case Kyoku:
		return appendAny(b, []any(v))
	}
	// Anything else (a Kyoku built by hand) goes through encoding/json.
	q, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, q...), nil
}

func appendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

func appendFloats(b []byte, fs []float64) []byte {
	if fs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, f := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendFloat(b, f)
	}
	return append(b, ']')
}

// AppendJSON appends l as compact JSON, keys in Tenhou's order, as
// encoding/json would write the Log struct with HTML escaping off. It
// returns an error only for a Kyoku holding a value encoding/json cannot
// write.
func (l *Log) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"ver":`...)
	b = appendFloat(b, l.Ver)
	b = append(b, `,"ref":`...)
	b = appendString(b, l.Ref)
	b = append(b, `,"log":`...)
	if l.Log == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, k := range l.Log {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendAny(b, []any(k)); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	if len(l.Connection) > 0 {
		b = append(b, `,"connection":[`...)
		for i, c := range l.Connection {
			if i > 0 {
				b = append(b, ',')
			}
			b = fmt.Appendf(b, `{"what":%d,"log":%d,"who":%d,"step":%d}`, c.What, c.Log, c.Who, c.Step)
		}
		b = append(b, ']')
	}
	b = append(b, `,"ratingc":`...)
	b = appendString(b, l.RatingC)
	b = append(b, `,"rule":{"disp":`...)
	b = appendString(b, l.Rule.Disp)
	b = fmt.Appendf(b, `,"aka53":%d,"aka52":%d,"aka51":%d`, l.Rule.Aka53, l.Rule.Aka52, l.Rule.Aka51)
	if l.Rule.House != "" {
		b = append(b, `,"mentalmj_rules":`...)
		b = appendString(b, l.Rule.House)
	}
	b = fmt.Appendf(b, `},"lobby":%d,"dan":`, l.Lobby)
	b = appendStrings(b, l.Dan)
	b = append(b, `,"rate":`...)
	b = appendFloats(b, l.Rate)
	b = append(b, `,"sx":`...)
	b = appendStrings(b, l.Sx)
	b = append(b, `,"sc":`...)
	b = appendFloats(b, l.Sc)
	b = append(b, `,"name":`...)
	b = appendStrings(b, l.Name)
	return append(b, '}'), nil
}

// Encode writes l to w as one line of compact JSON (as Tenhou serves it,
// non-ASCII characters unescaped) followed by a newline. It returns the
// writer's error.
func (l *Log) Encode(w io.Writer) error {
	b, err := l.AppendJSON(make([]byte, 0, 32<<10))
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
