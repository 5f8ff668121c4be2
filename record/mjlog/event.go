package mjlog

import (
	"errors"

	"github.com/mentalmj/mentalmj/wall"
)

// Event is one tag inside a Round. The concrete types are Draw, Discard,
// Call, Reach, Dora, Agari, Ryuukyoku, Bye, Reconnect and Unknown.
type Event interface{ isEvent() }

// Hidden is the tile of a draw or haipai tile that the player whose view
// a record is never saw (a Mental Mahjong private-hands record): written
// as a tsumo tag without tile id (<U/>, as Tenhou's client protocol sends
// the other players' draws) and as "?" in an <INIT> hai list. Only
// ParseView reads it; every other tile of such a record (discards, calls,
// wins, dora indicators) is known.
const Hidden wall.Tile = -1

// errHidden is Parse's error for a hidden tile.
var errHidden = errors.New("hidden tile: this is one player's view of a Mental Mahjong private-hands game (mentalmj --private-hands), whose unseen tiles are hidden; tools that replay, convert or verify a game need every tile")

// Draw is a tsumo: <T..>, <U..>, <V..>, <W..> for seats 0..3, including
// rinshan draws after a kan or kita. Tile is Hidden (<U/>) in a player's
// view for a draw it did not see.
type Draw struct {
	Who  int
	Tile wall.Tile
}

// Discard is a dahai: <D..>, <E..>, <F..>, <G..> for seats 0..3.
type Discard struct {
	Who  int
	Tile wall.Tile
}

// Call is <N who= m=>: seat Who makes the meld (chi, pon, kan or kita).
type Call struct {
	Who  int
	Meld Meld
}

// Reach is <REACH who= step= [ten=]>: Step 1 is the declaration (before
// the discard), Step 2 the accepted deposit; Ten (step 2 only, else nil)
// are the scores after the deposit, in 100s.
type Reach struct {
	Who  int
	Step int
	Ten  []int
}

// Dora is <DORA hai=>: a new kan-dora indicator was revealed.
type Dora struct {
	Tile wall.Tile
}

// YakuHan is one yaku of a win: Tenhou's yaku ID (0 menzen tsumo, 1 riichi,
// …, 52 dora, 53 ura dora, 54 aka dora) and its han.
type YakuHan struct {
	ID  int
	Han int
}

// Agari is a win, <AGARI>. Several may follow each other (double/triple ron).
type Agari struct {
	// Who won; FromWho dealt in (FromWho == Who for tsumo).
	Who, FromWho int
	// Hai is the winner's concealed hand including the winning tile.
	Hai []wall.Tile
	// Melds are the winner's open melds and ankans (m=), in listed order.
	Melds []Meld
	// Machi is the winning tile.
	Machi wall.Tile
	// Fu, Ten and Limit are ten="fu,points,limit": points in real points
	// (not 100s); Limit 0 none, 1 mangan, 2 haneman, 3 baiman, 4 sanbaiman,
	// 5 yakuman.
	Fu, Ten, Limit int
	// Yaku are the yaku= pairs; nil for yakuman hands.
	Yaku []YakuHan
	// Yakuman are the yakuman= yaku IDs; nil otherwise.
	Yakuman []int
	// DoraHai and DoraHaiUra are the dora and ura-dora indicators; DoraHaiUra
	// is nil when not shown.
	DoraHai, DoraHaiUra []wall.Tile
	// Honba and Kyotaku are ba="honba,kyotaku".
	Honba, Kyotaku int
	// Sc are sc= values: (score, delta) pairs per seat in 100s.
	Sc []int
	// Owari is the final result when this tag ends the game, else nil.
	Owari *Owari
	// Paowho is the seat liable for pao (paoWho=), -1 if none.
	Paowho int
	// Extra keeps other attributes (e.g. chip, ratio), in document order.
	Extra []Attr
}

// Ryuukyoku is a drawn kyoku, <RYUUKYOKU>.
type Ryuukyoku struct {
	// Type is "" for an exhaustive draw, otherwise Tenhou's abortive-draw
	// code: yao9 (kyuushu kyuuhai), reach4, ron3, kan4, kaze4, nm (nagashi
	// mangan).
	Type string
	// Honba and Kyotaku are ba="honba,kyotaku".
	Honba, Kyotaku int
	// Sc are sc= values: (score, delta) pairs per seat in 100s.
	Sc []int
	// Hai are the hands shown (hai0..hai3), nil for a seat not shown.
	Hai [4][]wall.Tile
	// Owari is the final result when this tag ends the game, else nil.
	Owari *Owari
	// Extra keeps other attributes (e.g. ratio), in document order.
	Extra []Attr
}

// Bye is <BYE who=>: the seat disconnected.
type Bye struct {
	Who int
}

// Reconnect is a <UN nX=> inside play: seat Who reconnected under Name.
type Reconnect struct {
	Who  int
	Name string
}

func (Draw) isEvent()      {}
func (Discard) isEvent()   {}
func (Call) isEvent()      {}
func (Reach) isEvent()     {}
func (Dora) isEvent()      {}
func (Agari) isEvent()     {}
func (Ryuukyoku) isEvent() {}
func (Bye) isEvent()       {}
func (Reconnect) isEvent() {}
func (Unknown) isEvent()   {}
