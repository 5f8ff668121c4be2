package replay

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mentalmj/mentalmj/record/mjlog"
)

// Tenhou's GO type bits above 0xFF (the special rules). No published
// description of them could be found (searches of riichi.wiki, mjlog
// format notes and log parsers such as spinesheath's GameTypeFlag, which
// stops at 0x80, the lobby bits of mjlog.GoRule). What each bit does was
// read off the shared logs that
// carry it (dnovikoff/tenhou log/test_data, whose README names the
// original Tenhou log ids, e.g. ratio.xml = 2013031109gm-0841-0000-0fde62c3):
//
//   - 0x100: a private lobby's own rules, spelled out in the <GO csrule=>
//     attribute (newattr2023.xml, type 0x101, lobby 1): field 4 the
//     starting points, 5 the return, 21..23 the uma of ranks 2..4 in
//     thousands (rank 1 gets minus their sum), repeated in five groups.
//     Replayed through the switches start, return and uma (decodeCsrule).
//   - 0x200: chips (祝儀): AGARI chip=, a second block of four chip counts
//     after the scores in sc= and owari=, and ratio= (chip.xml 0x229,
//     ratio1.xml 0x621). Its hands also round 4 han 30 fu up to mangan
//     (chip.xml: a dealer tsumo riichi tsumo tanyao aka, 4 han 30 fu,
//     ten=30,12000: switch kiriage), but no switch plays chips, and chips
//     enter owari=: not replayed.
//   - 0x400: only in ratio1.xml, together with 0x200; what it changes
//     there cannot be told apart from the chips: not replayed.
//   - 0x800: a 1000-point game (ratio.xml 0x841 and sanma.xml 0x841, a
//     four-player log despite its name): INIT ten=10,10,10,10 and owari=
//     points equal to (score - 1000)/1000 with no uma or oka, e.g.
//     ratio.xml -300 → -1.3, sanma.xml -7000 → -8.0. Replayed through
//     the switches start=1000, return=1000, uma=0,0,0,0 (special1000).
//     Both logs end after their first hand, each by a bust (a score below
//     0), so the engine's bust rule ends them too; whether a 0x800 game
//     without a bust would end after one hand (ratio= is its payout
//     factor, kept outside the points) no shared log shows.
const (
	bitCsrule = 0x100
	bitChip   = 0x200
	bit400    = 0x400
	bit1000   = 0x800
)

// unsupportedRules returns why a game's rules are not replayed (naming
// each rule bit no switch expresses), or "" when they are: Tenhou's four-
// and three-player lobby rules (GO type bits up to 0xFF), the private
// lobby rules of 0x100 with a csrule= the engine reads, and the 1000-point
// game of 0x800 (see the bit list above).
func unsupportedRules(g mjlog.GoRule) string {
	extra := g.Type &^ 0xFF
	if extra == 0 {
		return ""
	}
	var names []string
	if extra&bitCsrule != 0 {
		cs, ok := goAttr(g, "csrule")
		if !ok {
			names = append(names, "0x100 (private lobby rules) without a csrule= attribute: the starting points and uma are unknown")
		} else if _, err := decodeCsrule(cs, g.Players()); err != nil {
			names = append(names, "0x100 (private lobby rules): "+err.Error())
		}
		extra &^= bitCsrule
	}
	if extra&bitChip != 0 {
		names = append(names, "0x200 (chips, 祝儀: AGARI chip= and chip counts in sc= and owari=; no switch plays chips, and they enter the final points)")
		extra &^= bitChip
	}
	if extra&bit400 != 0 {
		names = append(names, "0x400 (seen only with 0x200 chips; what it changes is not known)")
		extra &^= bit400
	}
	if extra&bit1000 != 0 {
		if g.Players() != 4 {
			names = append(names, "0x800 (1000-point game) in a three-player log: no shared log shows its three-player points")
		}
		extra &^= bit1000
	}
	if extra != 0 {
		names = append(names, fmt.Sprintf("%#x (unknown)", extra))
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("GO type %#x: rules not supported: %s", g.Type, strings.Join(names, "; "))
}

// csrule is what the replay reads of a private lobby's <GO csrule=>.
type csrule struct {
	start, ret int
	uma        [4]int
}

// decodeCsrule reads the starting points (field 4), return (field 5) and
// uma (fields 21..23: ranks 2..4, in thousands; rank 1 gets minus their
// sum) of a <GO csrule=> value, as newattr2023.xml shows them (30000,
// 30000, 5,-5,-15: its owari gives 1st and 2nd, tied at 30700, +10.7
// each, (15+5)/2 + 0.7). The uma group appears five times; a value with
// groups that differ, a three-player game, or fields that are not
// numbers is refused (their meaning is unknown).
func decodeCsrule(v string, players int) (csrule, error) {
	var c csrule
	if players != 4 {
		return c, fmt.Errorf("csrule of a three-player game: no shared log shows one")
	}
	f := strings.Split(v, ",")
	if len(f) < 36 {
		return c, fmt.Errorf("csrule has %d fields, want at least 36", len(f))
	}
	num := func(i int) (int, error) {
		n, err := strconv.Atoi(f[i])
		if err != nil {
			return 0, fmt.Errorf("csrule field %d %q is not a number", i, f[i])
		}
		return n, nil
	}
	var err error
	if c.start, err = num(4); err != nil {
		return c, err
	}
	if c.ret, err = num(5); err != nil {
		return c, err
	}
	if c.start <= 0 || c.ret < c.start || c.start%100 != 0 || c.ret%100 != 0 {
		return c, fmt.Errorf("csrule start %d and return %d: not a playable pair", c.start, c.ret)
	}
	sum := 0
	for i := 1; i < 4; i++ {
		if c.uma[i], err = num(20 + i); err != nil {
			return c, err
		}
		sum += c.uma[i]
	}
	c.uma[0] = -sum
	for g := 1; g < 5; g++ {
		for i := 1; i < 4; i++ {
			if f[20+i+3*g] != f[20+i] {
				return c, fmt.Errorf("csrule uma groups differ (%s,%s,%s vs %s,%s,%s): which one applies is not known", f[21], f[22], f[23], f[21+3*g], f[22+3*g], f[23+3*g])
			}
		}
	}
	for i := 1; i < 4; i++ {
		if c.uma[i] > c.uma[i-1] {
			return c, fmt.Errorf("csrule uma %v is not ordered by rank", c.uma)
		}
	}
	return c, nil
}

// specialSwitches returns the switches ("name=value", rules.Set.Apply)
// that play a replayable special-rule game over Tenhou's lobby rules (see
// unsupportedRules), or nil for a game without special rules: a 0x100
// game's csrule start, return and uma; a 0x800 game's 1000 points.
func specialSwitches(g mjlog.GoRule) []string {
	var sw []string
	if g.Type&bitCsrule != 0 {
		cs, _ := goAttr(g, "csrule")
		c, err := decodeCsrule(cs, g.Players())
		if err != nil {
			return nil
		}
		sw = append(sw, fmt.Sprintf("start=%d", c.start), fmt.Sprintf("return=%d", c.ret),
			fmt.Sprintf("uma=%d,%d,%d,%d", c.uma[0], c.uma[1], c.uma[2], c.uma[3]))
	}
	if g.Type&bit1000 != 0 {
		sw = append(sw, "start=1000", "return=1000", "uma=0,0,0,0")
	}
	return sw
}
