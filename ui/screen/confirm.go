package screen

import (
	"fmt"
	"slices"
)

// Ask shows game (the invite's settings in words) as the question a
// guest answers before the game starts: the view offers Accept and
// Decline until Answered.
func (m *Model) Ask(game string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.s.Confirm = game
	m.s.Status = "the host's game: accept to play it, or decline"
	m.commit()
}

// Asking reports whether a question from Ask waits for its answer.
func (m *Model) Asking() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.s.Confirm != ""
}

// Answered takes the question of Ask off the table and shows status, what
// the node does with the answer.
func (m *Model) Answered(status string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.s.Confirm = ""
	m.s.Status = status
	m.commit()
}

// SetRoom shows the waiting room before the game: players are the names
// of those at the table so far (this player's first), total the seats
// to fill. The status says how many are still awaited.
func (m *Model) SetRoom(players []string, total int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.s.Room = slices.Clone(players)
	m.s.RoomSeats = total
	if n := total - len(players); n > 0 {
		m.s.Status = fmt.Sprintf("waiting for %d more player(s): send them the invite the host printed", n)
	} else {
		m.s.Status = "the table is complete: the game starts"
	}
	m.commit()
}
