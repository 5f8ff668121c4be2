package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mentalmj/mentalmj/riichi/handcalc"
	"github.com/mentalmj/mentalmj/riichi/rules"
)

func scoreCommand() *cobra.Command {
	var f scoreFlags
	cmd := leaf(scoreUsage, "hand calculator: yaku, han, fu, points and payments of one win (or --json in bulk)", func(cmd *cobra.Command, args []string) int {
		return runScore(cmd, args, &f)
	})
	f.register(cmd)
	return cmd
}

const scoreUsage = `score HAND --win TILE [flags]
  or: mentalmj score --json < requests.jsonl > results.jsonl

Scores one win under the chosen rules (Tenhou's by default): the yaku with
their han, the han, fu and points, and who pays what; or the reason the
hand does not win.

HAND is the concealed tiles without the winning tile (13 tiles, 3 fewer per
meld; with the winning tile, 14, is accepted too): digits then their suit,
m characters, p circles, s bamboo, z honours 1-7 (E S W N haku hatsu chun),
0 a red five: 123m456p789s2344s, 0m is the red 5m.

Examples:
  mentalmj score 123m456p789s2344s --win 4s --ron --riichi --dora 1m
  mentalmj score 234m567p789s2s --meld pon:7z7z7z --win 2s --tsumo --dealer
  mentalmj score 19m19p19s1234567z --win 1m --ron
  mentalmj score 22334m567p345s55s --win 4m --ron --riichi --rules mleague
  mentalmj score 0m234m567p345s55s --win 4m --ron --rule aka=0   (exit 2)

Exit status: 0 the hand wins, 1 it does not (not complete, or no yaku),
2 malformed input (the message names what is wrong).

With --json, each stdin line is one JSON object with the keys
  hand, win (strings), melds (e.g. ["pon:5z5z5z", "chi:3m4m5m",
  "ankan:1p1p1p1p", "kakan:…", "daiminkan:…", "kita"]), ron, riichi,
  double_riichi, ippatsu, haitei, houtei, rinshan, chankan, tenhou,
  chiihou, dealer (booleans), dora and ura (lists of indicators, e.g.
  ["1m", "5z"]), seat_wind and round_wind ("E" "S" "W" "N"), honba,
  players (4 or 3, numbers), rules (preset name);
and each stdout line is its result, in the same order:
  {"ok":true,"han":3,"fu":40,"points":5200,"payments":[{"payer":
  "discarder","points":5200}],"yaku":[{"name":"Riichi","han":1,"id":1},…],
  "yakuman":0}
(with "limit":"mangan", "haneman", … when the hand reaches one; a tsumo's
payers are named by seat wind, E the dealer; a yaku's id is Tenhou's
yaku number, as in mjlog <AGARI yaku=>)
or {"ok":false,"error":"line N: …"} for a line that is malformed or does
not win (unknown keys included); the run goes on and exits 0. Points are
without honba and riichi deposits; payments include honba. A missing key
is false, 0 or empty: a tsumo by a non-dealer in the East round.
`

// scoreFlags are the per-hand flags of "mentalmj score".
type scoreFlags struct {
	win                     string
	melds, dora, ura        listFlag
	ron, tsumo, dealer      bool
	riichi, doubleRiichi    bool
	ippatsu, haitei, houtei bool
	rinshan, chankan        bool
	tenhou, chiihou         bool
	seatWind, roundWind     string
	honba, players          int
	rules                   string
	rule                    listFlag
	json                    bool
}

// register defines the flags on cmd.
func (f *scoreFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&f.win, "win", "", "the winning `TILE`, e.g. 4s or 0p (required without --json)")
	fs.Var(&f.melds, "meld", "a declared meld `TYPE:TILES` (repeatable, in call order): chi:3m4m5m, pon:5z5z5z, daiminkan:…, kakan:…, ankan:1p1p1p1p, or kita (three-player)")
	fs.BoolVar(&f.ron, "ron", false, "win on another player's discard")
	fs.BoolVar(&f.tsumo, "tsumo", false, "self-drawn win (the default)")
	fs.BoolVar(&f.riichi, "riichi", false, "the winner declared riichi")
	fs.BoolVar(&f.doubleRiichi, "double-riichi", false, "the winner declared riichi on the first uninterrupted discard")
	fs.BoolVar(&f.ippatsu, "ippatsu", false, "win within one uninterrupted turn of the riichi")
	fs.BoolVar(&f.haitei, "haitei", false, "tsumo on the last tile of the live wall")
	fs.BoolVar(&f.houtei, "houtei", false, "ron on the last discard")
	fs.BoolVar(&f.rinshan, "rinshan", false, "tsumo on the replacement tile after a kan")
	fs.BoolVar(&f.chankan, "chankan", false, "ron on a tile added to a pon (kakan)")
	fs.BoolVar(&f.tenhou, "tenhou", false, "the dealer's tsumo on the first draw")
	fs.BoolVar(&f.chiihou, "chiihou", false, "a non-dealer's tsumo on the first, uninterrupted draw")
	fs.Var(&f.dora, "dora", "dora `INDICATORS` (the tiles shown, not the dora), e.g. 1m,5z (repeatable)")
	fs.Var(&f.ura, "ura", "ura dora `INDICATORS` (with riichi), e.g. 9p")
	fs.StringVar(&f.seatWind, "seat-wind", "", "the winner's seat `WIND`: E (the dealer), S, W or N (default S, or E with --dealer)")
	fs.StringVar(&f.roundWind, "round-wind", "E", "the round `WIND`: E, S, W or N")
	fs.BoolVar(&f.dealer, "dealer", false, "the winner is the dealer (seat wind E)")
	fs.IntVar(&f.honba, "honba", 0, "honba sticks on the table (they change the payments, not the points)")
	fs.IntVar(&f.players, "players", 4, "4, or 3 for three-player mahjong (sanma)")
	fs.StringVar(&f.rules, "rules", "tenhou", "rules `PRESET`: "+strings.Join(handcalc.RulesNames(), ", "))
	fs.Var(&f.rule, "rule", "a house-rule switch `NAME=VALUE` on top of --rules (repeatable), e.g. aka=0 or kiriage=on (\"mentalmj rules\" lists their values); names: "+strings.Join(rules.Names(), ", "))
	fs.BoolVar(&f.json, "json", false, "read one JSON request per stdin line, write one JSON result per line")
	choices(cmd, "rules", "preset", "presets", handcalc.RulesNames()...)
	choices(cmd, "rule", "switch", "switches", rules.Names()...)
}

// request builds the handcalc request of the flags and HAND.
func (f *scoreFlags) request(hand string) handcalc.Request {
	req := handcalc.Request{
		Hand: hand, Win: f.win, Melds: f.melds, Ron: f.ron,
		Riichi: f.riichi, DoubleRiichi: f.doubleRiichi, Ippatsu: f.ippatsu,
		Haitei: f.haitei, Houtei: f.houtei, Rinshan: f.rinshan, Chankan: f.chankan,
		Tenhou: f.tenhou, Chiihou: f.chiihou, Dora: f.dora, Ura: f.ura,
		SeatWind: f.seatWind, RoundWind: f.roundWind, Honba: f.honba,
		Rules: f.rules, Switches: f.rule, Players: f.players,
	}
	if f.dealer {
		req.Dealer = &f.dealer
	}
	return req
}

func runScore(cmd *cobra.Command, pos []string, f *scoreFlags) int {
	ctx, stdout := cmd.Context(), cmd.OutOrStdout()
	if f.json {
		var other []string
		cmd.Flags().Visit(func(fl *pflag.Flag) {
			if fl.Name != "json" {
				other = append(other, "--"+fl.Name)
			}
		})
		if len(pos) > 0 || len(other) > 0 {
			return usageError(cmd, "--json reads every request from stdin: remove %s", strings.Join(append(pos, other...), " "))
		}
		// An interrupt must not wait for the next line: closing stdin
		// ends the read in progress.
		in := cmd.InOrStdin()
		if c, ok := in.(io.Closer); ok {
			stop := context.AfterFunc(ctx, func() { c.Close() })
			defer stop()
		}
		n, err := handcalc.ScoreLines(ctx, in, stdout)
		switch {
		case ctx.Err() != nil:
			return fail(cmd, 2, "interrupted after %d lines", n.Lines)
		case err != nil:
			return fail(cmd, 2, "%v", err)
		}
		return 0
	}
	switch {
	case len(pos) == 0:
		return usageError(cmd, "missing HAND, e.g. mentalmj score 123m456p789s2344s --win 4s")
	case len(pos) > 1:
		return usageError(cmd, "one HAND only, got %q (write a hand without spaces, melds with --meld)", pos)
	case f.win == "":
		return usageError(cmd, "missing --win TILE (the winning tile, e.g. --win 4s)")
	case f.ron && f.tsumo:
		return usageError(cmd, "--ron and --tsumo: give one")
	}
	req := f.request(pos[0])
	res, err := handcalc.Score(req)
	switch {
	case errors.Is(err, handcalc.ErrNoWin):
		fmt.Fprintf(stdout, "no win: %v\n", strings.TrimPrefix(err.Error(), handcalc.ErrNoWin.Error()+": "))
		return 1
	case err != nil:
		return usageError(cmd, "%v", strings.TrimPrefix(err.Error(), handcalc.ErrMalformed.Error()+": "))
	}
	if err := handcalc.WriteText(stdout, req, res); err != nil {
		return fail(cmd, 2, "%v", err)
	}
	return 0
}
