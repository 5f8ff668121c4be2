package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/wall"
	"github.com/mentalmj/mentalmj/wall/tenhou"
)

// tenhouWallFlags are the options of "mentalmj tenhou wall".
type tenhouWallFlags struct {
	players, kyoku int
	asJSON         bool
}

func tenhouWallCommand() *cobra.Command {
	var f tenhouWallFlags
	cmd := leaf(tenhouWallHelp, "print the walls (yama) and dice a seed produces", func(cmd *cobra.Command, args []string) int {
		return runTenhouWall(cmd, args, f)
	})
	cmd.Flags().IntVar(&f.players, "players", 4, "number of players: 4 (136 tiles) or 3 (108 tiles)")
	cmd.Flags().IntVar(&f.kyoku, "kyoku", 1, "number of kyoku (walls) to print, from the first")
	cmd.Flags().BoolVar(&f.asJSON, "json", false, "print JSON instead of text")
	return cmd
}

const tenhouWallHelp = `wall [--players 3|4] [--kyoku N] [--json] SEED|LOG

Prints the yama (tile id and name at each index 0..N-1) and the 0-based dice
of the first N kyoku generated from a Tenhou shuffle seed (docs/wall-layout.md
§1-4). Positions: deal from yama[N-1] downwards, first dora indicator
yama[5] (4p) / yama[9] (3p), rinshan yama[1], yama[0], ... (§5).

SEED is the <SHUFFLE seed=> value: "mt19937ar-sha512-n288-base64,B64", the
2009 form "mt19937ar-sha512-n288,HEX,...", or a bare base64 seed; "-" reads
it from standard input and "@FILE" from FILE.

LOG is an mjlog file (plain or gzip): the seed is read from its <SHUFFLE>
tag, the number of players from its <GO type=> and, unless --kyoku is
given, as many walls are printed as the log has kyoku.

With --json it prints {"kyoku": [{"yama": [ids...], "dice": [d0, d1]}, ...]}.
`

// maxWallKyoku bounds --kyoku (a hanchan rarely exceeds 30 kyoku).
const maxWallKyoku = 10000

func runTenhouWall(cmd *cobra.Command, pos []string, f tenhouWallFlags) int {
	stdout := cmd.OutOrStdout()
	bad := func(format string, a ...any) int { return fail(cmd, 2, format, a...) }
	if len(pos) != 1 {
		return usageError(cmd, "want exactly one SEED argument, got %d", len(pos))
	}
	if f.players != 3 && f.players != 4 {
		return bad("flag --players %d: want 3 or 4", f.players)
	}
	if f.kyoku < 1 || f.kyoku > maxWallKyoku {
		return bad("flag --kyoku %d: want 1..%d", f.kyoku, maxWallKyoku)
	}
	set := map[string]bool{"players": cmd.Flags().Changed("players"), "kyoku": cmd.Flags().Changed("kyoku")}
	text, err := seedArg(pos[0])
	if err != nil {
		return bad("%v", err)
	}
	if info, statErr := os.Stat(pos[0]); statErr == nil && info.Mode().IsRegular() {
		g, err := mjlog.Read(pos[0])
		if err != nil {
			return bad("LOG: %v", err)
		}
		if g.Shuffle == nil {
			return bad("LOG %s: no <SHUFFLE> seed in the log", pos[0])
		}
		text = g.Shuffle.Seed
		if !set["players"] {
			f.players = g.Go.Players()
		} else if f.players != g.Go.Players() {
			return bad("flag --players %d: the log %s is a %d-player game", f.players, pos[0], g.Go.Players())
		}
		if !set["kyoku"] && len(g.Rounds) > 0 {
			f.kyoku = min(len(g.Rounds), maxWallKyoku)
		}
	}
	seed, err := tenhou.ParseSeed(text)
	if err != nil {
		return bad("SEED: %v", err)
	}
	gen, err := tenhou.NewGenerator(seed, f.players)
	if err != nil {
		return bad("%v", err)
	}

	type kyokuJSON struct {
		Yama []int  `json:"yama"`
		Dice [2]int `json:"dice"`
	}
	var out struct {
		Kyoku []kyokuJSON `json:"kyoku"`
	}
	var w tenhou.Wall
	for k := range f.kyoku {
		gen.Next(&w)
		if f.asJSON {
			ids := make([]int, len(w.Yama()))
			for i, t := range w.Yama() {
				ids[i] = int(t)
			}
			out.Kyoku = append(out.Kyoku, kyokuJSON{Yama: ids, Dice: w.Dice})
			continue
		}
		printWall(stdout, k, &w)
	}
	if f.asJSON {
		enc := json.NewEncoder(stdout)
		if err := enc.Encode(out); err != nil {
			return bad("%v", err)
		}
	}
	return 0
}

// seedArg resolves the SEED argument: "-" is standard input, "@FILE" a
// file, anything else the seed text itself.
func seedArg(arg string) (string, error) {
	switch {
	case arg == "-":
		b, err := io.ReadAll(io.LimitReader(os.Stdin, 1<<20))
		if err != nil {
			return "", fmt.Errorf("reading SEED from standard input: %w", err)
		}
		return strings.TrimSpace(string(b)), nil
	case strings.HasPrefix(arg, "@"):
		b, err := os.ReadFile(arg[1:])
		if err != nil {
			return "", fmt.Errorf("SEED file: %w", err)
		}
		return strings.TrimSpace(string(b)), nil
	}
	return arg, nil
}

// printWall writes one kyoku's dice and yama, 12 tiles a line as
// "id name", each line prefixed by its first yama index.
func printWall(w io.Writer, k int, wl *tenhou.Wall) {
	l := wl.Layout
	fmt.Fprintf(w, "kyoku %d: dice %d,%d (0-based; faces %d,%d)\n", k, wl.Dice[0], wl.Dice[1], wl.Dice[0]+1, wl.Dice[1]+1)
	yama := wl.Yama()
	for i := 0; i < len(yama); i += 12 {
		fmt.Fprintf(w, "  yama[%3d]", i)
		for j := i; j < i+12 && j < len(yama); j++ {
			fmt.Fprintf(w, " %3d %-2s", int(yama[j]), yama[j])
		}
		fmt.Fprintln(w)
	}
	di := l.DoraIndicatorIndex(0)
	fmt.Fprintf(w, "  dora indicator yama[%d] = %s; oya's haipai starts at yama[%d] = %s; first tsumo yama[%d] = %s\n",
		di, tileName(yama[di]), l.HaipaiIndex(0, 0), tileName(yama[l.HaipaiIndex(0, 0)]),
		l.LiveDrawIndex(0, 0), tileName(yama[l.LiveDrawIndex(0, 0)]))
}

func tileName(t wall.Tile) string { return fmt.Sprintf("%d (%s)", int(t), t) }
