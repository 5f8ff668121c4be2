package screen

import (
	"testing"
	"time"
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
