package dynamics2d

import (
	"sync"

	"github.com/jakecoffman/cp/v2"
)

// cp numbers its bodies from a package-level counter that it increments
// without a lock (cp.NewBody, and cp.NewSpace through its static body).
// The number is only used to print a body, but two simulators built at
// the same time in one process (a sweep's workers, parallel tests) race
// on it. Every body this package makes goes through cpMu.
var cpMu sync.Mutex

func newCPSpace() *cp.Space {
	cpMu.Lock()
	defer cpMu.Unlock()
	return cp.NewSpace()
}

func newCPBody(mass, moment float64) *cp.Body {
	cpMu.Lock()
	defer cpMu.Unlock()
	return cp.NewBody(mass, moment)
}

func newCPStaticBody() *cp.Body {
	cpMu.Lock()
	defer cpMu.Unlock()
	return cp.NewStaticBody()
}
