package latency

import (
	"testing"
	"time"
)

func TestFromRTT(t *testing.T) {
	l, err := FromRTT(100*time.Millisecond, 20*time.Millisecond)
	if err != nil || l.OneWay != 50*time.Millisecond || l.Jitter != 20*time.Millisecond {
		t.Fatalf("FromRTT(100ms, 20ms) = %v, %v; want 50ms ± 20ms one way", l, err)
	}
	for _, c := range []struct{ rtt, jitter time.Duration }{
		{-time.Millisecond, 0},
		{100 * time.Millisecond, -time.Millisecond},
		{0, 20 * time.Millisecond},
	} {
		if _, err := FromRTT(c.rtt, c.jitter); err == nil {
			t.Errorf("FromRTT(%s, %s) accepted", c.rtt, c.jitter)
		}
	}
}

// TestScheduleJitter checks the delivery times of messages sent far apart
// (so that order never holds one back) against the model: every delay in
// [OneWay − Jitter, OneWay + Jitter], the mean near OneWay, and both ends
// of the range reached.
func TestScheduleJitter(t *testing.T) {
	l := Link{OneWay: 50 * time.Millisecond, Jitter: 20 * time.Millisecond}
	s := NewSchedule(l, 1)
	t0 := time.Unix(0, 0)
	const n = 20000
	var sum, lo, hi time.Duration = 0, time.Hour, 0
	for i := range n {
		sent := t0.Add(time.Duration(i) * time.Second)
		d := s.Deliver(sent).Sub(sent)
		if d < l.OneWay-l.Jitter || d > l.OneWay+l.Jitter {
			t.Fatalf("message %d delayed %s, outside %s", i, d, l)
		}
		sum += d
		lo, hi = min(lo, d), max(hi, d)
	}
	if mean := sum / n; mean < 49*time.Millisecond || mean > 51*time.Millisecond {
		t.Errorf("mean delay %s, want 50ms ± 1ms (uniform jitter is centred)", mean)
	}
	if lo > 31*time.Millisecond || hi < 69*time.Millisecond {
		t.Errorf("delays span %s..%s, want about 30ms..70ms", lo, hi)
	}
}

// TestScheduleKeepsOrder sends messages closer together than the jitter:
// a later message is never delivered before an earlier one, and none
// before it was sent plus OneWay − Jitter.
func TestScheduleKeepsOrder(t *testing.T) {
	l := Link{OneWay: 10 * time.Millisecond, Jitter: 10 * time.Millisecond}
	s := NewSchedule(l, 7)
	t0 := time.Unix(0, 0)
	var last time.Time
	held := 0
	for i := range 10000 {
		sent := t0.Add(time.Duration(i) * time.Millisecond)
		at := s.Deliver(sent)
		if at.Before(last) {
			t.Fatalf("message %d delivered at %v, before message %d at %v", i, at, i-1, last)
		}
		if at.Sub(sent) < l.OneWay-l.Jitter {
			t.Fatalf("message %d delivered %s after sending", i, at.Sub(sent))
		}
		if at.Equal(last) {
			held++
		}
		last = at
	}
	if held == 0 {
		t.Error("no message was ever held back by an earlier one: the test sends too far apart to test order")
	}
}

// TestScheduleClipsAtZero: with a jitter larger than the delay no message
// is delivered before it was sent.
func TestScheduleClipsAtZero(t *testing.T) {
	l, err := FromRTT(100*time.Millisecond, 60*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSchedule(l, 3)
	t0 := time.Unix(0, 0)
	zero := 0
	for i := range 10000 {
		sent := t0.Add(time.Duration(i) * time.Second)
		d := s.Deliver(sent).Sub(sent)
		if d < 0 || d > l.OneWay+l.Jitter {
			t.Fatalf("message %d delayed %s, outside 0..%s", i, d, l.OneWay+l.Jitter)
		}
		if d == 0 {
			zero++
		}
	}
	// P(delay ≤ 0) = 10/121 with a uniform jitter of ±60 ms on 50 ms.
	if zero < 600 || zero > 1050 {
		t.Errorf("%d of 10000 delays clipped to 0, want about 826", zero)
	}
}

func TestZeroLinkDeliversAtOnce(t *testing.T) {
	s := NewSchedule(Link{}, 1)
	now := time.Now()
	if at := s.Deliver(now); !at.Equal(now) {
		t.Errorf("zero link delivers %s late", at.Sub(now))
	}
}
