package handcalc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// MaxLine is the longest input line ScoreLines reads, in bytes; a longer
// line gets an error result.
const MaxLine = 64 << 10

// Counts are the totals of a ScoreLines run.
type Counts struct {
	// Lines is the number of lines read; Wins, NoWins and Malformed split
	// them by result.
	Lines, Wins, NoWins, Malformed int
}

// DecodeRequest reads one JSON object into a Request (with
// github.com/go-json-experiment/json, the Go team's encoding/json/v2
// proposal: about twice as fast as encoding/json here). Unknown or
// repeated keys, a value of the wrong type, invalid UTF-8 and trailing
// data are errors (wrapping ErrMalformed) naming the key or the offset.
func DecodeRequest(line []byte) (Request, error) {
	var req Request
	if err := json.Unmarshal(line, &req, json.RejectUnknownMembers(true)); err != nil {
		return req, malformed("%s", jsonError(err, line))
	}
	if bytes.Equal(bytes.TrimSpace(line), []byte("null")) {
		return req, malformed("a JSON null where an object is wanted")
	}
	return req, nil
}

// requestKeys lists the keys of a Request, for error messages.
const requestKeys = "hand, win, melds, ron, riichi, double_riichi, ippatsu, haitei, houtei, rinshan, chankan, tenhou, chiihou, dora, ura, seat_wind, round_wind, honba, dealer, rules, players"

// jsonError rewords the decoder's errors for a user.
func jsonError(err error, line []byte) string {
	if len(bytes.TrimSpace(line)) == 0 {
		return "empty line: want a JSON object"
	}
	var se *json.SemanticError
	if errors.As(err, &se) {
		key := strings.TrimPrefix(string(se.JSONPointer), "/")
		switch {
		case errors.Is(se.Err, json.ErrUnknownName):
			return fmt.Sprintf("unknown key %q (keys: %s)", key, requestKeys)
		case key == "" && se.JSONKind != '{':
			return fmt.Sprintf("a JSON %s where an object is wanted", kindName(se.JSONKind))
		case se.GoType != nil:
			return fmt.Sprintf("key %q: a JSON %s where a %v is wanted", key, kindName(se.JSONKind), se.GoType)
		}
	}
	var syn *jsontext.SyntacticError
	if errors.As(err, &syn) {
		if key := strings.TrimPrefix(string(syn.JSONPointer), "/"); key != "" {
			return fmt.Sprintf("key %q: %v at byte %d", key, syn.Err, syn.ByteOffset)
		}
		return fmt.Sprintf("not a JSON object: %v at byte %d", syn.Err, syn.ByteOffset)
	}
	return "not a JSON object: " + err.Error()
}

// kindName names a JSON kind.
func kindName(k jsontext.Kind) string {
	switch k {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case '0':
		return "number"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "value"
}

// errorLine is the JSON form of a failed line.
type errorLine struct {
	OK    bool   `json:"ok"`
	Error string `json:"error"`
}

// ScoreLines reads one JSON Request per line from r and writes one JSON
// Result per line to w, in the same order. A malformed line or a hand
// that does not win gives {"ok":false,"error":"line N: …"} and the run
// goes on. Output is flushed whenever no more input is buffered, so a
// program can use the calculator interactively through a pipe. It stops
// at the end of r, when ctx is done (returning ctx.Err()), or on a read
// or write error (returned, wrapped).
func ScoreLines(ctx context.Context, r io.Reader, w io.Writer) (Counts, error) {
	var n Counts
	var memo rulesMemo
	br := bufio.NewReaderSize(r, MaxLine)
	bw := bufio.NewWriter(w)
	enc := jsontext.NewEncoder(bw) // one result a line (jsontext ends each top-level value with a newline)
	for {
		if err := ctx.Err(); err != nil {
			bw.Flush()
			return n, err
		}
		if br.Buffered() == 0 {
			if err := bw.Flush(); err != nil {
				return n, fmt.Errorf("writing results: %w", err)
			}
		}
		line, tooLong, err := readLine(br)
		if err != nil && !errors.Is(err, io.EOF) {
			bw.Flush()
			return n, fmt.Errorf("reading requests: %w", err)
		}
		if len(line) == 0 && !tooLong && errors.Is(err, io.EOF) {
			break
		}
		n.Lines++
		var res Result
		var serr error
		if tooLong {
			serr = malformed("line longer than %d bytes", MaxLine)
		} else {
			var req Request
			if req, serr = DecodeRequest(line); serr == nil {
				res, serr = score(&req, &memo)
			}
		}
		var out any = &res
		switch {
		case serr == nil:
			n.Wins++
		default:
			if errors.Is(serr, ErrNoWin) {
				n.NoWins++
			} else {
				n.Malformed++
			}
			out = errorLine{Error: fmt.Sprintf("line %d: %v", n.Lines, serr)}
		}
		if err := json.MarshalEncode(enc, out); err != nil {
			return n, fmt.Errorf("writing results: %w", err)
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	if err := bw.Flush(); err != nil {
		return n, fmt.Errorf("writing results: %w", err)
	}
	return n, nil
}

// readLine returns the next line without its "\n" (and "\r"). A line
// longer than the reader's buffer is skipped to its end and reported as
// tooLong. err is io.EOF with the last line when it has no "\n".
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	line, err = br.ReadSlice('\n')
	for errors.Is(err, bufio.ErrBufferFull) {
		tooLong = true
		_, err = br.ReadSlice('\n')
	}
	if tooLong {
		return nil, true, err
	}
	line = bytes.TrimSuffix(line, []byte("\n"))
	line = bytes.TrimSuffix(line, []byte("\r"))
	return line, false, err
}
