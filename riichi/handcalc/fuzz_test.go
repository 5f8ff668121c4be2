package handcalc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"testing"
)

// FuzzScoreLine feeds arbitrary lines to DecodeRequest and Score: neither
// may panic, every failure must wrap ErrMalformed or ErrNoWin, and a win
// must have at least one han and positive points. The seeds are the
// requests of testdata/examples.jsonl and the lines of
// testdata/malformed.jsonl.
func FuzzScoreLine(f *testing.F) {
	for _, name := range []string{"testdata/examples.jsonl", "testdata/malformed.jsonl"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			var seed struct {
				Request json.RawMessage
				Line    *string
			}
			if err := json.Unmarshal(sc.Bytes(), &seed); err != nil {
				f.Fatal(err)
			}
			if seed.Line != nil {
				f.Add([]byte(*seed.Line))
			} else {
				f.Add([]byte(seed.Request))
			}
		}
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		req, err := DecodeRequest(line)
		if err == nil {
			var res Result
			res, err = Score(req)
			if err == nil && (res.Han < 1 || res.Points <= 0 || len(res.Payments) == 0) {
				t.Errorf("%s: a win with %+v", line, res)
			}
		}
		if err != nil && !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrNoWin) {
			t.Errorf("%s: error %v wraps neither ErrMalformed nor ErrNoWin", line, err)
		}
	})
}
