package simulator

import (
	"strings"
	"sync/atomic"
	"testing"
)

func TestPoolRunsEveryJobOnce(t *testing.T) {
	for _, threads := range []int{0, 1, 2, 4, 8} {
		p := newPool(threads)
		counts := make([]atomic.Int32, 1000)
		p.Run(len(counts), func(i int) { counts[i].Add(1) })
		for i := range counts {
			if c := counts[i].Load(); c != 1 {
				t.Fatalf("threads=%d: job %d ran %d times", threads, i, c)
			}
		}
		p.close()
	}
}

// An engine stepping in parallel with others splits its own work: nested
// Run calls must finish even when every worker is busy.
func TestPoolNestedRunDoesNotDeadlock(t *testing.T) {
	p := newPool(2)
	defer p.close()
	var total atomic.Int64
	p.Run(8, func(i int) {
		p.Run(100, func(j int) {
			p.Run(3, func(k int) { total.Add(1) })
		})
	})
	if got := total.Load(); got != 8*100*3 {
		t.Fatalf("%d inner jobs ran, want %d", got, 8*100*3)
	}
}

func TestPoolCarriesPanicsToTheCaller(t *testing.T) {
	for _, threads := range []int{0, 3} {
		p := newPool(threads)
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
