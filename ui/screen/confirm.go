package screen

import (
	"slices"

	"github.com/mentalmj/mentalmj/ui/i18n"
)

// Ask shows game (the invite's table and settings as a message,
// tablerun.InviteMsg) as the question a guest answers before the game
// starts: the view offers Accept and Decline until Answered.
func (m *Model) Ask(game i18n.Msg) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.s.Confirm, m.s.ConfirmMsg = i18n.English().Say(game), &game
	m.status(i18n.M("status.confirm"))
	m.commit()
}

// Asking reports whether a question from Ask waits for its answer.
func (m *Model) Asking() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.s.Confirm != ""
}

// Answered takes the question of Ask off the table and shows status, what
// the node does with the answer (an i18n.Msg: status.accepted,
// status.declined).
func (m *Model) Answered(status i18n.Msg) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.s.Confirm, m.s.ConfirmMsg = "", nil
	m.status(status)
	m.commit()
}

// status sets the status line to msg (Status its English); m.mu held.
func (m *Model) status(msg i18n.Msg) {
	m.s.Status, m.s.StatusMsg = i18n.English().Say(msg), &msg
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
		m.status(i18n.M("status.room_waiting", n))
	} else {
		m.status(i18n.M("status.room_full"))
	}
	m.commit()
}
