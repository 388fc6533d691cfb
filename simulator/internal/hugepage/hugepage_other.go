//go:build !linux

package hugepage

import "unsafe"

const supported = false

func advise(unsafe.Pointer, uintptr) bool { return false }
