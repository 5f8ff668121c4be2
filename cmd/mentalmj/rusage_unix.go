//go:build unix

package main

import (
	"runtime"
	"syscall"
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
