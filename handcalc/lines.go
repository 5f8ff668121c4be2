package handcalc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// DecodeRequest reads one JSON object into a Request. Unknown keys, a
// value of the wrong type or trailing data are errors (wrapping
// ErrMalformed) naming the key or the offset.
func DecodeRequest(line []byte) (Request, error) {
	var req Request
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return req, malformed("%s", jsonError(err))
	}
	if dec.More() {
		return req, malformed("data after the JSON object")
	}
	return req, nil
}

// jsonError rewords encoding/json's errors for a user.
func jsonError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return fmt.Sprintf("a JSON %s where an object is wanted", te.Value)
		}
		return fmt.Sprintf("key %q: a JSON %s where a %v is wanted", te.Field, te.Value, te.Type)
	}
	if errors.Is(err, io.EOF) {
		return "empty line: want a JSON object"
	}
	msg := err.Error()
	const prefix = "json: unknown field "
	if len(msg) > len(prefix) && msg[:len(prefix)] == prefix {
		return "unknown key " + msg[len(prefix):] + " (keys: hand, win, melds, ron, riichi, double_riichi, ippatsu, haitei, houtei, rinshan, chankan, tenhou, chiihou, dora, ura, seat_wind, round_wind, honba, dealer, rules, players)"
	}
	return "not a JSON object: " + msg
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
	br := bufio.NewReaderSize(r, MaxLine)
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
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
				res, serr = Score(req)
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
		if err := enc.Encode(out); err != nil {
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
