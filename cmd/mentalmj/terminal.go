package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/wall"
)

// terminalPlayer asks a human for each dahai on the terminal.
type terminalPlayer struct {
	in  io.Reader
	out io.Writer
	br  *bufio.Reader
}

// Dahai shows the hand and reads a tile name (e.g. 5m, 0p for the red
// five), a 1-based index into the hand as shown, or an empty line for
// tsumogiri.
func (p *terminalPlayer) Dahai(ctx context.Context, v protocol.TurnView) (int, error) {
	if p.br == nil {
		p.br = bufio.NewReader(p.in)
	}
	var names []string
	for i, t := range v.Hand {
		names = append(names, fmt.Sprintf("%d:%s", i+1, t.Tile))
	}
	fmt.Fprintf(p.out, "\ndora indicator %s, %d tiles left in the live wall\nyour hand: %s\n", v.DoraIndicator, v.LiveLeft, strings.Join(names, " "))
	for {
		fmt.Fprintf(p.out, "dahai (tile like 5m, number 1-%d, Enter = tsumogiri %s): ", len(v.Hand), v.Hand[len(v.Hand)-1].Tile)
		line, err := readLine(ctx, p.br)
		if err != nil {
			return 0, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			return len(v.Hand) - 1, nil
		}
		if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(v.Hand) {
			return n - 1, nil
		}
		if k, red, err := wall.ParseTileName(line); err == nil {
			for i := len(v.Hand) - 1; i >= 0; i-- {
				if t := v.Hand[i].Tile; t.Kind() == k && t.IsRed() == red {
					return i, nil
				}
			}
			fmt.Fprintf(p.out, "you hold no %s\n", line)
			continue
		}
		fmt.Fprintf(p.out, "%q is neither a tile name nor a number from 1 to %d\n", line, len(v.Hand))
	}
}

func readLine(ctx context.Context, br *bufio.Reader) (string, error) {
	type result struct {
		s   string
		err error
	}
	ch := make(chan result, 1)
	go func() {
		s, err := br.ReadString('\n')
		ch <- result{s, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil && (r.s == "" || !errors.Is(r.err, io.EOF)) {
			return "", fmt.Errorf("reading dahai from the terminal: %w", r.err)
		}
		return r.s, nil
	case <-ctx.Done():
		return "", fmt.Errorf("no dahai chosen in time: %w", ctx.Err())
	}
}
