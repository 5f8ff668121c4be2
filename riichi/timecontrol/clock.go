package timecontrol

import (
	"sync"
	"time"
)

// Clock keeps one player's time control over a match: the bank left in
// the current hand, and the decision under way. It is safe for concurrent use (the protocol
// starts and stops it, a table shows it).
type Clock struct {
	mu      sync.Mutex
	c       Control
	bank    time.Duration
	started time.Time // zero when no decision is under way
	paused  time.Time // when Pause stopped the running decision; zero if not paused
	now     func() time.Time
}

// NewClock returns a clock for c with its whole bank. A nil *Clock (or
// one for an Off control) sets no limit.
func NewClock(c Control) *Clock {
	return &Clock{c: c, bank: c.Bank, now: time.Now}
}

// Control returns the clock's time control.
func (k *Clock) Control() Control { return k.c }

// Start begins a decision now and returns how long it may take: Base plus
// the bank left; 0 when the clock sets no limit (nil or off).
func (k *Clock) Start() time.Duration {
	if k == nil || k.c.IsOff() {
		return 0
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.started, k.paused = k.now(), time.Time{}
	return k.c.Base + k.bank
}

// Pause stands the running decision's clock still: the time until Resume
// is charged neither to the decision's Base nor to the bank, and State
// shows the clock as it was at the pause. The protocol pauses a player's
// clock while the screen that shows the decision is away (a closed table
// page, see protocol.Attended). It does nothing when no decision is under
// way or the clock is already paused.
func (k *Clock) Pause() {
	if k == nil || k.c.IsOff() {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.started.IsZero() && k.paused.IsZero() {
		k.paused = k.now()
	}
}

// Resume starts a paused decision's clock again where Pause stopped it,
// and returns how long the decision may still take (Base and bank left,
// as Start counts them). It returns 0, and does nothing, when no decision
// is under way or the clock sets no limit.
func (k *Clock) Resume() time.Duration {
	if k == nil || k.c.IsOff() {
		return 0
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.started.IsZero() {
		return 0
	}
	if !k.paused.IsZero() {
		k.started = k.started.Add(k.now().Sub(k.paused))
		k.paused = time.Time{}
	}
	used := k.now().Sub(k.started)
	return max(0, k.c.Base+k.bank-used)
}

// at returns the time the running decision's clock reads: now, or when
// it was paused. k.mu is held.
func (k *Clock) at() time.Time {
	if !k.paused.IsZero() {
		return k.paused
	}
	return k.now()
}

// NewHand refills the bank for a new hand (kyoku), as Tenhou does (see
// the package doc for the source); a decision under way is left running.
// The protocol calls it as each hand's play begins.
func (k *Clock) NewHand() {
	if k == nil || k.c.IsOff() {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.bank = k.c.Bank
}

// Stop ends the decision Start began and takes what it used beyond Base,
// paused time left out, from the bank (down to 0). It returns the bank
// left.
func (k *Clock) Stop() time.Duration {
	if k == nil || k.c.IsOff() {
		return 0
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.started.IsZero() {
		k.bank = max(0, k.bank-max(0, k.at().Sub(k.started)-k.c.Base))
		k.started, k.paused = time.Time{}, time.Time{}
	}
	return k.bank
}

// State is what a table shows of a clock.
type State struct {
	// Running is true while a decision is under way (paused or not).
	Running bool
	// Paused is true while a running decision's clock stands still
	// (Clock.Pause).
	Paused bool
	// Base is what is left of the decision's free time (0 once it is
	// used, or when none is under way).
	Base time.Duration
	// Bank is the bank left, less what the running decision has taken.
	Bank time.Duration
	// Off is true when the clock sets no limit.
	Off bool
}

// State returns the clock's state now, for a countdown.
func (k *Clock) State() State {
	if k == nil || k.c.IsOff() {
		return State{Off: true}
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.started.IsZero() {
		return State{Bank: k.bank}
	}
	used := k.at().Sub(k.started)
	return State{Running: true, Paused: !k.paused.IsZero(), Base: max(0, k.c.Base-used), Bank: max(0, k.bank-max(0, used-k.c.Base))}
}

// String returns the state as a table shows it: "4 s + bank 10 s",
// "bank 7 s" (the base used up), or "" when off.
func (s State) String() string {
	switch {
	case s.Off:
		return ""
	case s.Running && s.Base > 0:
		return secs(s.Base.Round(100*time.Millisecond)) + " s + bank " + secs(s.Bank.Round(time.Second)) + " s"
	case s.Running:
		return "bank " + secs(s.Bank.Round(100*time.Millisecond)) + " s"
	}
	return "bank " + secs(s.Bank.Round(time.Second)) + " s"
}
