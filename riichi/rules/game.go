package rules

import (
	"fmt"
	"strings"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// Game returns the engine's match rules for s: players 3 plays the
// three-player (sanma) variant with the sanma-* points (for the tenhou
// preset exactly game.TenhouSanmaRules(hanchan, true, true)), any other
// count four players (exactly game.TenhouRules(hanchan, true, true) for
// the tenhou preset); hanchan false is an east-only game (tonpuusen).
func (s Set) Game(players int, hanchan bool) game.Rules {
	r := game.Rules{
		Hand: riichi.Rules{
			Aka:            s.Aka > 0,
			Kuitan:         s.Kuitan,
			Kiriage:        s.Kiriage,
			KazoeSanbaiman: !s.KazoeYakuman,
			DoubleYakuman:  s.DoubleYakuman,
			SingleYakuman:  !s.StackedYakuman,
			NoUra:          !s.Ura,
			NoKanDora:      !s.KanDora,
			NoKanUra:       !s.KanUra,
		},
		Hanchan:      hanchan,
		Start:        s.Start,
		Return:       s.Return,
		Uma:          s.Uma,
		Kuikae:       s.Kuikae,
		NoTobi:       !s.Tobi,
		TobiBelow:    s.TobiBelow,
		Ron:          s.Ron,
		NoKyuushu:    !s.Kyuushu,
		NoSuufon:     !s.Suufon,
		NoSuucha:     !s.Suucha,
		NoSuukaikan:  !s.Suukaikan,
		NoSanchahou:  !s.Sanchahou,
		NoNagashi:    !s.Nagashi,
		RenchanAgari: s.Renchan == RenchanAgari,
		NoAgariYame:  !s.AgariYame,
		NoTenpaiYame: !s.TenpaiYame,
		NoPao:        !s.Pao,
		NoWest:       !s.West,
		WestTarget:   s.WestTarget,
		RiichiNoDraw: s.RiichiNoDraw,
	}
	// Zero means Tenhou's value in the engine: keep the tenhou preset
	// equal to TenhouRules.
	if s.Aka != 3 {
		r.Hand.Red = s.Aka
	}
	if s.Honba != 300 {
		r.Hand.Honba = s.Honba
	}
	if players == 3 {
		r.Hand.Sanma = true
		r.Players = 3
		r.Start, r.Return = s.Start3, s.Return3
		r.Uma = [4]int{s.Uma3[0], s.Uma3[1], s.Uma3[2], 0}
		r.WestTarget = s.WestTarget3
	}
	return r
}

// Summary returns one line for screens: the preset's title, its red fives
// and open tanyao, then every switch that differs from the preset, e.g.
// "Tenhou rules (red fives, open tanyao)" or "Tenhou rules (no red fives,
// open tanyao; tobi=off)".
func (s Set) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s rules (", s.Title())
	switch s.Aka {
	case 0:
		b.WriteString("no red fives")
	case 3:
		b.WriteString("red fives")
	default:
		fmt.Fprintf(&b, "%d red fives", s.Aka)
	}
	if s.Kuitan {
		b.WriteString(", open tanyao")
	} else {
		b.WriteString(", no open tanyao")
	}
	base, err := Preset(s.Preset)
	if err == nil {
		var diff []string
		have, want := s.Switches(), base.Switches()
		for i := range have {
			if have[i] != want[i] && !strings.HasPrefix(have[i], "aka=") && !strings.HasPrefix(have[i], "kuitan=") {
				diff = append(diff, have[i])
			}
		}
		if len(diff) > 0 {
			b.WriteString("; ")
			b.WriteString(strings.Join(diff, ", "))
		}
	}
	b.WriteString(")")
	return b.String()
}
