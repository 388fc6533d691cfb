//go:build !amd64 && !arm64

package prefetch

import "unsafe"

// Line does nothing here: this architecture has no prefetch in this
// package.
func Line(p unsafe.Pointer) {}
