package mjai

import (
	"bufio"
	"io"
)

// Write writes events to w as JSON Lines (one event and "\n" each). It
// returns the first write error.
func Write(w io.Writer, events []Event) error {
	bw := bufio.NewWriter(w)
	for _, e := range events {
		b, _ := e.MarshalJSON()
		bw.Write(b)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
