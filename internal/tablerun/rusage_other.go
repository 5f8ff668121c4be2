//go:build !unix

package tablerun

import "time"

// peakRSSKiB returns -1: peak RSS is not reported on this system.
func peakRSSKiB() int64 { return -1 }

// cpuTime returns 0: CPU time is not reported on this system.
func cpuTime() time.Duration { return 0 }
