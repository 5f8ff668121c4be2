package protocol

import (
	"flag"
	"os"
	"testing"
)

// TestMain runs the package's parallel tests four at a time unless
// -test.parallel is given: most of them play whole hands over memnet and
// wait on the table's messages and timers more than they compute, so
// GOMAXPROCS (two here) at a time leaves cores idle (docs/BENCHMARKS.md,
// "The short test run"). The tests whose checks depend on timing run
// alone, without t.Parallel, as before.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", "4")
	}
	os.Exit(m.Run())
}
