// Package testparallel is the TestMain of the packages whose tests wait
// on the network, a table's timers or a browser more than they compute
// (protocol, node, node/invite, node/spectate, ui/web, ui/viewer): it runs their parallel
// tests more than GOMAXPROCS at a time, so that a 2-core machine's cores
// are not left idle while every running test sleeps (docs/BENCHMARKS.md,
// "The short test run"). Tests whose checks depend on timing do not call
// t.Parallel and run alone as before.
package testparallel

import (
	"flag"
	"os"
	"strconv"
	"testing"
)

// Main parses the test flags, sets -test.parallel to n (tests at a time)
// unless the command line gives it, runs the tests and exits with their
// status. Call it from TestMain.
func Main(m *testing.M, n int) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", strconv.Itoa(n)); err != nil {
			panic(err) // the testing package always defines -test.parallel
		}
	}
	os.Exit(m.Run())
}
