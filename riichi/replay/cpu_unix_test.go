//go:build unix

package replay

import (
	"syscall"
	"time"
)

// cpuNow returns the CPU time (user + system) this process has used, or 0
// if the system does not report it (getrusage(2)).
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
