package protocol

import (
	"testing"

	"github.com/mentalmj/mentalmj/internal/testparallel"
)

// TestMain runs the package's parallel tests eight at a time unless
// -test.parallel is given: the tests that wait on a table's timers
// (clocks, pauses, thinking players) then overlap with those that compute
// (alone on an idle 2-core machine, -short: 43 s at four, 37–40 s at
// eight; docs/BENCHMARKS.md, "The short test run").
func TestMain(m *testing.M) { testparallel.Main(m, 8) }
