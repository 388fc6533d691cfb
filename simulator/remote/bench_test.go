package remote_test

import (
	"testing"

	"github.com/argosgo/argos/realrobot/attach"
)

// BenchmarkExchange is one simulation tick with the controller attached
// over loopback in lockstep: a Sense out, the controller's step, an Act
// back (issue 14: >= 1,000 exchanges per second).
func BenchmarkExchange(b *testing.B) {
	exp := experiment(b, remoteXML("lockstep"))
	sim := newSim(b, exp)
	drv, err := attach.Dial(attach.Options{Addr: server(b, sim).Addr(), Token: token, RobotID: "fb0", Devices: devsOf(exp)})
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- runController(nil, exp, drv, devsOf(exp)) }()
	b.ResetTimer()
	for range b.N {
		if err := sim.Step(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "exchanges/s")
	sim.Close()
	<-done
	drv.Close()
}
