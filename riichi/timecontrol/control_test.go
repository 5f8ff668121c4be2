package timecontrol

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestParse reads testdata/parse.txt: each line an input and the base and
// bank it means, or "error".
func TestParse(t *testing.T) {
	f, err := os.Open("testdata/parse.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		n++
		in, exp, ok := strings.Cut(line, "|")
		if !ok {
			t.Fatalf("line %q has no |", line)
		}
		want := strings.Fields(exp)
		if exp == "error" {
			want = nil
		}
		got, err := Parse(in)
		if want == nil {
			if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "off") {
				t.Errorf("Parse(%q) = %v, %v; want an ErrSyntax listing the forms", in, got, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if want[0] == "off" {
			if !got.IsOff() || got.String() != "off" {
				t.Errorf("Parse(%q) = %v, want off", in, got)
			}
			continue
		}
		wb, _ := strconv.ParseFloat(want[0], 64)
		wk, _ := strconv.ParseFloat(want[1], 64)
		if got.Base.Seconds() != wb || got.Bank.Seconds() != wk {
			t.Errorf("Parse(%q) = %v+%v, want %v s + %v s", in, got.Base, got.Bank, wb, wk)
		}
		// The canonical form reads back as the same control.
		back, err := Parse(got.String())
		if err != nil || back != got {
			t.Errorf("Parse(%q).String() = %q reads back as %v, %v", in, got.String(), back, err)
		}
		b, k, off := got.Millis()
		if again, err := FromMillis(b, k, off); err != nil || again != got {
			t.Errorf("FromMillis(Millis(%v)) = %v, %v", got, again, err)
		}
	}
	if n < 10 {
		t.Fatalf("only %d cases read", n)
	}
}

func TestFromMillisRejects(t *testing.T) {
	for _, c := range []struct {
		base, bank uint32
		off        bool
	}{{0, 0, false}, {99, 0, false}, {5000, 3600001, false}, {1, 0, true}, {0, 5, true}} {
		if got, err := FromMillis(c.base, c.bank, c.off); !errors.Is(err, ErrSyntax) {
			t.Errorf("FromMillis(%d, %d, %v) = %v, %v; want ErrSyntax", c.base, c.bank, c.off, got, err)
		}
	}
}

// TestClockBank follows a 5+10 clock by hand: a decision of 8 s takes
// 3 s from the bank (7 left), one of 3 s takes nothing, one of 9.5 s
// takes 4.5 s (2.5 left), and the next may last 5 + 2.5 s.
func TestClockBank(t *testing.T) {
	now := time.Unix(1000, 0)
	k := NewClock(Default)
	k.now = func() time.Time { return now }
	decide := func(took time.Duration) time.Duration {
		k.Start()
		now = now.Add(took)
		return k.Stop()
	}
	if got := decide(8 * time.Second); got != 7*time.Second {
		t.Fatalf("after 8 s: bank %v, want 7s", got)
	}
	if got := decide(3 * time.Second); got != 7*time.Second {
		t.Fatalf("after 3 s: bank %v, want 7s", got)
	}
	if got := decide(9500 * time.Millisecond); got != 2500*time.Millisecond {
		t.Fatalf("after 9.5 s: bank %v, want 2.5s", got)
	}
	if got := k.Start(); got != 7500*time.Millisecond {
		t.Fatalf("the next decision may last %v, want 7.5s", got)
	}
	now = now.Add(6 * time.Second)
	if st := k.State(); !st.Running || st.Base != 0 || st.Bank != 1500*time.Millisecond || st.String() != "bank 1.5 s" {
		t.Fatalf("6 s into it: %+v %q, want base 0, bank 1.5s", st, st)
	}
	now = now.Add(time.Minute) // the time runs out; the bank stays at 0
	if got := k.Stop(); got != 0 {
		t.Fatalf("after running out: bank %v, want 0", got)
	}
	if got := k.Start(); got != 5*time.Second {
		t.Fatalf("with an empty bank a decision may last %v, want the base, 5s", got)
	}
	if st := k.State(); st.String() != "5 s + bank 0 s" {
		t.Fatalf("state %q", st)
	}
}

// TestClockNewHand: the bank spent in one hand is whole again in the
// next (5+10: 9 s in hand 1 leaves 6 s; the next hand starts with 10 s),
// and a nil or off clock ignores the call.
func TestClockNewHand(t *testing.T) {
	now := time.Unix(1000, 0)
	k := NewClock(Default)
	k.now = func() time.Time { return now }
	k.Start()
	now = now.Add(9 * time.Second)
	if got := k.Stop(); got != 6*time.Second {
		t.Fatalf("after 9 s: bank %v, want 6s", got)
	}
	k.NewHand()
	if got := k.Start(); got != 15*time.Second {
		t.Fatalf("first decision of the next hand may last %v, want 5+10 s", got)
	}
	var nilClock *Clock
	nilClock.NewHand()
	NewClock(Off).NewHand()
}

// TestClockPause: with 5+10, a decision paused after 3 s for a minute and
// resumed may take 12 s more (15 − 3); the paused minute is charged to
// nothing, so 8 s more (11 s in all) leaves the bank at 4 s (10 − (11 −
// 5)); State stands still while paused. Pause and Resume outside a
// decision, or twice, change nothing.
func TestClockPause(t *testing.T) {
	now := time.Unix(1000, 0)
	k := NewClock(Default)
	k.now = func() time.Time { return now }
	k.Pause()
	if got := k.Resume(); got != 0 {
		t.Fatalf("Resume with no decision under way: %v, want 0", got)
	}
	k.Start()
	now = now.Add(3 * time.Second)
	k.Pause()
	before := k.State()
	now = now.Add(time.Minute)
	k.Pause() // a second Pause keeps the first pause's time
	if st := k.State(); st != before || !st.Paused || st.Base != 2*time.Second || st.Bank != 10*time.Second {
		t.Fatalf("paused for a minute: %+v, want %+v (base 2s, bank 10s, paused)", st, before)
	}
	if got := k.Resume(); got != 12*time.Second {
		t.Fatalf("after the pause the decision may last %v more, want 12s", got)
	}
	if got := k.Resume(); got != 12*time.Second {
		t.Fatalf("a second Resume: %v, want 12s still", got)
	}
	now = now.Add(8 * time.Second)
	if st := k.State(); st.Paused || st.Base != 0 || st.Bank != 4*time.Second {
		t.Fatalf("11 s of play in: %+v, want base 0, bank 4s, not paused", st)
	}
	if got := k.Stop(); got != 4*time.Second {
		t.Fatalf("bank after 11 s of play and a minute paused: %v, want 4s", got)
	}
	// Stopped while paused: only the time before the pause counts.
	k.Start()
	now = now.Add(6 * time.Second)
	k.Pause()
	now = now.Add(time.Hour)
	if got := k.Stop(); got != 3*time.Second {
		t.Fatalf("stopped 6 s in, while paused for an hour: bank %v, want 3s", got)
	}
	var nilClock *Clock
	nilClock.Pause()
	if nilClock.Resume() != 0 {
		t.Error("a nil clock resumes with a limit")
	}
}

func TestOffClock(t *testing.T) {
	for _, k := range []*Clock{nil, NewClock(Off)} {
		if k.Start() != 0 || k.Stop() != 0 || !k.State().Off || k.State().String() != "" {
			t.Errorf("an off clock limits: %+v", k.State())
		}
	}
	if w := Off.Wait(time.Second, time.Hour); w != time.Hour {
		t.Errorf("Off.Wait = %v, want the fallback", w)
	}
	if w := Default.Wait(30*time.Second, time.Hour); w != 45*time.Second {
		t.Errorf("Default.Wait(30s) = %v, want 5+10+30 s", w)
	}
}
