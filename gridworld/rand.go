package gridworld

import "math/bits"

// Rand is a random stream: an agent's (derived from the seed and the
// agent's id), a vertex's (from the seed and the vertex) or the
// placement's. It is counter-based: the numbers an agent draws in a round
// depend only on the seed, its id, the round and how many it drew before
// in that round, never on which goroutine runs it or where the agent
// sits in memory, and the engine stores no generator state per agent.
//
// The generator is SplitMix64 (Steele, Lea and Flood) keyed by a hash of
// the seed and the owner, at a position given by the round.
type Rand struct {
	key, ctr uint64
	// kk and owner make the key on the first draw: owners that draw
	// nothing in a round cost nothing.
	kk, owner uint64
	lazy      bool
}

const golden = 0x9e3779b97f4a7c15

// mix64 is SplitMix64's finaliser (a bijection with good avalanche).
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Stream kinds, so that an agent and a vertex with the same number get
// different streams.
const (
	kindAgent    = 1
	kindVertex   = 2
	kindPlace    = 3
	kindProgram  = 4
	phaseMessage = 0
	phaseMove    = 1
)

// streamKey derives the key of one owner's stream.
func streamKey(seed uint64, kind uint64, owner uint64) uint64 {
	return ownerKey(kindKey(seed, kind), owner)
}

// kindKey is the part of streamKey shared by the owners of a kind.
func kindKey(seed, kind uint64) uint64 { return mix64(seed ^ kind*golden) }

// ownerKey is the key of an owner from its kind's key.
func ownerKey(kk, owner uint64) uint64 { return mix64(kk + owner*0xd1b54a32d192ed03) }

// reset points r at the start of the owner's draws for a round and phase.
func (r *Rand) reset(key uint64, round int, phase uint64) {
	r.key, r.lazy = key, false
	r.ctr = uint64(round)<<33 | phase<<32
}

// resetLazy is reset with the owner's key made on the first draw.
func (r *Rand) resetLazy(kk, owner uint64, round int, phase uint64) {
	r.kk, r.owner, r.lazy = kk, owner, true
	r.ctr = uint64(round)<<33 | phase<<32
}

// NewRand returns a stream of the program's own, derived from the seed
// and a number of the program's choosing (for placing tasks, say), so
// that it is repeatable from the seed.
func NewRand(seed uint64, stream uint64) *Rand {
	return &Rand{key: streamKey(seed, kindProgram, stream)}
}

// Uint64 returns 64 random bits.
func (r *Rand) Uint64() uint64 {
	if r.lazy {
		r.key, r.lazy = ownerKey(r.kk, r.owner), false
	}
	r.ctr++
	return mix64(r.key + r.ctr*golden)
}

// IntN returns a number in [0, n); n must be positive. (Lemire's
// multiply-shift: the bias is below n/2^64.)
func (r *Rand) IntN(n int) int {
	hi, _ := bits.Mul64(r.Uint64(), uint64(n))
	return int(hi)
}

// Float64 returns a number in [0, 1).
func (r *Rand) Float64() float64 {
	return float64(r.Uint64()>>11) * (1.0 / (1 << 53))
}

// Dir returns one of the grid's directions, uniformly (never Stay).
func (r *Rand) Dir(g Grid) Dir {
	return Dir(1 + r.IntN(2*g.Dims))
}
