package tenhou6

import (
	"errors"
	"strings"
	"testing"
)

// Read tells content that is no tenhou.net/6 document (ErrNotTenhou6) from
// a document that cannot be read, and names the file in both.
func TestReadErrors(t *testing.T) {
	for _, c := range []struct {
		name, data string
		not        bool   // wraps ErrNotTenhou6
		says       string // in the message
	}{
		{"mjai", `{"type":"start_game","names":["a","b","c","d"]}` + "\n" + `{"type":"end_game"}`, true, "no JSON object"},
		{"array", `[1, 2]`, true, "no JSON object"},
		{"text", `hello`, true, "no JSON object"},
		{"nolog", `{"name":["a","b","c","d"]}`, true, `"log"`},
		{"empty", `{"log":[]}`, false, `its "log" array is empty`},
		{"shape", `{"log":[[1,2,3]],"name":["a","b","c","d"]}`, false, "17-element"},
		{"broken", `{"log":[`, false, "does not decode"},
	} {
		_, err := Read([]byte(c.data), c.name+".json")
		switch {
		case err == nil:
			t.Errorf("%s: no error", c.name)
		case errors.Is(err, ErrNotTenhou6) != c.not:
			t.Errorf("%s: %v; want ErrNotTenhou6 %v", c.name, err, c.not)
		case !strings.HasPrefix(err.Error(), c.name+".json: ") || !strings.Contains(err.Error(), c.says):
			t.Errorf("%s: %q, want it to start with the file's name and say %q", c.name, err, c.says)
		case !c.not && errors.Unwrap(err) == nil:
			t.Errorf("%s: %v wraps no reason", c.name, err)
		}
	}
}
