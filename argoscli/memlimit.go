package argoscli

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"

	"github.com/sirupsen/logrus"
)

// The default soft memory limit of a large run (see softLimit).
const (
	// autoLimitMinHeap is the heap in use after set-up from which the
	// command sets a soft memory limit on its own: below it a run's
	// memory is no concern, and a live heap that grows during the run
	// (data a loop function keeps, say) would make a tight limit
	// collect again and again.
	autoLimitMinHeap = 256 << 20
	// autoLimitMargin is added to 1.5 times the heap after set-up: the
	// ticks' own growth (the index's scratch lists grow some 110 MB in
	// the first seconds of a million-robot run) and the runtime's
	// memory outside the heap (stacks, its own metadata).
	autoLimitMargin = 128 << 20
)

// memLimit is what the command decided about Go's soft memory limit.
type memLimit struct {
	bytes int64 // the limit to set; 0 to leave the runtime's alone
	why   string
}

// softLimit decides the soft memory limit (runtime/debug.SetMemoryLimit)
// of a run, from the --memory-limit flag (flag: "auto", "off" or a size
// such as 2200MiB), GOMEMLIMIT in the environment (env, envSet) and the
// heap in use once the experiment is set up (heap, bytes).
//
// An explicit size or "off" wins. Otherwise the user's GOMEMLIMIT, which
// the runtime has already applied, is left alone. Otherwise a run whose
// heap after set-up is at least autoLimitMinHeap gets 1.5 times that heap
// plus autoLimitMargin. The collector's default pace (GOGC=100) lets the
// heap grow to twice what was live at the last collection before it
// collects again: with a live heap of 1.4 GB (dynamics2d with a million
// robots) that is 2.8 GB, where 1.5 times is enough for what the ticks
// allocate and collects about twice as often. The limit is soft: the live
// heap may pass it, and then the runtime caps the collector at half the
// CPU rather than stop the run.
func softLimit(flag, env string, envSet bool, heap uint64) (memLimit, error) {
	switch flag {
	case "off":
		return memLimit{bytes: math.MaxInt64, why: "--memory-limit off"}, nil
	case "", "auto":
	default:
		n, err := parseSize(flag)
		if err != nil {
			return memLimit{}, fmt.Errorf("--memory-limit %q: %v; give auto, off or a size such as 2200MiB", flag, err)
		}
		return memLimit{bytes: n, why: "--memory-limit " + flag}, nil
	}
	if envSet {
		return memLimit{why: fmt.Sprintf("GOMEMLIMIT=%s from the environment", env)}, nil
	}
	if heap < autoLimitMinHeap {
		return memLimit{why: fmt.Sprintf("heap after set-up %d MiB, under %d MiB", heap>>20, autoLimitMinHeap>>20)}, nil
	}
	n := heap + heap/2 + autoLimitMargin
	if n > math.MaxInt64 || n < heap {
		n = math.MaxInt64
	}
	return memLimit{bytes: int64(n), why: fmt.Sprintf("1.5 x the heap after set-up (%d MiB) + %d MiB", heap>>20, autoLimitMargin>>20)}, nil
}

// parseSize reads a size as GOMEMLIMIT writes it: a whole number of bytes
// with an optional unit B, KiB, MiB, GiB or TiB.
func parseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	shift := uint(0)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, shift = strings.TrimSuffix(s, u.suffix), u.shift
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("not a positive whole number of bytes, KiB, MiB, GiB or TiB")
	}
	if n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("too large")
	}
	return n << shift, nil
}

// heapInUse returns the bytes of the heap's objects, live or not yet
// swept: an upper bound on the live heap that costs no collection.
func heapInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// setSoftLimit decides the run's soft memory limit (softLimit) from the
// command line, GOMEMLIMIT and the heap once the experiment is set up,
// and sets it: robot arenas and grid worlds alike.
func setSoftLimit(outs *outputs, log *logrus.Logger) error {
	env, envSet := os.LookupEnv("GOMEMLIMIT")
	lim, err := softLimit(outs.memoryLimit, env, envSet, heapInUse())
	if err != nil {
		return err
	}
	applySoftLimit(lim, log)
	return nil
}

// applySoftLimit sets the soft memory limit l decided and logs it at
// debug level.
func applySoftLimit(l memLimit, log *logrus.Logger) {
	if l.bytes == 0 {
		log.Debugf("soft memory limit left at %s (%s)", limitString(debug.SetMemoryLimit(-1)), l.why)
		return
	}
	debug.SetMemoryLimit(l.bytes)
	log.Debugf("soft memory limit set to %s (%s)", limitString(l.bytes), l.why)
}

func limitString(n int64) string {
	if n == math.MaxInt64 {
		return "none"
	}
	return fmt.Sprintf("%d MiB", n>>20)
}
