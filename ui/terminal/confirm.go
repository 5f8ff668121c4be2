package terminal

import (
	"fmt"
	"io"
	"strings"
)

// Confirm prints question and " [y/N] " on out and reads one line from
// in: it returns true for "y" or "yes" (any case, surrounding space
// ignored) and false for anything else, an empty line, or the end of the
// input (no is the default). It reads in one byte at a time, so nothing
// after that line is taken from in: a table reading in later
// (NewLines) gets the rest whole. At most 256 bytes of the line are kept.
func Confirm(in io.Reader, out io.Writer, question string) bool {
	fmt.Fprintf(out, "%s [y/N] ", question)
	var line []byte
	var b [1]byte
	for {
		n, err := in.Read(b[:])
		if n == 1 {
			if b[0] == '\n' {
				break
			}
			if len(line) < 256 {
				line = append(line, b[0])
			}
		}
		if err != nil {
			fmt.Fprintln(out)
			break
		}
	}
	switch strings.ToLower(clean(string(line))) {
	case "y", "yes":
		return true
	}
	return false
}
