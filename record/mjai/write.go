package mjai

import (
	"bufio"
	"io"
)

// Write writes events to w as JSON Lines (one event and "\n" each). It
// returns the first write error.
func Write(w io.Writer, events []Event) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var b []byte
	for i := range events {
		b = append(events[i].AppendJSON(b[:0]), '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}
