package league

import "fmt"

// Tenhou's dan points for four-player games (tenhou.net/man, "段位戦";
// docs/league.md gives the table with its sources). A player starts at
// 新人 with 0 points. Each game adds the room's points for a first or
// second place (by the game's length), nothing for a third, and takes
// the rank's points for a fourth. Reaching the rank's target promotes to
// the next rank, with that rank's base points; falling below 0 demotes a
// dan rank (初段 and up) to the rank below, with its base points, while a
// kyu rank stays at 0. 天鳳位 is the last rank.

// Room is a Tenhou room, whose first and second places earn more the
// higher it is.
type Room int

// The rooms of Tenhou's four-player ranked games.
const (
	Ippan   Room = iota // 一般
	Joukyuu             // 上級
	Tokujou             // 特上
	Houou               // 鳳凰
)

var roomNames = []string{"ippan", "joukyuu", "tokujou", "houou"}

// String returns the room's name as ParseRoom reads it ("ippan", …).
func (r Room) String() string {
	if r < 0 || int(r) >= len(roomNames) {
		return fmt.Sprintf("Room(%d)", int(r))
	}
	return roomNames[r]
}

// ParseRoom reads a room name: ippan, joukyuu, tokujou or houou. It
// returns an error naming the name otherwise.
func ParseRoom(s string) (Room, error) {
	for i, n := range roomNames {
		if s == n {
			return Room(i), nil
		}
	}
	return 0, fmt.Errorf("unknown room %q (ippan, joukyuu, tokujou or houou)", s)
}

// roomPoints are the points of a first and a second place, by room, for
// an east-only game (tonpuu); a hanchan earns 1.5 times as much.
var roomPoints = [4][2]int{
	Ippan:   {20, 10},
	Joukyuu: {40, 10},
	Tokujou: {50, 20},
	Houou:   {60, 30},
}

// rank is one of Tenhou's ranks: its name, the points it starts with, the
// points that promote, and what a fourth place costs in a tonpuu (a
// hanchan costs 1.5 times as much).
type rank struct {
	name         string
	base, target int
	fourth       int
}

var ranks = []rank{
	{"新人", 0, 20, 0},
	{"9級", 0, 20, 0},
	{"8級", 0, 20, 0},
	{"7級", 0, 20, 0},
	{"6級", 0, 40, 0},
	{"5級", 0, 60, 0},
	{"4級", 0, 80, 0},
	{"3級", 0, 100, 0},
	{"2級", 0, 100, 10},
	{"1級", 0, 100, 20},
	{"初段", 200, 400, 30},
	{"二段", 400, 800, 40},
	{"三段", 600, 1200, 50},
	{"四段", 800, 1600, 60},
	{"五段", 1000, 2000, 70},
	{"六段", 1200, 2400, 80},
	{"七段", 1400, 2800, 90},
	{"八段", 1600, 3200, 100},
	{"九段", 1800, 3600, 110},
	{"十段", 2000, 4000, 120},
	{"天鳳位", 0, 0, 0},
}

// firstDan is the index of 初段 in ranks; houou that of 天鳳位.
const (
	firstDan = 10
	tenhoui  = 20
)

// Dan is a player's rank and points in it.
type Dan struct {
	// Rank is the index in Tenhou's ranks: 0 新人, 1..9 9級..1級, 10..19
	// 初段..十段, 20 天鳳位.
	Rank int
	// Points are the dan points within the rank.
	Points int
}

// Name is the rank's Japanese name (新人, 9級, …, 初段, …, 天鳳位).
func (d Dan) Name() string { return ranks[d.Rank].name }

// after returns the dan after a game of this length (tonpuu or hanchan)
// in room, finished at placement (1..4).
func (d Dan) after(room Room, tonpuu bool, placement int) Dan {
	if d.Rank == tenhoui {
		return d
	}
	delta := 0
	switch placement {
	case 1, 2:
		delta = roomPoints[room][placement-1]
	case 4:
		delta = -ranks[d.Rank].fourth
	}
	if !tonpuu {
		delta = delta * 3 / 2
	}
	d.Points += delta
	switch {
	case d.Points >= ranks[d.Rank].target:
		d.Rank++
		d.Points = ranks[d.Rank].base
	case d.Points < 0 && d.Rank >= firstDan:
		d.Rank--
		d.Points = ranks[d.Rank].base
	case d.Points < 0:
		d.Points = 0
	}
	return d
}
