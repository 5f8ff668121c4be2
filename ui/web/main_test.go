package web

import (
	"testing"

	"github.com/mentalmj/mentalmj/internal/testparallel"
)

// TestMain runs the package's parallel tests four at a time unless
// -test.parallel is given: each browser test waits on headless Chromium
// and a table's decisions far more than it computes.
func TestMain(m *testing.M) { testparallel.Main(m, 4) }
