package main

import (
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/table"
)

// namesOf names the seats of a kyoku with dealer oya as every table,
// hand line and standings list does: "alice (East)".
func namesOf(seats []peer.ID, nick func(peer.ID) string, oya game.Seat) table.Names {
	n := table.Names{Seats: seats, Oya: oya}
	for _, p := range seats {
		n.Nicks = append(n.Nicks, nick(p))
	}
	return n
}
