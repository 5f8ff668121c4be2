package cputime

import (
	"runtime"
	"testing"
)

// TestNowAdvances checks that busy work shows up as CPU time (on systems
// that report it).
func TestNowAdvances(t *testing.T) {
	t0 := Now()
	if t0 == 0 && runtime.GOOS == "windows" {
		t.Skip("CPU time not read on this system")
	}
	x := 0
	for i := 0; i < 50_000_000; i++ {
		x += i ^ (x >> 3)
	}
	if Now() <= t0 {
		t.Errorf("CPU time did not advance after busy work (sink %d)", x)
	}
}
