package i18n

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Msg is a message not yet put in words: a catalogue key and its
// arguments, each a string or number as the message's verbs take it, or
// a Msg said first (a seat's name with its wind, a yaku). The key "list"
// says its arguments after the first joined by the first (List).
// A model builds Msgs so that each view says them in its own language
// (Lang.Say; the pages' I18n.say, the same rules); in JSON it is
// {"key": KEY, "args": [...]}.
type Msg struct {
	Key  string `json:"key"`
	Args []any  `json:"args,omitempty"`
}

// M returns the Msg of key with args.
func M(key string, args ...any) Msg { return Msg{Key: key, Args: args} }

// List returns the Msg that says items joined by the message sep ("list.sep"
// is ", " in English, "、" in Japanese; "list.semi" "; " and "；").
func List(sep string, items ...any) Msg {
	return Msg{Key: "list", Args: append([]any{M(sep)}, items...)}
}

// Join returns the Msg that says items one after the other ("" items
// say nothing).
func Join(items ...any) Msg { return Msg{Key: "list", Args: append([]any{""}, items...)} }

// Say returns m in l's language (English for a nil l): its Msg arguments
// said first, then the message formatted as T does.
func (l *Lang) Say(m Msg) string {
	args := make([]any, len(m.Args))
	for i, a := range m.Args {
		switch a := a.(type) {
		case Msg:
			args[i] = l.Say(a)
		case *Msg:
			args[i] = l.Say(*a)
		default:
			args[i] = a
		}
	}
	if m.Key == "list" && len(args) > 0 {
		s := make([]string, len(args)-1)
		for i, a := range args[1:] {
			s[i] = fmt.Sprint(a)
		}
		return strings.Join(s, fmt.Sprint(args[0]))
	}
	return l.T(m.Key, args...)
}

// UnmarshalJSON reads a Msg as MarshalJSON writes it ({"key": KEY,
// "args": [...]}), so that a Msg sent between processes (a node's
// progress events) is said again: an argument that is an object with a
// "key" is a Msg, and a JSON number that is a whole number is an int (for
// the messages' %d).
func (m *Msg) UnmarshalJSON(b []byte) error {
	var raw struct {
		Key  string            `json:"key"`
		Args []json.RawMessage `json:"args"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	m.Key, m.Args = raw.Key, nil
	for _, a := range raw.Args {
		var v any
		if err := json.Unmarshal(a, &v); err != nil {
			return err
		}
		switch x := v.(type) {
		case map[string]any:
			if _, ok := x["key"]; ok {
				var sub Msg
				if err := sub.UnmarshalJSON(a); err != nil {
					return err
				}
				v = sub
			}
		case float64:
			if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
				v = int(x)
			}
		}
		m.Args = append(m.Args, v)
	}
	return nil
}
