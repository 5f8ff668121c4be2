package screen

import (
	"context"
	"time"
)

// The result screen: after each hand the table shows its result whole
// (HandDone) and the next deal waits for the player to read it, as
// Tenhou and Mahjong Soul do: until the player dismisses it (Dismiss) or
// the hold the caller gives WaitResult has passed, whichever comes first.
// The node's game loop waits in WaitResult, so no clock of the next hand
// runs under the result screen; Snapshot.ResultUntil tells the view when
// the next deal comes at the latest.

// Dismiss records that the player has read hand n's result screen (a
// click, Esc or Enter on the page; Enter on the terminal). A dismissal of
// another hand than the last one shown is ignored.
func (m *Model) Dismiss(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.s.Hands) == 0 || m.s.Hands[len(m.s.Hands)-1].Number != n || m.s.Dismissed == n {
		return
	}
	m.s.Dismissed = n
	m.s.ResultUntil = 0
	if m.dismissed != nil {
		close(m.dismissed)
		m.dismissed = nil
	}
	m.commit()
}

// MarkLastHand records that the hand whose result is shown last is the
// game's last (the match is over, or the set number of hands is played):
// the result screen then says the standings follow, not the next hand.
func (m *Model) MarkLastHand() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.s.LastHand = true
	m.commit()
}

// WaitResult holds the next deal while the last hand's result screen is
// up: it returns when the player has dismissed it (Dismiss), when hold
// has passed since the call, or when ctx ends, and returns at once when no
// result is showing or hold ≤ 0. The view shows the hold's end as
// Snapshot.ResultUntil (Unix ms).
func (m *Model) WaitResult(ctx context.Context, hold time.Duration) {
	m.mu.Lock()
	if hold <= 0 || len(m.s.Hands) == 0 || m.s.Dismissed == m.s.Hands[len(m.s.Hands)-1].Number {
		m.mu.Unlock()
		return
	}
	ch := make(chan struct{})
	m.dismissed = ch
	m.s.ResultUntil = time.Now().Add(hold).UnixMilli()
	m.commit()
	m.mu.Unlock()
	t := time.NewTimer(hold)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	case <-ctx.Done():
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.dismissed == ch {
		m.dismissed = nil
	}
	if m.s.ResultUntil != 0 {
		m.s.ResultUntil = 0
		m.commit()
	}
}
