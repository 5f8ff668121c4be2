package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// terminalPlayer asks a human for each action on the terminal.
type terminalPlayer struct {
	in  io.Reader
	out io.Writer
	br  *bufio.Reader
}

// Act shows the table and the legal actions, numbered, and reads a number,
// a tile name to discard it (e.g. 5m, 0p for the red five), "r TILE" to
// discard it declaring riichi, or an empty line for the default (discard
// the drawn tile, pass, or the only declaration allowed).
func (p *terminalPlayer) Act(ctx context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) {
	legal := distinctActions(v.LegalActions(s))
	if len(legal) == 0 {
		return game.Action{}, errors.New("no legal action")
	}
	if len(legal) == 1 {
		return legal[0], nil
	}
	if p.br == nil {
		p.br = bufio.NewReader(p.in)
	}
	p.show(v, s)
	def, _ := protocolDefault(ctx, v, s)
	for i, a := range legal {
		fmt.Fprintf(p.out, "  %2d  %s\n", i+1, a)
	}
	for {
		fmt.Fprintf(p.out, "your action (number, tile to discard, r TILE for riichi; Enter = %s): ", def)
		line, err := readLine(ctx, p.br)
		if err != nil {
			return game.Action{}, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			return def, nil
		}
		if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(legal) {
			return legal[n-1], nil
		}
		riichiDecl := false
		if rest, ok := strings.CutPrefix(line, "r "); ok {
			riichiDecl, line = true, strings.TrimSpace(rest)
		}
		if k, red, err := wall.ParseTileName(line); err == nil {
			i := slices.IndexFunc(legal, func(a game.Action) bool {
				return a.Type == game.Discard && a.Riichi == riichiDecl && a.Tile.Kind() == k && a.Tile.IsRed() == red
			})
			if i >= 0 {
				return legal[i], nil
			}
		}
		fmt.Fprintf(p.out, "%q is not one of the actions above\n", line)
	}
}

func (p *terminalPlayer) show(v *game.Kyoku, s game.Seat) {
	tiles, _ := v.Hand(s)
	sorted := slices.Clone(tiles)
	slices.Sort(sorted)
	fmt.Fprintf(p.out, "\n%s, honba %d, dora indicators %v, %d tiles left, scores %v\n", game.RoundName(v.Round()), v.Honba(), v.DoraIndicators(), v.LiveLeft(), v.Scores())
	for q := game.Seat(0); q < 4; q++ {
		var river []string
		for _, r := range v.River(q) {
			river = append(river, r.Tile.String())
		}
		var melds []string
		for _, m := range v.Melds(q) {
			melds = append(melds, riichi.FormatHand(m.Tiles))
		}
		mark := ""
		if q == s {
			mark = " (you)"
		}
		fmt.Fprintf(p.out, "seat %d%s: river %s melds %s\n", q, mark, strings.Join(river, " "), strings.Join(melds, " "))
	}
	fmt.Fprintf(p.out, "your hand: %s", riichi.FormatHand(sorted))
	if v.Phase() == game.PhaseTurn && v.Turn() == s && len(tiles) > 0 {
		fmt.Fprintf(p.out, " (drew %s)", tiles[len(tiles)-1])
	}
	fmt.Fprintln(p.out)
	if t, _, from, _, ok := v.Offer(); ok {
		fmt.Fprintf(p.out, "on offer: %s from seat %d\n", t, from)
	}
}

// distinctActions drops actions that read the same as an earlier one (a
// discard of either of two identical tiles, say), keeping the first.
func distinctActions(legal []game.Action) []game.Action {
	var out []game.Action
	seen := map[string]bool{}
	for _, a := range legal {
		if k := a.String(); !seen[k] {
			seen[k] = true
			out = append(out, a)
		}
	}
	return out
}

// protocolDefault is the action taken on an empty line: what the
// protocol's Tsumogiri player would do.
func protocolDefault(ctx context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) {
	return tsumogiri.Act(ctx, v, s)
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
			return "", fmt.Errorf("reading from the terminal: %w", r.err)
		}
		return r.s, nil
	case <-ctx.Done():
		return "", fmt.Errorf("no action chosen in time: %w", ctx.Err())
	}
}
