//go:build !unix

package loop

import "time"

// ProcessCPU is not measured off Unix: it returns 0 (the BENCH line then
// reports 0).
func ProcessCPU() time.Duration { return 0 }
