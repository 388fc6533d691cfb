package simulator

import (
	"strings"
	"sync/atomic"
	"testing"
)

var methods = []string{"", balanceQuantity, balanceLength}

func TestPoolRunsEveryJobOnce(t *testing.T) {
	for _, method := range methods {
		for _, threads := range []int{0, 1, 2, 4, 8} {
			p := newPool(threads, method)
			for _, n := range []int{1, 2, 3, 7, 1000} {
				counts := make([]atomic.Int32, n)
				p.Run(len(counts), func(i int) { counts[i].Add(1) })
				for i := range counts {
					if c := counts[i].Load(); c != 1 {
						t.Fatalf("%s, threads=%d, %d jobs: job %d ran %d times", method, threads, n, i, c)
					}
				}
			}
			p.close()
		}
	}
}

// How each method cuts a batch of 100 jobs for 3 goroutines: the shares,
// and whether a goroutine that finished its share takes the rest of
// another's.
func TestPoolShares(t *testing.T) {
	for _, tt := range []struct {
		method string
		shares int64
		steal  bool
		rest   int // jobs run after a goroutine left share 0 after 10 jobs
	}{{"", 3, true, 90}, {balanceQuantity, 3, false, 67}, {balanceLength, 1, true, 90}} {
		p := newPool(3, tt.method)
		var ran []int
		b := p.batch(100, func(i int) { ran = append(ran, i) })
		if b.shares != tt.shares || b.steal != tt.steal {
			t.Errorf("%q: %d shares, stealing %v; want %d, %v", tt.method, b.shares, b.steal, tt.shares, tt.steal)
		}
		// one goroutine alone: it takes every share in turn, in order
		b.help()
		for i, j := range ran {
			if i != j {
				t.Fatalf("%q: job %d ran as the %d-th", tt.method, j, i)
			}
		}
		if len(ran) != 100 || b.pending.Load() != 0 {
			t.Errorf("%q: %d jobs ran, %d pending", tt.method, len(ran), b.pending.Load())
		}
		// share 0 pulled for 10 jobs by a goroutine that went away: with
		// stealing, the others finish it; without, shares 1 and 2 only
		ran = ran[:0]
		b = p.batch(100, func(i int) { ran = append(ran, i) })
		b.claimed.Store(1)
		b.cursor[0].next.Store(10)
		b.help()
		if len(ran) != tt.rest {
			t.Errorf("%q: %d jobs ran after share 0 was left, want %d", tt.method, len(ran), tt.rest)
		}
		p.close()
	}
}

// An engine stepping in parallel with others splits its own work: nested
// Run calls must finish even when every worker is busy.
func TestPoolNestedRunDoesNotDeadlock(t *testing.T) {
	for _, method := range methods {
		p := newPool(2, method)
		var total atomic.Int64
		p.Run(8, func(i int) {
			p.Run(100, func(j int) {
				p.Run(3, func(k int) { total.Add(1) })
			})
		})
		p.close()
		if got := total.Load(); got != 8*100*3 {
			t.Fatalf("%s: %d inner jobs ran, want %d", method, got, 8*100*3)
		}
	}
}

func TestPoolCarriesPanicsToTheCaller(t *testing.T) {
	for _, threads := range []int{0, 3} {
		p := newPool(threads, balanceQuantity)
		func() {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(r.(string)+"", "job 7 failed") {
					t.Fatalf("threads=%d: recovered %v, want the job's panic", threads, r)
				}
			}()
			p.Run(20, func(i int) {
				if i == 7 {
					panic("job 7 failed")
				}
			})
		}()
		p.close()
	}
}
