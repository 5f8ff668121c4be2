package main

import (
	"io"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/riichi/settings"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
)

// TestTimeOffWaits checks the waits a node derives from the table's time
// control against what docs/playing.md promises. "--time off sets no limit
// (teaching games)": a player who stops 20 minutes to explain a hand must
// be neither acted for by their own node (its decision timeout is the
// turn timeout less 5 s, protocol.Config) nor named silent by the others
// (the turn timeout). "The other players wait for a decision BASE+BANK
// plus --timeout (30 s)": 5+10 gives 45 s. A --turn-timeout given on the
// command line wins over both.
func TestTimeOffWaits(t *testing.T) {
	t.Parallel()
	const pause = 20 * time.Minute
	for _, c := range []struct {
		name  string
		ctl   timecontrol.Control
		args  []string
		want  time.Duration // 0: at least pause + a minute
		error bool
	}{
		{name: "off", ctl: timecontrol.Off},
		{name: "5+10", ctl: timecontrol.Default, want: 45 * time.Second},
		{name: "off, --turn-timeout 2m", ctl: timecontrol.Off, args: []string{"--turn-timeout", "2m"}, want: 2 * time.Minute},
		{name: "off, --turn-timeout 10s", ctl: timecontrol.Off, args: []string{"--turn-timeout", "10s"}, error: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var f tableFlags
			cmd := &cobra.Command{Use: "join"}
			cmd.SetErr(io.Discard)
			f.register(cmd, false)
			if err := cmd.Flags().Parse(c.args); err != nil {
				t.Fatal(err)
			}
			st := settings.Default()
			st.Time = c.ctl
			_, ok := f.setGame(cmd, st)
			if ok == c.error {
				t.Fatalf("setGame ok %v, want %v (turn timeout %s)", ok, !c.error, f.turnTimeout)
			}
			if c.error {
				return
			}
			if c.want != 0 {
				if f.turnTimeout != c.want {
					t.Errorf("turn timeout %s, want %s", f.turnTimeout, c.want)
				}
				return
			}
			decision := max(f.turnTimeout/2, f.turnTimeout-5*time.Second)
			if f.turnTimeout < pause+time.Minute || decision < pause {
				t.Errorf("--time off: others wait %s, own node acts after %s: a %s pause is cut short", f.turnTimeout, decision, pause)
			}
		})
	}
}
