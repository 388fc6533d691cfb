//go:build linux

package hugepage

import (
	"syscall"
	"unsafe"
)

const supported = true

// madvHugepage is MADV_HUGEPAGE (the syscall package does not name it).
const madvHugepage = 14

// advise advises the n bytes at p (p and n multiples of the page size).
func advise(p unsafe.Pointer, n uintptr) bool {
	return syscall.Madvise(unsafe.Slice((*byte)(p), n), madvHugepage) == nil
}
