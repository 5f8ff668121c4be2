package mjlog

import (
	"slices"

	"github.com/mentalmj/mentalmj/wall"
)

// Game is one parsed mjlog document.
type Game struct {
	// File is the path or name the log was read from; it prefixes errors.
	File string
	// Version is the <mjloggm ver=> attribute, e.g. "2.3".
	Version string
	// Shuffle is the <SHUFFLE> tag, or nil when the log has none.
	Shuffle *Shuffle
	// Go is the rule tag <GO type= lobby=>.
	Go GoRule
	// Players are the four seats from the first <UN> tag (len 4; in
	// three-player games seat 3 has an empty name). Nil if the log has no
	// <UN> before its first <INIT>.
	Players []Player
	// PlayersExtra keeps attributes of that <UN> other than n0..n3, dan,
	// rate and sx (e.g. rc, gold), in document order.
	PlayersExtra []Attr
	// Oya is <TAIKYOKU oya=>, the seat of the first dealer (0..3).
	Oya int
	// Rounds holds one Round per <INIT>, in log order.
	Rounds []Round
	// Owari is the final result: the owari attribute of the last <AGARI>
	// or <RYUUKYOKU> that carries one; nil if none does. It points at the
	// same value as that event's Owari field.
	Owari *Owari
	// Prelude holds the Bye and Reconnect events logged before the first
	// <INIT> (a seat dropping or returning before play starts).
	Prelude []Event
	// Unknown keeps the tags before the first <INIT> that are not part of
	// the header: unknown names, and repeated header tags.
	Unknown []Unknown
}

// Shuffle is the <SHUFFLE seed= ref=> tag. Seed is the generator seed text,
// "mt19937ar-sha512-n288-base64,<B64>" or, in 2009 logs,
// "mt19937ar-sha512-n288,<32 hex words>" (docs/wall-layout.md §1).
type Shuffle struct {
	Seed string
	Ref  string
}

// GoRule is the <GO type= lobby=> tag. Type is Tenhou's rule bit field
// (docs/wall-layout.md §7): 0x01 vs humans, 0x02 no red fives, 0x04 no kuitan,
// 0x08 hanchan (east-south game), 0x10 three players, 0x20/0x80 lobby
// level (0x80 上, 0x20 特, 0xA0 鳳), 0x40 fast. Lobby is the lobby number
// (0 for the public ranked lobbies).
type GoRule struct {
	Type  int
	Lobby int
	// Extra keeps attributes other than type and lobby (title, rule,
	// ranking, csrule in newer logs), in document order.
	Extra []Attr
}

// Players returns the number of players: 3 when Type has bit 0x10, else 4.
func (g GoRule) Players() int {
	if g.Type&0x10 != 0 {
		return 3
	}
	return 4
}

// VsHuman reports bit 0x01: the table is of human players.
func (g GoRule) VsHuman() bool { return g.Type&0x01 != 0 }

// Aka reports whether red fives are played (bit 0x02 clear); they are tile
// ids 16, 52 and 88.
func (g GoRule) Aka() bool { return g.Type&0x02 == 0 }

// Reds returns the red fives the log plays: wall.TenhouReds (ids 16, 52,
// 88) when Aka, none otherwise (Tenhou plays three or none).
func (g GoRule) Reds() wall.Reds {
	if g.Aka() {
		return wall.TenhouReds
	}
	return 0
}

// Kuitan reports whether open tanyao is allowed (bit 0x04 clear).
func (g GoRule) Kuitan() bool { return g.Type&0x04 == 0 }

// Hanchan reports bit 0x08: an east-south game (南) rather than east only (東).
func (g GoRule) Hanchan() bool { return g.Type&0x08 != 0 }

// Fast reports bit 0x40: the fast (速) time setting.
func (g GoRule) Fast() bool { return g.Type&0x40 != 0 }

// Level returns the lobby level from bits 0x80 and 0x20: 0 一般, 1 上級
// (0x80), 2 特上 (0x20), 3 鳳凰 (0xA0).
func (g GoRule) Level() int { return (g.Type>>7)&1 | ((g.Type>>5)&1)<<1 }

// Player is one seat of the <UN> tag.
type Player struct {
	// Name is the URL-decoded player name ("" for the empty seat in 3p).
	Name string
	// Dan is Tenhou's rank index (0 = 新人 … 20 = 天鳳).
	Dan int
	// Rate is the player's rating (R).
	Rate float64
	// Sex is "M", "F" or "C" (computer) as written in sx=.
	Sex string
}

// Round is one kyoku: its <INIT> and the events up to the next <INIT>.
type Round struct {
	Init   Init
	Events []Event
}

// Init is the <INIT> tag that starts a kyoku.
type Init struct {
	// Kyoku is the round counter (0 = East 1, 4 = South 1, …), seed field 1.
	Kyoku int
	// Honba is the repeat counter, seed field 2.
	Honba int
	// Kyotaku is the number of riichi deposits on the table, seed field 3.
	Kyotaku int
	// Dice are seed fields 4 and 5, the 0-based dice values (faces are
	// Dice[i]+1; docs/wall-layout.md §4).
	Dice [2]int
	// DoraIndicator is seed field 6, the first dora indicator.
	DoraIndicator wall.Tile
	// Ten are the scores at the start of the kyoku, in 100s (len 4; 0 for
	// the empty seat in 3p).
	Ten []int
	// Oya is the dealer's seat, 0..3.
	Oya int
	// Hai are the haipai hai0..hai3 in the listed (deal) order; 13 tiles
	// per active seat, Hai[3] empty (nil) in 3p.
	Hai [4][]wall.Tile
	// Extra keeps other attributes (e.g. chip), in document order.
	Extra []Attr
}

// Owari is a final result: owari="score0,points0,score1,points1,…".
// Scores are in 100s, Points the uma/oka-adjusted game points. Both have
// one entry per listed pair (4 in ordinary logs, 8 in chip games where
// the last four pairs are chip counts).
type Owari struct {
	Scores []int
	Points []float64
}

// Attr is one XML attribute kept verbatim.
type Attr struct {
	Name  string
	Value string
}

// Unknown is a tag this package does not interpret, kept with its
// attributes in document order. It is also an Event.
type Unknown struct {
	Name  string
	Attrs []Attr
}

// HasHidden reports whether g is one player's view holding Hidden tiles
// (an <INIT> haipai tile or a tsumo it never saw), which tools that need
// every tile must refuse.
func (g *Game) HasHidden() bool {
	for _, r := range g.Rounds {
		for _, h := range r.Init.Hai {
			if slices.Contains(h, Hidden) {
				return true
			}
		}
		for _, e := range r.Events {
			if d, ok := e.(Draw); ok && d.Tile == Hidden {
				return true
			}
		}
	}
	return false
}
