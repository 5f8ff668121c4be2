package terminal

import (
	"context"
	"time"

	"github.com/mentalmj/mentalmj/ui/screen"
)

// Warnings are the times left at which the prompt of a decision with a
// deadline says again how long the player has: the prompt counts down.
var Warnings = []time.Duration{10 * time.Second, 5 * time.Second}

// countDown prints, while the prompt of decision d waits, the time left
// at each of Warnings before d's deadline (those the decision has time
// for) with the prompt again; it stops when the returned function is
// called or ctx ends.
func (t *Table) countDown(ctx context.Context, d screen.Decision, prompt string) (stop func()) {
	if d.Deadline == 0 {
		return func() {}
	}
	deadline := time.UnixMilli(d.Deadline)
	cctx, cancel := context.WithCancel(ctx)
	go func() {
		for _, w := range Warnings {
			at := deadline.Add(-w)
			if time.Until(at) < time.Second {
				continue
			}
			select {
			case <-time.After(time.Until(at)):
			case <-cctx.Done():
				return
			}
			t.mu.Lock()
			if t.prompting {
				t.out.Write([]byte("\n" + t.lang.T("term.left", d.CountdownIn(time.Now(), t.lang)) + prompt))
			}
			t.mu.Unlock()
		}
	}()
	return cancel
}
