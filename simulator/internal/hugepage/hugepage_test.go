package hugepage

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// vma is what /proc/self/smaps says of the mapping holding an address.
type vma struct {
	flags     []string
	hugeBytes int // AnonHugePages
}

// mappingOf reads /proc/self/smaps for the mapping that holds addr.
func mappingOf(t *testing.T, addr uintptr) (vma, bool) {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps (%v): cannot see the advice", err)
	}
	defer f.Close()
	var v vma
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if lo, hi, ok := strings.Cut(fields[0], "-"); ok && !strings.HasSuffix(fields[0], ":") {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				if in {
					return v, true
				}
				in = uintptr(a) <= addr && addr < uintptr(b)
				continue
			}
		}
		if !in {
			continue
		}
		switch fields[0] {
		case "VmFlags:":
			v.flags = fields[1:]
		case "AnonHugePages:":
			kb, _ := strconv.Atoi(fields[1])
			v.hugeBytes = kb << 10
		}
	}
	return v, in
}

func thpAvailable(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("huge pages are advised on Linux only")
	}
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(b), "[never]") {
		t.Skipf("transparent huge pages unavailable here (%q, %v)", strings.TrimSpace(string(b)), err)
	}
}

// TestMakeAdvises makes a large slice and checks, in /proc/self/smaps,
// that the mapping of its interior is advised ("hg" in VmFlags); after
// writing it, it logs how much of it the kernel backed with huge pages.
func TestMakeAdvises(t *testing.T) {
	thpAvailable(t)
	t.Setenv(EnvVar, "")
	s := Make[uint64](0, 16<<20/8)
	mid := uintptr(unsafe.Pointer(unsafe.SliceData(s[:cap(s)]))) + 8<<20
	v, ok := mappingOf(t, mid)
	if !ok {
		t.Fatalf("no mapping holds %#x", mid)
	}
	if !slices.Contains(v.flags, "hg") {
		t.Fatalf("the middle of a fresh 16 MiB slice is not advised for huge pages: VmFlags %v", v.flags)
	}
	s = s[:cap(s)]
	for i := range s {
		s[i] = uint64(i)
	}
	v, _ = mappingOf(t, mid)
	t.Logf("after writing: AnonHugePages %d MiB in the advised mapping", v.hugeBytes>>20)
	runtime.KeepAlive(s)
}

// TestOff checks that ARGOS_HUGEPAGES=off turns the advice off.
func TestOff(t *testing.T) {
	for _, off := range []string{"off", "0", "false", "NO"} {
		t.Setenv(EnvVar, off)
		if Enabled() {
			t.Errorf("%s=%q: advice still enabled", EnvVar, off)
		}
		if Advise(make([]byte, 8<<20)) {
			t.Errorf("%s=%q: a slice was advised", EnvVar, off)
		}
	}
	t.Setenv(EnvVar, "on")
	if runtime.GOOS == "linux" && !Enabled() {
		t.Errorf("%s=on: advice disabled", EnvVar)
	}
}

// TestSmallNotAdvised checks that slices under MinBytes are left alone.
func TestSmallNotAdvised(t *testing.T) {
	t.Setenv(EnvVar, "")
	if Advise(make([]byte, MinBytes-1)) {
		t.Error("a slice under MinBytes was advised")
	}
	if Advise([]int(nil)) {
		t.Error("an empty slice was advised")
	}
}

// TestGrow checks that Grow keeps the elements and the length, makes room
// for n more, and grows by small steps in linear time (a quarter more at
// least each time it reallocates), both below and above MinBytes and
// with the advice off.
func TestGrow(t *testing.T) {
	for _, env := range []string{"", "off"} {
		t.Run(fmt.Sprintf("env=%q", env), func(t *testing.T) {
			t.Setenv(EnvVar, env)
			var s []int64
			reallocs := 0
			for len(s) < 3<<20 {
				n := 1 + len(s)/7
				g := Grow(s, n)
				if len(g) != len(s) || cap(g)-len(g) < n {
					t.Fatalf("Grow(len %d cap %d, %d): len %d cap %d", len(s), cap(s), n, len(g), cap(g))
				}
				if cap(g) != cap(s) {
					reallocs++
				}
				for i := range s {
					if g[i] != int64(i) {
						t.Fatalf("Grow lost element %d: %d", i, g[i])
					}
				}
				for i, end := len(g), len(g)+n; i < end; i++ {
					g = append(g, int64(i))
				}
				s = g
			}
			if reallocs > 80 {
				t.Errorf("%d reallocations to reach %d elements", reallocs, len(s))
			}
			if g := Grow(s, 0); cap(g) != cap(s) {
				t.Error("Grow by 0 reallocated")
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("Grow by a negative count did not panic")
		}
	}()
	Grow([]int{1}, -1)
}

// TestPrepareHeap checks that small objects made in bulk after
// PrepareHeap come from memory advised for huge pages.
func TestPrepareHeap(t *testing.T) {
	thpAvailable(t)
	t.Setenv(EnvVar, "")
	const size = 64 << 20
	if !PrepareHeap(size) {
		t.Skip("the kernel refused the advice")
	}
	type small struct{ a, b, c, d, e, f, g, h uint64 }
	objs := make([]*small, 0, size/2/64)
	for range cap(objs) {
		objs = append(objs, &small{a: 1})
	}
	advised := 0
	for i := 0; i < len(objs); i += len(objs) / 64 {
		v, ok := mappingOf(t, uintptr(unsafe.Pointer(objs[i])))
		if ok && slices.Contains(v.flags, "hg") {
			advised++
		}
	}
	if advised < 32 {
		t.Errorf("%d of 64 samples of %d small objects made after PrepareHeap lie in advised memory", advised, len(objs))
	}
	runtime.KeepAlive(objs)
}
