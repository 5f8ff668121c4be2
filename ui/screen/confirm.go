package screen

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
