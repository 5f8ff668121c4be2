//go:build !unix

package replay

import "time"

// cpuNow returns 0: CPU time is not measured on this system.
func cpuNow() time.Duration { return 0 }
