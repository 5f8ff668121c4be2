package timecontrol

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Control is a time control: Base per decision, and a Bank for each hand
// (kyoku) that pays for what decisions take beyond Base. The zero Control
// is "off": no limit.
type Control struct {
	// Base is each decision's free time (at least a second unless off).
	Base time.Duration
	// Bank is the extra time for each hand (0 or more).
	Bank time.Duration
}

// Default is the time control of a human seat unless the host chooses
// another: Tenhou's 5+10.
var Default = Control{Base: 5 * time.Second, Bank: 10 * time.Second}

// Off is no time control.
var Off = Control{}

// Forms lists the valid forms of a time control, for error messages.
const Forms = `BASE+BANK in seconds (e.g. "5+10", Tenhou's; "3+0"; "7.5+20"), BASE alone (no bank), or "off" (no limit)`

// ErrSyntax is wrapped by Parse's errors.
var ErrSyntax = errors.New("malformed time control")

// maxSeconds bounds BASE and BANK: an hour each (they travel as uint32
// milliseconds).
const maxSeconds = 3600

// Parse reads a time control: "BASE+BANK" with BASE and BANK in seconds
// (decimal, BASE ≥ 0.1 and BANK ≥ 0, at most an hour each, to the
// millisecond), "BASE" (a bank of 0), or "off". It returns an error
// wrapping ErrSyntax that lists the valid forms (Forms).
func Parse(s string) (Control, error) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "off") {
		return Off, nil
	}
	base, bank, hasBank := strings.Cut(s, "+")
	b, err := seconds(base)
	if err != nil || b < 100*time.Millisecond {
		return Control{}, fmt.Errorf("%w %q: want %s", ErrSyntax, s, Forms)
	}
	c := Control{Base: b}
	if hasBank {
		if c.Bank, err = seconds(bank); err != nil {
			return Control{}, fmt.Errorf("%w %q: want %s", ErrSyntax, s, Forms)
		}
	}
	return c, nil
}

// seconds parses a non-negative decimal number of seconds, at most
// maxSeconds, rounded to the millisecond.
func seconds(s string) (time.Duration, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || v < 0 || v > maxSeconds {
		return 0, ErrSyntax
	}
	return time.Duration(math.Round(v*1000)) * time.Millisecond, nil
}

// IsOff reports whether c sets no limit.
func (c Control) IsOff() bool { return c.Base <= 0 }

// String returns c in Parse's form: "off", or "BASE+BANK" in seconds
// ("5+10", "7.5+0").
func (c Control) String() string {
	if c.IsOff() {
		return "off"
	}
	return secs(c.Base) + "+" + secs(c.Bank)
}

func secs(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

// Describe returns c for a player to read: "5+10 s per decision" or "no
// time limit".
func (c Control) Describe() string {
	if c.IsOff() {
		return "no time limit"
	}
	return c.String() + " s per decision"
}

// Millis returns Base and Bank in milliseconds, the wire form (package
// riichi/settings), and whether c is off.
func (c Control) Millis() (base, bank uint32, off bool) {
	if c.IsOff() {
		return 0, 0, true
	}
	return uint32(c.Base.Milliseconds()), uint32(c.Bank.Milliseconds()), false
}

// FromMillis is the inverse of Millis. It returns an error if the values
// are not a control Parse could give: off with times, or a base under
// 100 ms or a time over an hour.
func FromMillis(base, bank uint32, off bool) (Control, error) {
	if off {
		if base != 0 || bank != 0 {
			return Control{}, fmt.Errorf("%w: off with base %d ms and bank %d ms", ErrSyntax, base, bank)
		}
		return Off, nil
	}
	if base < 100 || base > maxSeconds*1000 || bank > maxSeconds*1000 {
		return Control{}, fmt.Errorf("%w: base %d ms, bank %d ms (base 100 ms to 1 h, bank at most 1 h)", ErrSyntax, base, bank)
	}
	return Control{Base: time.Duration(base) * time.Millisecond, Bank: time.Duration(bank) * time.Millisecond}, nil
}

// OffWait is how long the other players wait for one decision of a human
// at a table without a clock (--time off), and so, less a margin for the
// message, how long that player's own node lets them think before acting
// for them. docs/playing.md promises teaching games no limit: an hour per
// decision is more than a lesson's pause needs (the five minutes used
// before named a player silent who stopped to explain a hand). The price
// is that a peer that stops answering without dropping its connection
// holds such a table up to an hour before it is named.
const OffWait = time.Hour

// Wait returns how long the other players wait for one decision of a
// player under c: the most it may think, Base+Bank, plus grace for the
// network and the node's own steps. For an off control it returns
// ifOff (the wait of a table without a clock; the nodes pass OffWait).
func (c Control) Wait(grace, ifOff time.Duration) time.Duration {
	if c.IsOff() {
		return ifOff
	}
	return c.Base + c.Bank + grace
}
