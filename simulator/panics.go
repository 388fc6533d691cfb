package simulator

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// controllerPanic is what a controller's panic left: the value, the
// controller's own line that panicked and the whole stack.
type controllerPanic struct {
	value any
	frame runtime.Frame // the panicking frame; Line is 0 when unknown
	stack []byte
}

// caught describes the panic p; call it from the deferred function that
// recovered p, while the panicking frames are still on the stack.
func caught(p any) *controllerPanic {
	return &controllerPanic{value: p, frame: panickingFrame(), stack: debug.Stack()}
}

// String reads "value (at file.go:12 in pkg.(*T).ControlStep)".
func (c *controllerPanic) String() string {
	if c.frame.Line == 0 {
		return fmt.Sprint(c.value)
	}
	return fmt.Sprintf("%v (at %s:%d in %s)", c.value, c.frame.File, c.frame.Line, c.frame.Function)
}

// panickingFrame returns the frame that panicked: the first frame below
// runtime.gopanic that is not in the runtime (a nil map or an index out
// of range panic inside runtime helpers called by the controller).
func panickingFrame() runtime.Frame {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	inPanic := false
	for {
		f, more := frames.Next()
		switch {
		case f.Function == "runtime.gopanic":
			inPanic = true
		case inPanic && !strings.HasPrefix(f.Function, "runtime."):
			return f
		}
		if !more {
			return runtime.Frame{}
		}
	}
}
