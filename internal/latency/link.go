package latency

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"time"
)

// Link is the emulated delay of one direction of a connection: every
// message takes OneWay, plus or minus up to Jitter drawn uniformly. The
// zero Link delivers at once.
type Link struct {
	OneWay, Jitter time.Duration
}

// FromRTT returns the Link of a connection with round-trip time rtt: a
// one-way delay of rtt/2 each way, with the given jitter on each one-way
// delay. A jitter above rtt/2 is allowed (a harsh network: 100 ms with
// 60 ms of jitter); the delays that would fall below 0 are 0, so the mean
// is then a little above rtt/2. It returns an error naming the value if
// rtt or jitter is negative, or if a jitter comes without an rtt.
func FromRTT(rtt, jitter time.Duration) (Link, error) {
	switch {
	case rtt < 0:
		return Link{}, fmt.Errorf("round-trip time %s is negative", rtt)
	case jitter < 0:
		return Link{}, fmt.Errorf("jitter %s is negative", jitter)
	case rtt == 0 && jitter > 0:
		return Link{}, fmt.Errorf("jitter %s without a round-trip time: give one too", jitter)
	}
	return Link{OneWay: rtt / 2, Jitter: jitter}, nil
}

// Zero reports whether l delays nothing.
func (l Link) Zero() bool { return l.OneWay <= 0 && l.Jitter <= 0 }

// String returns the one-way delay, "50ms ± 10ms", or "no delay".
func (l Link) String() string {
	if l.Zero() {
		return "no delay"
	}
	if l.Jitter == 0 {
		return l.OneWay.String()
	}
	return fmt.Sprintf("%s ± %s", l.OneWay, l.Jitter)
}

// Schedule assigns delivery times to the messages (or stream chunks) of one
// direction of a link, in the order they are sent. It is safe for
// concurrent use.
type Schedule struct {
	link Link
	mu   sync.Mutex
	rng  *rand.Rand
	last time.Time
}

// NewSchedule returns the Schedule of one direction of link l. Jitter is
// drawn from a PCG generator seeded with seed, so that runs can be
// repeated (the delivery times still depend on when messages are sent).
func NewSchedule(l Link, seed uint64) *Schedule {
	return &Schedule{link: l, rng: rand.New(rand.NewPCG(seed, 0x6d656e74616c6d6a))}
}

// Deliver returns when a message sent at time sent is to be delivered:
// sent + OneWay ± Jitter, but never before sent nor before the previous
// message of this direction (order is kept).
func (s *Schedule) Deliver(sent time.Time) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.link.OneWay
	if j := s.link.Jitter; j > 0 {
		d += time.Duration(s.rng.Int64N(int64(2*j)+1)) - j
	}
	at := sent.Add(max(d, 0))
	if at.Before(s.last) {
		at = s.last
	}
	s.last = at
	return at
}
