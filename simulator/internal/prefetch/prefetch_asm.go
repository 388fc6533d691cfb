//go:build amd64 || arm64

package prefetch

import "unsafe"

// Line hints that the cache line holding p will be read soon: PREFETCHT0
// on amd64, PRFM PLDL1KEEP on arm64. p may be nil; a hint never faults
// and changes no memory.
//
//go:noescape
func Line(p unsafe.Pointer)
