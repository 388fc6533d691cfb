package taskalloc_test

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"testing"

	"github.com/argosgo/argos/gridworld"
	"github.com/argosgo/argos/gridworld/taskalloc"
)

// smallRunHash runs ParSwarm's small case (50 x 50 torus, 100 agents, 16
// tasks of total demand 80) until every demand is met and hashes the
// rounds, the final agent states and positions (by id) and the final
// vertex states.
func smallRunHash(t *testing.T, seed uint64, threads, minChunk int) (rounds int, sum uint64) {
	return runHash(t, pinCase{gridworld.Grid2D(50, 50, true), 100, 16, 80, 2}, seed, threads, minChunk)
}

type pinCase struct {
	g                     gridworld.Grid
	agents, tasks, demand int
	radius                int
}

func runHash(t *testing.T, c pinCase, seed uint64, threads, minChunk int) (rounds int, sum uint64) {
	t.Helper()
	g := c.g
	p, err := taskalloc.NewWorld(gridworld.Config{Grid: g, Agents: c.agents, Radius: c.radius, Seed: seed, Threads: threads, MinChunk: minChunk},
		taskalloc.RandomTasks(g, c.tasks, int64(c.demand), seed))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Run(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	var b [4]byte
	put := func(x uint32) {
		binary.LittleEndian.PutUint32(b[:], x)
		h.Write(b[:])
	}
	put(uint32(p.Round()))
	for _, a := range p.States(nil) {
		put(uint32(a.Phase))
	}
	for _, at := range p.Positions(nil) {
		put(uint32(at))
	}
	for _, v := range p.Vertices() {
		put(uint32(v.Demand))
	}
	return p.Round(), h.Sum64()
}

// The engine's speed-ups change no result: the small case gives the
// rounds and final states it gave before them (hashes computed with the
// engine of commit d2a1241), for threads 0 and 2 (also cut into chunks of
// 16 agents, so that two goroutines really share the rounds).
func TestSmallCaseResultsPinned(t *testing.T) {
	want := []struct {
		seed   uint64
		rounds int
		sum    uint64
	}{
		{1, 2166, 0xa55bba2b597c8f5},
		{2, 1848, 0xc441c403158162f3},
		{3, 1056, 0x2d52e3df38a26f7c},
		{4, 587, 0x4c2a8d6ff777bbb0},
		{5, 1471, 0x8a7080d27ce8336b},
		{6, 1256, 0x35a6cd381ed410a0},
	}
	for _, c := range want {
		for _, tc := range []struct{ threads, minChunk int }{{0, 0}, {2, 0}, {2, 16}} {
			rounds, sum := smallRunHash(t, c.seed, tc.threads, tc.minChunk)
			if rounds != c.rounds || sum != c.sum {
				t.Errorf("seed %d, threads %d, chunks of %d: %d rounds, hash %#x; want %d rounds, hash %#x",
					c.seed, tc.threads, tc.minChunk, rounds, sum, c.rounds, c.sum)
			}
		}
	}
}

// The same for grids whose local mappings meet the border: bounded, in
// 2D and 3D.
func TestBoundedResultsPinned(t *testing.T) {
	cases := []pinCase{
		{gridworld.Grid2D(30, 20, false), 80, 10, 40, 2},
		{gridworld.Grid3D(10, 10, 10, false), 500, 30, 200, 1},
	}
	want := []struct {
		c      int
		seed   uint64
		rounds int
		sum    uint64
	}{
		{0, 1, 36, 0xad4b288a7a8f31de},
		{0, 2, 88, 0x5096089c778d1b3a},
		{1, 1, 45, 0x828dcdae421aab43},
		{1, 2, 29, 0x6352e501bc7614fe},
	}
	for _, w := range want {
		for _, tc := range []struct{ threads, minChunk int }{{0, 0}, {2, 16}} {
			rounds, sum := runHash(t, cases[w.c], w.seed, tc.threads, tc.minChunk)
			if rounds != w.rounds || sum != w.sum {
				t.Errorf("%s, seed %d, threads %d, chunks of %d: %d rounds, hash %#x; want %d rounds, hash %#x",
					cases[w.c].g, w.seed, tc.threads, tc.minChunk, rounds, sum, w.rounds, w.sum)
			}
		}
	}
}
