package tablerun

import (
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/riichi/settings"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
)

// The waits the README promises: "the other players wait for a decision
// BASE+BANK plus --timeout": 5+10 with the 30 s default is 45 s; --time
// off waits an hour; a --turn-timeout given wins, but never below
// --timeout.
func TestTurnTimeout(t *testing.T) {
	game := settings.Default()
	game.Time = timecontrol.Control{Base: 5 * time.Second, Bank: 10 * time.Second}
	off := settings.Default()
	off.Time = timecontrol.Off
	for _, c := range []struct {
		name          string
		game          settings.Settings
		timeout, give time.Duration
		want          time.Duration
	}{
		{"5+10", game, 30 * time.Second, 0, 45 * time.Second},
		{"off", off, 30 * time.Second, 0, time.Hour},
		{"given", off, 30 * time.Second, 2 * time.Minute, 2 * time.Minute},
	} {
		if got, err := TurnTimeout(c.game, c.timeout, c.give); err != nil || got != c.want {
			t.Errorf("%s: %s, %v; want %s", c.name, got, err, c.want)
		}
	}
	if _, err := TurnTimeout(off, 30*time.Second, 10*time.Second); err == nil || !strings.Contains(err.Error(), "--turn-timeout (10s)") {
		t.Errorf("a turn timeout below --timeout: %v", err)
	}
}
