package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/wall/tenhou"
)

func tenhouSeatHashCommand() *cobra.Command {
	return leaf(tenhouSeatHashHelp, "compute the pre-game SHA-512 of a log (unconfirmed construction)", runTenhouSeatHash)
}

const tenhouSeatHashHelp = `seat-hash LOG

Computes the SHA-512 that Tenhou publishes before games on
tenhou.net/stat/rand ("4 bytes seat permutation + 624*8 seed = 4996 bytes",
docs/wall-layout.md §9) from a log's <SHUFFLE> seed and <UN> names:

  seat string  players numbered 0..3 by sorting their (URL-decoded) names in
               Unicode code-point order; the string lists, for East, South,
               West, North at the start of the game, the number of the
               player sitting there ("3" for the empty North seat in 3p)
  message      seat string + lowercase hex of the 2496 decoded seed bytes in
               order (4992 digits: the seed as one big-endian integer with
               leading zeros kept)
  hash         lowercase hex SHA-512 of the message

CAVEAT: this construction is a hypothesis. No published (seed, seat, hash)
triple has confirmed it yet, so a hash that differs from Tenhou's list is not
evidence of anything. 2009 hex-seed logs have no such hash.

LOG is an mjlog file (.xml or .mjlog, plain or gzip).
`

func runTenhouSeatHash(cmd *cobra.Command, pos []string) int {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	if len(pos) != 1 {
		return usageError(cmd, "want exactly one LOG argument, got %d", len(pos))
	}
	bad := func(err error) int { return fail(cmd, 2, "%v", err) }
	g, err := mjlog.Read(pos[0])
	if err != nil {
		return bad(err)
	}
	if g.Shuffle == nil {
		return bad(fmt.Errorf("%s: no <SHUFFLE> seed", g.File))
	}
	seed, err := tenhou.ParseSeed(g.Shuffle.Seed)
	if err != nil {
		return bad(fmt.Errorf("%s: SHUFFLE seed: %w", g.File, err))
	}
	p := g.Go.Players()
	if len(g.Players) < p {
		return bad(fmt.Errorf("%s: no <UN> tag with the %d player names", g.File, p))
	}
	names := make([]string, p)
	for i := range names {
		names[i] = g.Players[i].Name
	}
	seat, err := tenhou.SeatString(names)
	if err != nil {
		return bad(fmt.Errorf("%s: %w", g.File, err))
	}
	sum, err := tenhou.SeatHash(seat, seed)
	if err != nil {
		return bad(fmt.Errorf("%s: %w", g.File, err))
	}
	fmt.Fprintf(stdout, "seat   %s\nsha512 %s\n", seat, sum)
	fmt.Fprintf(stderr, "note: unconfirmed construction (no published seed/seat/hash triple checks it yet)\n")
	return 0
}
