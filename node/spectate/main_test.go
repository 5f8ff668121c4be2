package spectate

import (
	"testing"

	"github.com/mentalmj/mentalmj/internal/testparallel"
)

// TestMain runs the package's parallel tests eight at a time unless
// -test.parallel is given: its games are paced for a spectator to join
// and wait on gossipsub and libp2p more than they compute.
func TestMain(m *testing.M) { testparallel.Main(m, 8) }
