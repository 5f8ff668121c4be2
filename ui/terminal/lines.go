package terminal

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"time"
	"unicode"
)

// Line is one line of input and when it arrived.
type Line struct {
	Text string
	At   time.Time
}

// Lines reads an input stream line by line on its own goroutine, for the
// whole game.
type Lines struct {
	ch  chan Line
	err error // set before ch is closed
}

// NewLines starts reading r. Each line has its control characters (NUL,
// escape sequences' ESC, a trailing CR) removed and surrounding space
// trimmed. Lines longer than 4096 bytes are cut.
func NewLines(r io.Reader) *Lines {
	l := &Lines{ch: make(chan Line, 64)}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 4096), 64<<10)
		for sc.Scan() {
			l.ch <- Line{Text: clean(sc.Text()), At: time.Now()}
		}
		l.err = sc.Err()
		if l.err == nil {
			l.err = io.EOF
		}
		close(l.ch)
	}()
	return l
}

func clean(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
	if len(s) > 4096 {
		s = s[:4096]
	}
	return strings.TrimSpace(s)
}

// ErrClosed is returned by Next when the input has ended.
var ErrClosed = errors.New("input closed")

// Next returns the next line that arrived at or after since; older lines
// are passed to stale (if not nil) and skipped. It returns ctx's error
// when ctx ends first — the line, if any comes later, stays for the next
// call — and an error wrapping ErrClosed at the end of input.
func (l *Lines) Next(ctx context.Context, since time.Time, stale func(Line)) (Line, error) {
	for {
		select {
		case ln, ok := <-l.ch:
			if !ok {
				return Line{}, errors.Join(ErrClosed, l.err)
			}
			if ln.At.Before(since) {
				if stale != nil {
					stale(ln)
				}
				continue
			}
			return ln, nil
		case <-ctx.Done():
			return Line{}, ctx.Err()
		}
	}
}
