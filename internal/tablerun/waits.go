package tablerun

import (
	"fmt"
	"time"

	"github.com/mentalmj/mentalmj/riichi/settings"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
)

// TurnTimeout returns how long the other players wait for one decision of
// a player at a table playing game (Table.TurnTimeout): given (join's
// --turn-timeout) when it is not 0; else the table's time control,
// BASE+BANK, plus timeout (--timeout) as a grace for the network, so
// that a slow network never makes a thinking player silent; with --time
// off, timecontrol.OffWait (an hour: a teaching game's player who thinks
// long is neither acted for nor named silent). It returns an error if the
// wait is shorter than timeout: a player still waiting for a draw's keys
// would be named silent.
func TurnTimeout(game settings.Settings, timeout, given time.Duration) (time.Duration, error) {
	wait := given
	if wait == 0 {
		wait = game.Time.Wait(timeout, timecontrol.OffWait)
	}
	if wait < timeout {
		return 0, fmt.Errorf("--turn-timeout (%s) must not be shorter than --timeout (%s): a player still waiting for a draw's keys would be named silent", wait, timeout)
	}
	return wait, nil
}
