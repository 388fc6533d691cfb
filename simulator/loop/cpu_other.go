//go:build !unix

package loop

import "time"

// processCPU is not measured off Unix; the BENCH line then reports 0.
func processCPU() time.Duration { return 0 }
