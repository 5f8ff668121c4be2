package rules

import "github.com/mentalmj/mentalmj/riichi/game"

// Kuikae is what a player may discard right after a chi or pon (喰い替え,
// swap calling): game.KuikaeForbidden (Tenhou), game.KuikaeSuji (only
// the called kind) or game.KuikaeAllowed.
type Kuikae = game.Kuikae

// The kuikae rules, strictest first.
const (
	KuikaeForbidden = game.KuikaeForbidden
	KuikaeSuji      = game.KuikaeSuji
	KuikaeAllowed   = game.KuikaeAllowed
)

// Ron is what happens when more than one player rons the same discard:
// RonDouble (two rons paid, three: see Set.Sanchahou; Tenhou),
// RonAtamahane (head bump: the nearest to the discarder only) or
// RonTriple (every ron paid).
type Ron = game.MultiRon

// The multiple-ron rules.
const (
	RonDouble    = game.RonDouble
	RonAtamahane = game.RonAtamahane
	RonTriple    = game.RonTriple
)

// Renchan is when the dealer keeps the deal.
type Renchan int

// The renchan rules.
const (
	// RenchanTenpai keeps the deal on a dealer win or dealer tenpai at an
	// exhaustive draw (and on any abortive draw; Tenhou).
	RenchanTenpai Renchan = iota
	// RenchanAgari keeps the deal only on a dealer win (and abortive
	// draws): a tenpai dealer passes the deal at an exhaustive draw.
	RenchanAgari
)

// Set is one table's house rules: a preset name and the value of every
// switch. It is comparable with ==; two Sets are the same rules exactly
// when they are ==. The zero Set is not a valid rule set: start from
// Preset. Points are in points (25000), uma in thousands of points.
type Set struct {
	// Preset is the name of the preset the set started from ("tenhou").
	Preset string

	// Aka is the number of red fives, 0..4: 1 a red 5p, 2 red 5p and 5s,
	// 3 one per suit, 4 one per suit and a second red 5p (switch aka).
	Aka int
	// Kuitan allows tanyao in an open hand (switch kuitan).
	Kuitan bool
	// Kuikae is what may be discarded right after a call (switch kuikae).
	Kuikae Kuikae

	// Tobi ends the match when a score falls below TobiBelow (switch
	// tobi: "off" or the points; Tenhou 0: a score of exactly 0 plays on).
	Tobi      bool
	TobiBelow int

	// Ron is the multiple-ron rule (switch ron).
	Ron Ron

	// The abortive draws (途中流局), each on or off: kyuushu kyuuhai,
	// suufon renda, suucha riichi, suukaikan (four kans by more than one
	// player) and sanchahou (three rons on one discard, when Ron is not
	// RonTriple).
	Kyuushu, Suufon, Suucha, Suukaikan, Sanchahou bool

	// Nagashi plays nagashi mangan at an exhaustive draw (switch nagashi).
	Nagashi bool
	// Kiriage rounds 4 han 30 fu and 3 han 60 fu up to mangan (switch
	// kiriage).
	Kiriage bool
	// KazoeYakuman makes 13 han or more a (kazoe) yakuman; off caps it at
	// sanbaiman (switch kazoe=yakuman|sanbaiman).
	KazoeYakuman bool
	// DoubleYakuman counts suuankou tanki, junsei chuuren poutou, kokushi
	// musou 13-sided and daisuushii as two yakuman (switch
	// double-yakuman).
	DoubleYakuman bool
	// StackedYakuman adds up several yakuman in one hand; off pays one
	// yakuman at most, a double yakuman included (switch
	// stacked-yakuman).
	StackedYakuman bool

	// Renchan is when the dealer keeps the deal (switch renchan).
	Renchan Renchan
	// AgariYame and TenpaiYame end the match at the last hand when the
	// dealer, first with at least the target (WestTarget), wins or is tenpai
	// (automatic on Tenhou; switches agari-yame, tenpai-yame).
	AgariYame, TenpaiYame bool

	// Start, Return and Uma are the four-player starting points, the
	// return (the oka is (Return-Start) from each player to the top) and
	// the uma by rank in thousands (switches start, return, uma).
	Start, Return int
	Uma           [4]int
	// Start3, Return3 and Uma3 are the same for three players (switches
	// sanma-start, sanma-return, sanma-uma).
	Start3, Return3 int
	Uma3            [3]int

	// Honba is the value of one honba stick on a ron in four-player
	// mahjong, in points (300); a tsumo is paid a third of it by each
	// payer, and in three-player mahjong a ron pays two thirds (switch
	// honba).
	Honba int
	// Pao makes the player who fed the last dragon or wind set of a
	// daisangen or daisuushii liable (sekinin barai; switch pao).
	Pao bool
	// West plays the extension round (west in a hanchan, south in an
	// east-only game) when nobody reached WestTarget at the last hand; it
	// ends as soon as someone has WestTarget (sudden death). WestTarget 0
	// is the return score (switches west, west-target). WestTarget3 is the
	// same target for three players, 0 their return score (switch
	// sanma-west-target).
	West        bool
	WestTarget  int
	WestTarget3 int
	// RiichiNoDraw allows riichi without a draw left (fewer than 4 tiles
	// in the live wall, 3 in sanma; switch riichi-no-draw).
	RiichiNoDraw bool
	// Ura, KanDora and KanUra count the ura dora, turn kan dora
	// indicators and count their ura (switches ura, kan-dora, kan-ura).
	Ura, KanDora, KanUra bool
}
