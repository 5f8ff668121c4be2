package protocol

import (
	"testing"

	"github.com/mentalmj/mentalmj/internal/testparallel"
)

// TestMain runs the package's parallel tests four at a time unless
// -test.parallel is given: most of them play whole hands over memnet and
// wait on the table's messages and timers more than they compute.
func TestMain(m *testing.M) { testparallel.Main(m, 4) }
