package game

import (
	"fmt"

	"github.com/mentalmj/mentalmj/wall"
)

// Seat is an absolute seat number 0..3, as in mjlog who=: seat 0 is the
// first dealer of the match (chiicha) and seats follow the turn order
// (seat s+1 is shimocha of seat s).
type Seat int

// NoSeat marks the absence of a seat (e.g. no pao player).
const NoSeat Seat = -1

// Valid reports whether s is 0..3.
func (s Seat) Valid() bool { return s >= 0 && s < 4 }

// Next returns the seat n places after s in turn order (n may be negative)
// among four seats. A three-player Kyoku keeps seats 0..2 and skips seat 3
// itself (Kyoku.Turn, Awaiting); use those rather than Next for sanma.
func (s Seat) Next(n int) Seat { return Seat(((int(s)+n)%4 + 4) % 4) }

// Relative returns the position of other as seen from s: 0 self,
// 1 shimocha (next in turn order), 2 toimen, 3 kamicha (previous). This is
// the From convention of riichi.Meld and of Tenhou's meld codes.
func (s Seat) Relative(other Seat) int { return ((int(other)-int(s))%4 + 4) % 4 }

// Wind returns the seat wind of s in a four-player kyoku whose dealer
// (oya) is oya, as a tile kind: 27 East (the dealer), 28 South, 29 West,
// 30 North. (In sanma the seat after the dealer's kamicha does not exist:
// the winds are East, South, West from the dealer modulo 3.)
func (s Seat) Wind(oya Seat) wall.Kind { return wall.Kind(27 + oya.Relative(s)) }

var windNames = [4]string{"East", "South", "West", "North"}

// label returns "seat 2 (West)" for error messages.
func (s Seat) label(oya Seat) string {
	if !s.Valid() {
		return fmt.Sprintf("seat %d", int(s))
	}
	return fmt.Sprintf("seat %d (%s)", int(s), windNames[oya.Relative(s)])
}

// RoundName returns the name of a round index as in Tenhou's INIT seed
// field 1: 0 → "East 1", 3 → "East 4", 4 → "South 1", 8 → "West 1",
// 12 → "North 1".
func RoundName(round int) string {
	if round < 0 {
		return fmt.Sprintf("round %d", round)
	}
	return fmt.Sprintf("%s %d", windNames[(round/4)%4], round%4+1)
}

// n returns the number of players of the kyoku (4, or 3 in sanma).
func (k *Kyoku) n() int { return k.rules.players() }

// next returns the seat i places after s in turn order among the kyoku's
// players (seats 0..2 in sanma).
func (k *Kyoku) next(s Seat, i int) Seat {
	n := k.n()
	return Seat(((int(s)+i)%n + n) % n)
}

// rel returns the position of other as seen from s among the kyoku's
// players: 0 self, 1 shimocha, ..., n-1 kamicha.
func (k *Kyoku) rel(s, other Seat) int {
	n := k.n()
	return ((int(other)-int(s))%n + n) % n
}

// seatOK reports whether s is a seat of the kyoku (0..n-1).
func (k *Kyoku) seatOK(s Seat) bool { return s >= 0 && int(s) < k.n() }

// wind returns the seat wind of s as a tile kind: 27 East (the dealer),
// then South, West (and North with four players).
func (k *Kyoku) wind(s Seat) wall.Kind { return wall.Kind(27 + k.rel(k.oya, s)) }

// lbl returns "seat 2 (West)" for error messages.
func (k *Kyoku) lbl(s Seat) string {
	if !k.seatOK(s) {
		return fmt.Sprintf("seat %d", int(s))
	}
	return fmt.Sprintf("seat %d (%s)", int(s), windNames[k.rel(k.oya, s)])
}

// SeatWind returns seat s's wind in this kyoku as a tile kind (27 East for
// the dealer, then South, West and, with four players, North), or -1 for a
// seat not in play (seat 3 in sanma).
func (k *Kyoku) SeatWind(s Seat) wall.Kind {
	if !k.seatOK(s) {
		return -1
	}
	return k.wind(s)
}
