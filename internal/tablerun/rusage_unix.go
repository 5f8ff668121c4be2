//go:build unix

package tablerun

import (
	"runtime"
	"syscall"
	"time"
)

// peakRSSKiB returns this process's peak resident set size in KiB, or -1
// if the system does not report it (getrusage(2) ru_maxrss: KiB on Linux,
// bytes on macOS).
func peakRSSKiB() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) / 1024
	}
	return int64(ru.Maxrss)
}

// cpuTime returns the user plus system CPU time this process has used, or
// 0 if the system does not report it.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
