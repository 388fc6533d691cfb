package prefetch

import "unsafe"

// Line hints that the cache line holding p will be read soon. p need not
// point at anything valid: a hint never faults.
//
//go:noescape
func Line(p unsafe.Pointer)
