package rules

import (
	"fmt"
	"strings"

	"github.com/mentalmj/mentalmj/riichi/game"
)

// RecordAttr is the attribute of an mjlog <GO> tag (and the key of a
// tenhou.net/6 "rule" object) that carries the house rules a Tenhou record
// cannot express: the switches that differ from the tenhou preset, in
// canonical order, separated by ";" (RecordValue). Tenhou's own fields say
// what they can (GO type bits 0x02 no red fives, 0x04 no open tanyao,
// 0x08 hanchan, 0x10 three players; tenhou.net/6 aka51/52/53 per suit), and
// the attribute repeats nothing else: a game under the tenhou preset has
// no such attribute, so its record is what it was before house rules.
const RecordAttr = "mentalmj_rules"

// FromGame returns the Set that Game maps to r (preset "tenhou", switches
// from r's fields): for r = s.Game(n, h), FromGame(r).Game(n, h) == r.
// With three players (r.Players 3) r's points and target are the sanma-*
// switches and the four-player ones stay the tenhou preset's; with four,
// the reverse. r.Rounding is not a switch and is not kept.
func FromGame(r game.Rules) Set {
	s := Default()
	switch {
	case !r.Hand.Aka:
		s.Aka = 0
	case r.Hand.Red != 0:
		s.Aka = r.Hand.Red
	}
	s.Kuitan = r.Hand.Kuitan
	s.Kiriage = r.Hand.Kiriage
	s.KazoeYakuman = !r.Hand.KazoeSanbaiman
	s.DoubleYakuman = r.Hand.DoubleYakuman
	s.StackedYakuman = !r.Hand.SingleYakuman
	s.Ura, s.KanDora, s.KanUra = !r.Hand.NoUra, !r.Hand.NoKanDora, !r.Hand.NoKanUra
	s.Honba = r.Hand.HonbaValue()
	s.Kuikae = r.Kuikae
	s.Tobi, s.TobiBelow = !r.NoTobi, r.TobiBelow
	if r.NoTobi {
		s.TobiBelow = 0
	}
	s.Ron = r.Ron
	s.Kyuushu, s.Suufon, s.Suucha, s.Suukaikan, s.Sanchahou = !r.NoKyuushu, !r.NoSuufon, !r.NoSuucha, !r.NoSuukaikan, !r.NoSanchahou
	s.Nagashi = !r.NoNagashi
	if r.RenchanAgari {
		s.Renchan = RenchanAgari
	}
	s.AgariYame, s.TenpaiYame = !r.NoAgariYame, !r.NoTenpaiYame
	s.Pao = !r.NoPao
	s.West = !r.NoWest
	s.RiichiNoDraw = r.RiichiNoDraw
	if r.Players == 3 {
		s.Start3, s.Return3, s.Uma3 = r.Start, r.Return, [3]int{r.Uma[0], r.Uma[1], r.Uma[2]}
		s.WestTarget3 = r.WestTarget
	} else {
		s.Start, s.Return, s.Uma = r.Start, r.Return, r.Uma
		s.WestTarget = r.WestTarget
	}
	return s
}

// RecordValue returns the RecordAttr value for a game played under r:
// the switches of FromGame(r) that differ from the tenhou preset, in
// canonical order, joined by ";"; "" under Tenhou's rules.
func RecordValue(r game.Rules) string {
	have, base := FromGame(r).Switches(), Default().Switches()
	var diff []string
	for i := range have {
		if have[i] != base[i] {
			diff = append(diff, have[i])
		}
	}
	return strings.Join(diff, ";")
}

// FromRecord decodes a RecordAttr value ("" for none) into the rules of a
// recorded game with players (3 or 4) and hanchan, as its GO type bits
// say. It returns an error wrapping ErrUnknown or ErrValue for a switch
// this build does not know or cannot take (the record is from another
// version or damaged).
func FromRecord(value string, players int, hanchan bool) (game.Rules, error) {
	var sw []string
	if value != "" {
		sw = strings.Split(value, ";")
	}
	s, err := Parse("tenhou", sw)
	if err != nil {
		return game.Rules{}, fmt.Errorf("record %s=%q: %w", RecordAttr, value, err)
	}
	return s.Game(players, hanchan), nil
}
