package screen

import (
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/riichi/timecontrol"
)

// A decision under 5+10 with 7 s of bank left, read at several moments:
// the free time counts down first, then the bank.
func TestCountdown(t *testing.T) {
	shown := time.UnixMilli(1_000_000)
	d := Decision{BaseDeadline: shown.Add(5 * time.Second).UnixMilli(), Deadline: shown.Add(12 * time.Second).UnixMilli(), BankMs: 7000}
	for _, c := range []struct {
		after time.Duration
		want  string
	}{
		{0, "5 s + bank 7 s"},
		{1500 * time.Millisecond, "4 s + bank 7 s"},
		{5 * time.Second, "bank 7 s"},
		{9 * time.Second, "bank 3 s"},
		{20 * time.Second, "bank 0 s"},
	} {
		if got := d.Countdown(shown.Add(c.after)); got != c.want {
			t.Errorf("after %v: %q, want %q", c.after, got, c.want)
		}
	}
	plain := Decision{Deadline: shown.Add(30 * time.Second).UnixMilli()}
	if got := plain.Countdown(shown); got != "30 s" {
		t.Errorf("without a clock: %q", got)
	}
	if got := (Decision{}).Countdown(shown); got != "" {
		t.Errorf("without a deadline: %q", got)
	}
}

// After the page was away, a decision's countdown restarts from the
// clock as it stood (countFrom): 2 s of free time and 10 s of bank left
// end the decision 12 s from now, unless its hard bound (the decision
// timeout) comes first; with no clock running only the hard bound counts.
func TestCountFrom(t *testing.T) {
	now := time.UnixMilli(5_000_000)
	st := timecontrol.State{Running: true, Paused: true, Base: 2 * time.Second, Bank: 10 * time.Second}
	for _, c := range []struct {
		name                 string
		hard                 time.Time
		clock                timecontrol.State
		deadline, base, bank int64
	}{
		{"clock first", now.Add(20 * time.Second), st, now.Add(12 * time.Second).UnixMilli(), now.Add(2 * time.Second).UnixMilli(), 10000},
		{"hard bound first", now.Add(5 * time.Second), st, now.Add(5 * time.Second).UnixMilli(), now.Add(2 * time.Second).UnixMilli(), 10000},
		{"no hard bound", time.Time{}, st, now.Add(12 * time.Second).UnixMilli(), now.Add(2 * time.Second).UnixMilli(), 10000},
		{"no clock", now.Add(20 * time.Second), timecontrol.State{}, now.Add(20 * time.Second).UnixMilli(), 0, 0},
	} {
		d := Decision{Deadline: 1, BaseDeadline: 1, BankMs: 1}
		d.countFrom(now, c.hard, c.clock)
		if d.Deadline != c.deadline || d.BaseDeadline != c.base || d.BankMs != c.bank {
			t.Errorf("%s: deadline %d base %d bank %d, want %d %d %d", c.name, d.Deadline, d.BaseDeadline, d.BankMs, c.deadline, c.base, c.bank)
		}
	}
}
