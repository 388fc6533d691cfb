package simulator

import (
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// pool runs the parallel phases of a tick. With threads <= 1 everything
// runs on the calling goroutine; with threads = N, N-1 worker goroutines
// help the caller, so N goroutines work at once. Since jobs are
// independent, the result does not depend on which goroutine ran which
// job. Run may be called from inside a job (an engine stepping in
// parallel with others splits its own work): the nested caller works on
// its own batch and never waits for a job that nobody runs.
//
// How a batch of jobs is shared is ARGoS's <system method>:
//   - balance_length: jobs are pulled one at a time, in index order, so
//     the load balances itself;
//   - balance_quantity: the batch is cut into N equal contiguous shares,
//     one per goroutine;
//   - by default, shares with stealing: each goroutine pulls the jobs of
//     its own contiguous share, then helps with the others' rest. Jobs
//     near each other touch data near each other (robots are stored in
//     space order), so a goroutine that stays in its share keeps its
//     cache warm, and nobody idles while work remains. It measured
//     fastest (BenchmarkThreadMethod).
//
// Batches are recycled, so that a tick does not allocate: a batch goes
// back to the free list when the last goroutine holding it (the caller,
// or a worker that took it from the queue, maybe after it was finished)
// lets go of it.
type pool struct {
	workers int
	method  string
	// serial runs every batch on the calling goroutine: a tick too small
	// to pay for waking the workers (Simulator.Step sets it per tick,
	// Options.SerialBelow)
	serial bool
	work   chan *batch
	wg     sync.WaitGroup
	freeMu sync.Mutex
	free   []*batch
}

// SmallSwarm is the Options.SerialBelow that argos runs with: a tick of
// fewer robots than this runs on one goroutine whatever <system
// threads> says. Waking the other threads for a tick's phases costs a
// fixed 150 to 200 µs of CPU per tick (some 13 µs per phase). Measured
// with argos bench (kinematics2d, diffusion, constant density, 20 s,
// load 3.6 to 4.2), threads 0 against 2: 374 against 533 CPU ns per
// robot-step at 1,000 robots, and one thread also ran more ticks per
// second of wall time (271x against 241x real time); 327 against 408
// at 2,000 (155x against 123x); 320 against 375 at 4,000 (74x against
// 65x); at 10,000 wall times were even (30x against 29x at load 3.6,
// 15x against 16x at load 4.2), and from 20,000 on two threads win.
const SmallSwarm = 4000

// Threading methods of <system method>; "" is the default.
const (
	balanceQuantity = "balance_quantity"
	balanceLength   = "balance_length"
)

type batch struct {
	n       int64 // jobs
	job     func(int)
	shares  int64
	steal   bool          // whoever finishes its share pulls from the others
	claimed atomic.Int64  // shares taken
	cursor  []cursor      // per share: its next job
	pending atomic.Int64  // jobs not finished
	refs    atomic.Int64  // goroutines that hold the batch
	done    chan struct{} // one value when the last job has finished
	panicMu sync.Mutex
	panic   any
}

// cursor is a share's next job, alone on its cache line so that
// goroutines pulling from different shares do not slow each other.
type cursor struct {
	next atomic.Int64
	_    [56]byte
}

// newPool returns a pool of threads goroutines sharing batches by method
// (balanceQuantity, balanceLength or "").
func newPool(threads int, method string) *pool {
	p := &pool{method: method}
	if threads > 1 {
		p.workers = threads - 1
		p.work = make(chan *batch, 4*threads)
		for i := 0; i < p.workers; i++ {
			p.wg.Add(1)
			go p.loop()
		}
	}
	return p
}

func (p *pool) loop() {
	defer p.wg.Done()
	for b := range p.work {
		b.help()
		p.release(b)
	}
}

// release lets go of b; the last holder recycles it.
func (p *pool) release(b *batch) {
	if b.refs.Add(-1) == 0 {
		b.job, b.panic = nil, nil
		p.freeMu.Lock()
		p.free = append(p.free, b)
		p.freeMu.Unlock()
	}
}

// batch returns a batch of n jobs, held by the caller.
func (p *pool) batch(n int, job func(int)) *batch {
	b := p.get()
	b.n, b.job = int64(n), job
	b.shares, b.steal = int64(min(n, p.workers+1)), true
	switch p.method {
	case balanceLength:
		b.shares = 1
	case balanceQuantity:
		b.steal = false
	}
	for s := range b.shares {
		b.cursor[s].next.Store(b.start(s))
	}
	b.claimed.Store(0)
	b.pending.Store(b.n)
	b.refs.Store(1)
	return b
}

// get returns a recycled batch, or a new one.
func (p *pool) get() *batch {
	p.freeMu.Lock()
	defer p.freeMu.Unlock()
	if k := len(p.free) - 1; k >= 0 {
		b := p.free[k]
		p.free = p.free[:k]
		return b
	}
	return &batch{done: make(chan struct{}, 1), cursor: make([]cursor, p.workers+1)}
}

// Run implements physics.Runner.
func (p *pool) Run(n int, job func(i int)) {
	if n <= 0 {
		return
	}
	if p.workers == 0 || n == 1 || p.serial {
		for i := 0; i < n; i++ {
			job(i)
		}
		return
	}
	b := p.batch(n, job)
	for k := 0; k < min(p.workers, n-1); k++ {
		b.refs.Add(1)
		select {
		case p.work <- b:
		default: // every worker is busy or already called: the caller works
			b.refs.Add(-1)
		}
	}
	b.help()
	<-b.done
	failure := b.panic
	p.release(b)
	if failure != nil {
		panic(failure)
	}
}

// start returns the first job of share s.
func (b *batch) start(s int64) int64 { return s * b.n / b.shares }

// help works on the batch: the shares nobody has taken yet, then, when
// stealing, what is left of the others.
func (b *batch) help() {
	for {
		s := b.claimed.Add(1) - 1
		if s >= b.shares {
			break
		}
		b.drain(s)
	}
	if b.steal {
		for s := range b.shares {
			b.drain(s)
		}
	}
}

// drain runs the jobs of share s that nobody has pulled yet.
func (b *batch) drain(s int64) {
	end, ran := b.start(s+1), int64(0)
	for {
		i := b.cursor[s].next.Add(1) - 1
		if i >= end {
			break
		}
		b.runOne(int(i))
		ran++
	}
	if ran > 0 && b.pending.Add(-ran) == 0 {
		b.done <- struct{}{}
	}
}

func (b *batch) runOne(i int) {
	defer func() {
		if r := recover(); r != nil {
			b.panicMu.Lock()
			if b.panic == nil {
				b.panic = fmt.Sprintf("%v\n%s", r, debug.Stack())
			}
			b.panicMu.Unlock()
		}
	}()
	b.job(i)
}

// close stops the workers.
func (p *pool) close() {
	if p.work != nil {
		close(p.work)
		p.wg.Wait()
		p.work = nil
		p.workers = 0
	}
}
