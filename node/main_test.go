package node

import (
	"testing"

	"github.com/mentalmj/mentalmj/internal/testparallel"
)

// TestMain runs the package's parallel tests eight at a time unless
// -test.parallel is given: most of them wait on libp2p connections,
// relays and timeouts more than they compute.
func TestMain(m *testing.M) { testparallel.Main(m, 8) }
