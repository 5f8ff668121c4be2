package terminal

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/ui/screen"
)

// TestHoldSaysWhatFollows: the hold after a hand names the next hand,
// and after the game's last hand (screen.Model.MarkLastHand) the
// standings, never a next hand.
func TestHoldSaysWhatFollows(t *testing.T) {
	for _, last := range []bool{false, true} {
		var out strings.Builder
		m := screen.NewModel(nil)
		if last {
			m.MarkLastHand()
		}
		tb := New(strings.NewReader(""), &out, m)
		tb.HoldResult(context.Background(), 10*time.Millisecond)
		got := out.String()
		if last && (!strings.Contains(got, "standings follow") || strings.Contains(got, "next hand")) {
			t.Errorf("after the last hand: %q, want the standings to follow", got)
		}
		if !last && !strings.Contains(got, "next hand in") {
			t.Errorf("after a hand: %q, want the next hand's time", got)
		}
	}
}
