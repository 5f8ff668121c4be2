package main

import (
	"fmt"
	"strconv"
	"strings"
)

// parseMjaiBots reads local's --mjai-bot N=COMMAND values into a map from
// player number to command. It returns an error for a malformed value, a
// player outside 0..3, a player given twice, or player 0 with --play.
func parseMjaiBots(values []string, play bool) (map[int]string, error) {
	out := map[int]string{}
	for _, v := range values {
		n, c, ok := strings.Cut(v, "=")
		i, err := strconv.Atoi(n)
		switch {
		case !ok || err != nil || strings.TrimSpace(c) == "":
			return nil, fmt.Errorf("%q: want N=COMMAND with N the player number (0..3)", v)
		case i < 0 || i > 3:
			return nil, fmt.Errorf("%q: player %d outside 0..3", v, i)
		case play && i == 0:
			return nil, fmt.Errorf("%q: with --play you are player 0", v)
		}
		if _, dup := out[i]; dup {
			return nil, fmt.Errorf("player %d given twice", i)
		}
		out[i] = c
	}
	return out, nil
}
