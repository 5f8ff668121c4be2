package protocol

import "github.com/mentalmj/mentalmj/riichi/game"

// Rules returns the match rules the game plays (the engine's game.Rules:
// Tenhou's four- or three-player rules for the player count), for
// naming tiles as the table plays them (Rules().Hand.Reds()) in progress
// lines and records.
func (g *Game) Rules() game.Rules { return g.rules }
