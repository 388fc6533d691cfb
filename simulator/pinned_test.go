package simulator_test

import (
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/space"
)

var printPinned = flag.Bool("pinned.print", false, "TestPinnedPoses: print the hashes instead of checking them")

// pinnedTicks is how long each pinned case runs.
const pinnedTicks = 150

// pinnedPoses are the hashes (posesHash) of the final poses of the cases
// in testdata/pinned after pinnedTicks ticks, computed before the
// simulator's hot paths were rewritten for speed (issue 17). Speed work
// must leave every one of them unchanged, bit for bit; a change of the
// models themselves changes them on purpose, and is then recomputed with
// go test -run TestPinnedPoses -pinned.print ./simulator/.
var pinnedPoses = map[string]uint64{
	"dyn_dense_noise": 0x40459de16337a313,
	"dyn_e1":          0x89e5c91016fd8794,
	"dyn_e4":          0x89e5c91016fd8794,
	"footbot_dyn":     0x488ebc29b3598c3b,
	"footbot_kin":     0x7f381f5b356c1c8c,
	"kin_dense_noise": 0xc67481700131918e,
	"kin_e1":          0x6276bc3f5842f3ca,
	"kin_e4":          0x6276bc3f5842f3ca,
}

// TestPinnedPoses runs every case of testdata/pinned with 0 and 2 threads
// and compares the hash of the final poses of all bodies with the pinned
// one: optimisations of the tick, the space, the engines and the devices
// may not change a single bit of any result.
func TestPinnedPoses(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "pinned", "*.argos"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no pinned cases: %v", err)
	}
	for _, f := range files {
		name := filepath.Base(f[:len(f)-len(".argos")])
		for _, threads := range []int{0, 2} {
			t.Run(fmt.Sprintf("%s/threads=%d", name, threads), func(t *testing.T) {
				t.Parallel()
				h := runPinned(t, f, threads, pinnedTicks)
				if *printPinned {
					fmt.Printf("\t%q: %#x,\n", name, h)
					return
				}
				want, ok := pinnedPoses[name]
				if !ok {
					t.Fatalf("no pinned hash for %s; add %#x to pinnedPoses", name, h)
				}
				if h != want {
					t.Errorf("final poses hash to %#x, pinned %#x: a result changed", h, want)
				}
			})
		}
	}
}

// runPinned runs the experiment file for ticks ticks and returns the hash
// of its final poses.
func runPinned(t testing.TB, file string, threads, ticks int) uint64 {
	exp, err := config.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	exp.LoopFunctions = nil
	exp.Framework.Length = 0
	sim, err := simulator.New(exp, simulator.Options{Threads: intp(threads)})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	for sim.Tick() < ticks {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	return posesHash(sim.Space())
}

// posesHash is an FNV-1a hash of every body's id, position, height and
// yaw (their bits), in the order of the ids.
func posesHash(sp *space.Space) uint64 {
	order := make([]int, len(sp.Bodies))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if sp.Bodies[a].ID < sp.Bodies[b].ID {
			return -1
		}
		if sp.Bodies[a].ID > sp.Bodies[b].ID {
			return 1
		}
		return 0
	})
	h := fnv.New64a()
	var buf [8]byte
	word := func(v float64) {
		u := math.Float64bits(v)
		for k := range buf {
			buf[k] = byte(u >> (8 * k))
		}
		h.Write(buf[:])
	}
	for _, i := range order {
		b := &sp.Bodies[i]
		h.Write([]byte(b.ID))
		word(b.Pos.X)
		word(b.Pos.Y)
		word(b.Z)
		word(b.Yaw)
	}
	return h.Sum64()
}
