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
type pool struct {
	workers int
	work    chan *batch
	wg      sync.WaitGroup
}

type batch struct {
	n       int64
	job     func(int)
	next    atomic.Int64
	pending atomic.Int64
	done    chan struct{}
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
	}
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
	b := &batch{n: int64(n), job: job, done: make(chan struct{})}
	b.pending.Store(int64(n))
	for k := 0; k < min(p.workers, n-1); k++ {
		select {
		case p.work <- b:
		default: // every worker is busy or already called: the caller works
		}
	}
	b.help()
	<-b.done
	if b.panic != nil {
		panic(b.panic)
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
			close(b.done)
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
