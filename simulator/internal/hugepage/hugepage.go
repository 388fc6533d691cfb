// Package hugepage asks the operating system to back the simulator's
// large per-robot slices with huge pages (2 MiB on amd64 and arm64
// Linux) instead of 4 KiB ones.
//
// Go's heap is not advised for transparent huge pages, and on a kernel
// whose /sys/kernel/mm/transparent_hugepage/enabled says "madvise" (a
// common default) every 4 KiB page of it costs a page fault when it is
// first written: a million robots' slabs, about 1.2 GB, take some
// 300,000 faults, most of their set-up. A fresh large allocation (Make,
// Grow) is not written by Go's allocator before it is handed out, so
// advising it at once, before anything touches it, lets the kernel fault
// in its 2 MiB-aligned interior a huge page at a time; its ticks then
// also miss the TLB less. Memory the allocator reuses is zeroed by it
// before it is returned and keeps its small pages (the advice is then
// harmless).
//
// PrepareHeap extends this to the small objects made in bulk after it
// (a million robots' devices and controllers): it has the heap map n
// bytes of fresh memory, advises them, and frees them at once, so that
// the allocator, which fills its lowest free addresses first, carves
// what comes next out of advised memory.
//
// Only slices of at least MinBytes are advised; smaller ones are made
// exactly as make and slices.Grow would. Setting the environment
// variable ARGOS_HUGEPAGES to "off" (or "0", "false", "no") turns the
// advice off. Elsewhere than on Linux the functions only allocate.
//
// Only the simulator uses this package: the robot binary does not link it.
package hugepage

import (
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"unsafe"
)

// MinBytes is the smallest slice, in bytes, that Make and Grow advise:
// below it a slice has no whole 2 MiB page in its interior, or too few
// to matter.
const MinBytes = 4 << 20

// Size is the huge page size the advice is aligned to.
const Size = 2 << 20

// EnvVar is the environment variable that turns the advice off.
const EnvVar = "ARGOS_HUGEPAGES"

// Enabled reports whether the advice is on: EnvVar does not say off, and
// the platform has it.
func Enabled() bool {
	if !supported {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(os.Getenv(EnvVar))) {
	case "off", "0", "false", "no":
		return false
	}
	return true
}

// Make returns make([]T, n, c) (c at least n), its backing array advised
// for huge pages when it is MinBytes or more.
func Make[T any](n, c int) []T {
	c = max(c, n)
	s := make([]T, n, c)
	Advise(s[:c])
	return s
}

// Grow is slices.Grow (room for n more elements after len(s)) except
// that a new backing array of MinBytes or more is made with Make, and
// advised before s is copied into it.
func Grow[T any](s []T, n int) []T {
	if n < 0 {
		panic("hugepage: cannot grow by a negative count")
	}
	if cap(s)-len(s) >= n {
		return s
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	want := len(s) + n
	if size == 0 || want < 0 || want > math.MaxInt/size || want*size < MinBytes || !Enabled() {
		return slices.Grow(s, n)
	}
	// append's growth for large slices: a quarter more, so that growing
	// one by small steps stays linear
	c := max(want, cap(s)+cap(s)/4)
	g := Make[T](len(s), c)
	copy(g, s)
	return g
}

// Advise asks the kernel to back the whole 2 MiB pages inside s's
// elements (len(s) of them) with huge pages, when s spans MinBytes or
// more and the advice is Enabled. It reports whether it advised
// anything. Pages of s already written keep their size.
func Advise[T any](s []T) bool {
	if len(s) == 0 {
		return false
	}
	var zero T
	n := uintptr(len(s)) * unsafe.Sizeof(zero)
	if n < MinBytes || !Enabled() {
		return false
	}
	p := unsafe.Pointer(unsafe.SliceData(s))
	skip := (Size - uintptr(p)%Size) % Size
	end := (uintptr(p) + n) &^ (Size - 1)
	if uintptr(p)+skip >= end {
		return false
	}
	return advise(unsafe.Add(p, skip), end-(uintptr(p)+skip))
}

// PrepareHeap makes the Go heap hold n bytes (at least MinBytes) of
// fresh memory advised for huge pages, free for what is allocated next:
// it allocates them, advises them and runs a collection, which frees
// them without writing to them. Call it before making many objects in
// bulk (it costs one collection, cheap while the heap is small). It
// reports whether it advised anything.
func PrepareHeap(n int) bool {
	if n < MinBytes || !Enabled() {
		return false
	}
	b := make([]byte, n)
	ok := Advise(b)
	runtime.KeepAlive(b)
	b = nil
	if ok {
		runtime.GC()
	}
	return ok
}
