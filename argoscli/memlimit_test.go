package argoscli

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestSoftLimitDecision(t *testing.T) {
	const mib = 1 << 20
	cases := []struct {
		name, flag, env string
		envSet          bool
		heap            uint64
		want            int64 // 0: leave the runtime's limit alone
	}{
		{"large run, no GOMEMLIMIT", "auto", "", false, 1400 * mib, 1400*mib + 700*mib + 128*mib},
		{"default flag value is auto", "", "", false, 1000 * mib, 1000*mib + 500*mib + 128*mib},
		{"the heap of the threshold", "auto", "", false, 256 * mib, 256*mib + 128*mib + 128*mib},
		{"small run", "auto", "", false, 256*mib - 1, 0},
		{"user's GOMEMLIMIT", "auto", "2200MiB", true, 1400 * mib, 0},
		{"user's GOMEMLIMIT=off", "auto", "off", true, 1400 * mib, 0},
		{"empty GOMEMLIMIT is still the user's", "auto", "", true, 1400 * mib, 0},
		{"flag size wins over everything", "3GiB", "2200MiB", true, 1400 * mib, 3 << 30},
		{"flag off", "off", "", false, 1400 * mib, math.MaxInt64},
		{"flag off over GOMEMLIMIT", "off", "1GiB", true, 1400 * mib, math.MaxInt64},
		{"plain bytes", "123456", "", false, 0, 123456},
		{"huge heap does not overflow", "auto", "", false, math.MaxUint64 / 2, math.MaxInt64},
	}
	for _, c := range cases {
		l, err := softLimit(c.flag, c.env, c.envSet, c.heap)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if l.bytes != c.want {
			t.Errorf("%s: limit %d, want %d (%s)", c.name, l.bytes, c.want, l.why)
		}
		if l.why == "" {
			t.Errorf("%s: no reason given", c.name)
		}
	}
}

func TestSoftLimitBadFlag(t *testing.T) {
	for _, f := range []string{"lots", "2.5GiB", "-1MiB", "0", "2200MB", "99999999999TiB"} {
		if _, err := softLimit(f, "", false, 0); err == nil || !strings.Contains(err.Error(), "--memory-limit") {
			t.Errorf("--memory-limit %s: error %v; want one naming the flag", f, err)
		}
	}
	code, _, stderr := runArgos(t, "-z", "-c", repo("experiments", "diffusion_1.argos"), "--memory-limit", "lots")
	if code != 1 || !strings.Contains(stderr, "give auto, off or a size") {
		t.Errorf("exit %d, stderr %q; want 1 and how to write the limit", code, stderr)
	}
}

// TestRunSetsSoftLimit runs an experiment with the flag, with GOMEMLIMIT,
// and with neither (a small run: the limit stays as it was).
func TestRunSetsSoftLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	t.Chdir(t.TempDir())
	file := repo("experiments", "diffusion_1.argos")
	run := func(args ...string) string {
		t.Helper()
		return runDebug(t, append([]string{"-z", "-c", file, "--length", "0.2"}, args...)...)
	}

	debug.SetMemoryLimit(math.MaxInt64)
	log := run("--memory-limit", "3GiB")
	checkLimit(t, "--memory-limit 3GiB", 3<<30, log, "soft memory limit set to 3072 MiB")

	debug.SetMemoryLimit(5 << 30) // as GOMEMLIMIT=5GiB would have
	t.Setenv("GOMEMLIMIT", "5GiB")
	log = run()
	checkLimit(t, "GOMEMLIMIT=5GiB", 5<<30, log, "soft memory limit left at 5120 MiB (GOMEMLIMIT=5GiB from the environment)")

	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOMEMLIMIT", "")
	log = run("--memory-limit", "auto")
	checkLimit(t, "empty GOMEMLIMIT", math.MaxInt64, log, "soft memory limit left at none (GOMEMLIMIT= from the environment)")

	os.Unsetenv("GOMEMLIMIT") // t.Setenv restores it
	// The run reads the heap's objects, live or not yet swept (heapInUse):
	// in this test process, garbage that earlier tests left (a large
	// arena's) can pass the threshold on its own, as it did once in CI
	// (312 MiB before a one-robot run); collect it first.
	runtime.GC()
	log = run()
	checkLimit(t, "small run without GOMEMLIMIT", math.MaxInt64, log, "soft memory limit left at none (heap after set-up")
}

// A grid world gets its soft memory limit as a robot arena does, once it
// is built: from --memory-limit here, and none for a small one left to
// decide.
func TestGridRunSetsSoftLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	t.Chdir(t.TempDir())
	file := repo("experiments", "gridworld", "density_2d_1e3.argos")
	run := func(args ...string) string {
		t.Helper()
		return runDebug(t, append([]string{"-z", "-c", file, "--length", "3", "--progress", "off"}, args...)...)
	}
	debug.SetMemoryLimit(math.MaxInt64)
	log := run("--memory-limit", "3GiB")
	checkLimit(t, "--memory-limit 3GiB", 3<<30, log, "soft memory limit set to 3072 MiB")
	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOMEMLIMIT", "")
	os.Unsetenv("GOMEMLIMIT") // t.Setenv restores it
	runtime.GC()
	log = run()
	checkLimit(t, "small grid run without GOMEMLIMIT", math.MaxInt64, log, "soft memory limit left at none (heap after set-up")
}

// runDebug runs argos with args at the debug log level, fails the test
// unless it exits 0, and returns what it wrote to stderr.
func runDebug(t *testing.T, args ...string) string {
	t.Helper()
	code, _, stderr := runArgos(t, append(args, "--log-level", "debug")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	return stderr
}

// checkLimit fails the test unless the soft memory limit after the run
// is want and the run's debug log says line.
func checkLimit(t *testing.T, what string, want int64, log, line string) {
	t.Helper()
	if got := debug.SetMemoryLimit(-1); got != want {
		t.Errorf("%s: limit %d after the run, want %d", what, got, want)
	}
	if !strings.Contains(log, line) {
		t.Errorf("%s: no debug line %q: %s", what, line, log)
	}
}
