package channel

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/internal/threadcpu"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
)

// BenchmarkUpdate: one tick of the channel alone, as in the 10,000
// e-puck benchmark (range 0.5 m, 10 % loss, 16 bytes from every robot,
// about 4.5 neighbours each), with every robot reading its inbox's
// entries; the robots stand still. Besides the wall time it reports the
// median CPU time of a tick (the thread's), which the machine's load
// changes less. It isolates the channel's part of
// BenchmarkTenThousandEPucks from the simulation around it.
func BenchmarkUpdate(b *testing.B) {
	root, err := config.ParseTree("c.argos", []byte(`<channel id="radio"><range radius="0.5"/><loss probability="0.1"/></channel>`))
	if err != nil {
		b.Fatal(err)
	}
	const n, side = 10000, 42.0
	sp := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: side, Y: side, Z: 1})
	w := &entity.World{Space: sp, Seed: 7}
	c, err := New(root, w)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var tx []*Sender
	var rx []*Receiver
	for i := range n {
		id := fmt.Sprint("ep", i)
		bd := sp.Add(space.Body{ID: id, Shape: space.Disc, Radius: 0.035, Height: 0.05, Movable: true,
			Pos: ci.Vector2{X: (rng.Float64() - 0.5) * side, Y: (rng.Float64() - 0.5) * side}})
		r := &entity.Robot{ID: id, Index: i, Body: bd, Space: sp}
		tx = append(tx, c.NewSender(r, nil))
		rx = append(rx, c.NewReceiver(r, nil))
	}
	var msg [16]byte
	sum := 0
	tick := func() {
		for _, s := range tx {
			s.Send("hello", "", msg[:])
		}
		c.Update(serialRun{})
		for _, r := range rx {
			in, _ := r.InboxEntries()
			for k := range in {
				sum += int(in[k].Small[15])
			}
		}
	}
	for range 5 {
		tick()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0, _ := threadcpu.Now()
		tick()
		t1, _ := threadcpu.Now()
		cpu = append(cpu, t1-t0)
	}
	b.StopTimer()
	slices.Sort(cpu)
	b.ReportMetric(float64(cpu[len(cpu)/2].Nanoseconds()), "cpu-ns/tick")
	b.ReportMetric(float64(c.Stats().Delivered)/float64(b.N+5), "deliveries/tick")
	_ = sum
}
