package simulator

import (
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// pool runs the parallel phases of a tick. With threads <= 1 everything
// runs on the calling goroutine; with threads = N, N-1 worker goroutines
// help the caller, so N goroutines work at once. Jobs are pulled one index
// at a time, so the load balances itself; since jobs are independent, the
// result does not depend on which goroutine ran which job. Run may be
// called from inside a job (an engine stepping in parallel with others
// splits its own work): the nested caller works on its own batch and
// never waits for a job that nobody runs.
//
// Batches are recycled, so that a tick does not allocate: a batch goes
// back to the free list when the last goroutine holding it (the caller,
// or a worker that took it from the queue, maybe after it was finished)
// lets go of it.
type pool struct {
	workers int
	work    chan *batch
	wg      sync.WaitGroup
	freeMu  sync.Mutex
	free    []*batch
}

type batch struct {
	n       int64
	job     func(int)
	next    atomic.Int64
	pending atomic.Int64
	refs    atomic.Int64  // goroutines that hold the batch
	done    chan struct{} // one value when the last job has finished
	panicMu sync.Mutex
	panic   any
}

func newPool(threads int) *pool {
	p := &pool{}
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

// get returns a recycled batch, or a new one.
func (p *pool) get() *batch {
	p.freeMu.Lock()
	defer p.freeMu.Unlock()
	if k := len(p.free) - 1; k >= 0 {
		b := p.free[k]
		p.free = p.free[:k]
		return b
	}
	return &batch{done: make(chan struct{}, 1)}
}

// Run implements physics.Runner.
func (p *pool) Run(n int, job func(i int)) {
	if n <= 0 {
		return
	}
	if p.workers == 0 || n == 1 {
		for i := 0; i < n; i++ {
			job(i)
		}
		return
	}
	b := p.get()
	b.n, b.job = int64(n), job
	b.next.Store(0)
	b.pending.Store(int64(n))
	b.refs.Store(1)
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

func (b *batch) help() {
	for {
		i := b.next.Add(1) - 1
		if i >= b.n {
			return
		}
		b.runOne(int(i))
		if b.pending.Add(-1) == 0 {
			b.done <- struct{}{}
		}
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
