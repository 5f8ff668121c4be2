package league

import (
	"bytes"
	"cmp"
	"slices"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Standings are the figures of the four-player and the three-player games
// apart (Tenhou keeps them apart); a nil League has no games. Its JSON
// form is {"four_player": L, "three_player": L}.
type Standings struct {
	FourPlayer  *League `json:"four_player"`
	ThreePlayer *League `json:"three_player"`
}

// League is the standings of the games of one player count.
type League struct {
	// Games is the number of games.
	Games int `json:"games"`
	// Players are the players, by R descending (then by peer ID).
	Players []Player `json:"players"`
	// First and Last are when the first and the last game ended.
	First time.Time `json:"first"`
	Last  time.Time `json:"last"`
}

// Player is one player's figures in a League.
type Player struct {
	// Name is the nickname of the player's latest game.
	Name   string `json:"name"`
	PeerID string `json:"peer_id"`
	Games  int    `json:"games"`
	// Placements counts the games finished at each place: index 0 the
	// first places; four or three entries.
	Placements []int `json:"placements"`
	// Points is the sum of the game points (uma and oka included, as
	// certified), in points (61.8 for +61.8).
	Points float64 `json:"points"`
	// Rate is Tenhou's R after the player's last game.
	Rate float64 `json:"rate"`
	// DanPoints and Dan are Tenhou's dan points and rank after the last
	// game, in the room Compute was given (four-player games only: nil
	// and "" in three-player standings).
	DanPoints *int   `json:"dan_points"`
	Dan       string `json:"dan,omitempty"`

	dan    Dan
	tenths int // Points in tenths
}

// Compute replays games in the order they ended (ties by game id) and
// returns the standings; room is the Tenhou room whose dan points
// four-player games earn.
func Compute(games []Game, room Room) Standings {
	games = slices.Clone(games)
	slices.SortFunc(games, func(a, b Game) int {
		return cmp.Or(a.Ended.Compare(b.Ended), bytes.Compare(a.Result.GameId, b.Result.GameId))
	})
	var st Standings
	four, three := newTally(4), newTally(3)
	for _, g := range games {
		if len(g.Peers) == 4 {
			four.add(g, room)
		} else {
			three.add(g, room)
		}
	}
	st.FourPlayer, st.ThreePlayer = four.league(), three.league()
	return st
}

// tally accumulates one League.
type tally struct {
	n       int
	games   int
	first   time.Time
	last    time.Time
	players map[peer.ID]*Player
}

func newTally(n int) *tally { return &tally{n: n, players: map[peer.ID]*Player{}} }

// add counts game g.
func (t *tally) add(g Game, room Room) {
	if t.games == 0 {
		t.first = g.Ended
	}
	t.games++
	t.last = g.Ended
	n := len(g.Peers)
	ps := make([]*Player, n)
	rates, games, places := make([]float64, n), make([]int, n), make([]int, n)
	for i, id := range g.Peers {
		p := t.players[id]
		if p == nil {
			p = &Player{PeerID: id.String(), Placements: make([]int, t.n), Rate: StartRate}
			t.players[id] = p
		}
		ps[i] = p
		rates[i], games[i], places[i] = p.Rate, p.Games, int(g.Result.Players[i].Placement)
	}
	changes := rateChanges(rates, games, places)
	for i, p := range ps {
		line := g.Result.Players[i]
		p.Name = line.Nick
		p.Games++
		p.Placements[places[i]-1]++
		p.tenths += int(line.Points)
		p.Rate += changes[i]
		if n == 4 {
			p.dan = p.dan.after(room, g.Settings.Tonpuu, places[i])
		}
	}
}

// league returns the tally's League, nil with no games.
func (t *tally) league() *League {
	if t.games == 0 {
		return nil
	}
	l := &League{Games: t.games, First: t.first, Last: t.last}
	for _, p := range t.players {
		p.Points = float64(p.tenths) / 10
		if t.n == 4 {
			pts := p.dan.Points
			p.DanPoints, p.Dan = &pts, p.dan.Name()
		}
		l.Players = append(l.Players, *p)
	}
	slices.SortFunc(l.Players, func(a, b Player) int {
		return cmp.Or(cmp.Compare(b.Rate, a.Rate), cmp.Compare(a.PeerID, b.PeerID))
	})
	return l
}
