//go:build !unix

package main

// peakRSSKiB returns -1: peak RSS is not reported on this system.
func peakRSSKiB() int64 { return -1 }
