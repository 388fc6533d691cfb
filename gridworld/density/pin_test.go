package density_test

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"testing"

	"github.com/argosgo/argos/gridworld"
	"github.com/argosgo/argos/gridworld/density"
)

func runHash(t *testing.T, g gridworld.Grid, agents int, seed uint64, threads, minChunk int) uint64 {
	t.Helper()
	p, err := density.NewWorld(gridworld.Config{Grid: g, Agents: agents, Seed: seed, Threads: threads, MinChunk: minChunk}, 50)
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
	for _, a := range p.States(nil) {
		put(uint32(a.Met))
	}
	for _, at := range p.Positions(nil) {
		put(uint32(at))
	}
	return h.Sum64()
}

// The engine's speed-ups change no result: the final states and
// positions are those of the engine of commit d2a1241, for threads 0 and
// 2 (also cut into chunks of 64 agents).
func TestResultsPinned(t *testing.T) {
	for _, c := range []struct {
		g      gridworld.Grid
		agents int
		sum    uint64
	}{
		{gridworld.Grid2D(100, 100, true), 1000, 0xf266802636121d39},
		{gridworld.Grid3D(12, 10, 8, true), 300, 0x3976f3c4dfb537d2},
		{gridworld.Grid2D(20, 30, false), 500, 0xd9c7b4c4ef286114},
	} {
		for _, tc := range []struct{ threads, minChunk int }{{0, 0}, {2, 0}, {2, 64}} {
			if sum := runHash(t, c.g, c.agents, 7, tc.threads, tc.minChunk); sum != c.sum {
				t.Errorf("%s, %d agents, threads %d, chunks of %d: hash %#x, want %#x", c.g, c.agents, tc.threads, tc.minChunk, sum, c.sum)
			}
		}
	}
}
