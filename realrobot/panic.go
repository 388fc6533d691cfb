package realrobot

import (
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
)

// PanicError is a panic of a controller method: the value it panicked
// with, where, and the goroutine's stack. It wraps ErrControllerPanic.
type PanicError struct {
	// What says who panicked ("controller \"edc\" (label) panicked at
	// tick 3").
	What string
	// Value is what the controller panicked with.
	Value any
	// Site is the file:line of the panicking frame, with its function;
	// Caller, when the panic happened outside the controller's package,
	// is the controller's own frame that led there. Either may be empty
	// when the stack does not say.
	Site, Caller string
	// Stack is the stack of the panicking goroutine.
	Stack []byte
}

func (e *PanicError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "realrobot: %s: %v", e.What, e.Value)
	if e.Site != "" {
		fmt.Fprintf(&b, " at %s", e.Site)
	}
	if e.Caller != "" {
		fmt.Fprintf(&b, ", called from the controller at %s", e.Caller)
	}
	b.WriteString(" (the log has the stack at debug level)")
	return b.String()
}

// Unwrap makes errors.Is(err, ErrControllerPanic) true.
func (e *PanicError) Unwrap() error { return ErrControllerPanic }

// recovered builds the PanicError of value p recovered from a method of
// ctrl. It must be called from the deferred function that recovered, so
// that the panicking frames are still on the stack.
func recovered(ctrl any, what string, p any) *PanicError {
	e := &PanicError{What: what, Value: p, Stack: debug.Stack()}
	e.Site, e.Caller = panicSite(controllerPackage(ctrl))
	return e
}

// controllerPackage returns the import path of the package that defines
// the controller's type.
func controllerPackage(ctrl any) string {
	t := reflect.TypeOf(ctrl)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return ""
	}
	return t.PkgPath()
}

// panicSite walks the stack of a deferred function that recovered a
// panic: the first frame below runtime.gopanic that is not the runtime's
// own (runtime.panicIndex, runtime.sigpanic, a map write...) is the one
// that panicked. When it is not in package pkg, the first frame of pkg
// below it is the controller's call that led there.
func panicSite(pkg string) (site, caller string) {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(1, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	panicking := false
	for {
		f, more := frames.Next()
		switch {
		case !panicking:
			panicking = f.Function == "runtime.gopanic"
		case strings.HasPrefix(f.Function, "runtime."):
		case site == "":
			site = fmt.Sprintf("%s:%d (%s)", f.File, f.Line, shortFunc(f.Function))
			if pkg == "" || inPackage(f.Function, pkg) {
				return site, ""
			}
		case inPackage(f.Function, pkg):
			return site, fmt.Sprintf("%s:%d (%s)", f.File, f.Line, shortFunc(f.Function))
		}
		if !more {
			return site, ""
		}
	}
}

// inPackage reports whether the fully qualified function fn belongs to
// package pkg (and not to one whose path merely starts the same).
func inPackage(fn, pkg string) bool {
	rest, ok := strings.CutPrefix(fn, pkg)
	return ok && strings.HasPrefix(rest, ".")
}

// shortFunc drops the import path of a function's package:
// "github.com/x/diffusion.(*Controller).ControlStep" becomes
// "diffusion.(*Controller).ControlStep".
func shortFunc(fn string) string {
	if i := strings.LastIndex(fn, "/"); i >= 0 {
		return fn[i+1:]
	}
	return fn
}
