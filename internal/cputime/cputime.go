//go:build unix

// Package cputime reads the CPU time the process has used, so that
// benchmarks on a shared machine can report throughput per CPU-second
// (per core) besides wall time.
package cputime

import (
	"syscall"
	"time"
)

// Now returns the CPU time (user + system, all threads) this process has
// used so far (getrusage(2), RUSAGE_SELF), or 0 if the system does not
// report it.
func Now() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
