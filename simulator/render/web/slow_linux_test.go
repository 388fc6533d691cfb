//go:build linux

package web_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/render/web"
)

// A browser that stops reading (a frozen tab, a vanished laptop) never
// holds the simulation up: its frames are dropped, it is disconnected
// after the write timeout, and other browsers go on.
func TestSlowBrowserNeverStallsTheRun(t *testing.T) {
	xml := `<?xml version="1.0"?>
<argos-configuration>
  <framework><experiment length="0" ticks_per_second="10" random_seed="1"/></framework>
  <controllers><web_test_still id="s"/></controllers>
  <arena size="12,12,1">
    <distribute>
      <position method="grid" center="0,0,0" distances="0.5,0.5,0" layout="20,15,1"/>
      <orientation method="uniform" min="0,0,0" max="360,0,0"/>
      <entity quantity="300" max_trials="1"><e-puck id="ep"><controller config="s"/></e-puck></entity>
    </distribute>
  </arena>
  <physics_engines><dynamics2d id="d"/></physics_engines>
  <visualization><web port="0" fps="240" autoplay="true" speed="0"/></visualization>
</argos-configuration>`
	exp, err := config.Parse("slow.argos", []byte(xml))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(exp, simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := sim.Visualizations()[0].(*web.Viewer)
	v.SetLimits(300*time.Millisecond, 64)

	// the stuck browser: a WebSocket handshake, then it never reads
	// with a small receive buffer, set before connecting so that the TCP
	// window is small from the start
	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	stuck, err := d.Dial("tcp", v.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer stuck.Close()
	fmt.Fprintf(stuck, "GET /ws HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", v.Addr())
	good := dial(t, v)
	deadline := time.Now().Add(10 * time.Second)
	for v.Clients() < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the browsers did not connect")
		}
		time.Sleep(5 * time.Millisecond)
	}

	// The run has no end: it goes on until the frames pile up beyond what
	// the kernel buffers hold for the stuck browser (a few MB, depending
	// on the machine), its writes time out, and it is disconnected. All
	// that time the good browser sees the ticks advance.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	began := time.Now()
	go func() { done <- sim.Execute(ctx) }()
	tick := 0.0
	for v.Clients() != 1 {
		if time.Since(began) > 3*time.Minute { // about 30 s on a quiet machine; CI runs packages side by side
			t.Fatalf("%d browsers connected after %v at tick %v; the stuck one was not disconnected", v.Clients(), time.Since(began), tick)
		}
		tick = good.wait("a frame", isFrame)["tick"].(float64)
	}
	took := time.Since(began)
	good.wait("a later frame", func(m map[string]any) bool { return isFrame(m) && m["tick"].(float64) > tick+10 })
	cancel()
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
	if v.Dropped() == 0 {
		t.Error("no frame was dropped for the stuck browser")
	}
	t.Logf("the stuck browser was disconnected after %v, at tick %v of 300 robots; %d frames dropped", took, tick, v.Dropped())
	// the stuck browser was disconnected: its socket reads EOF or a reset
	// once the buffered frames are drained
	stuck.SetReadDeadline(time.Now().Add(10 * time.Second))
	n, err := io.Copy(io.Discard, stuck)
	if err != nil && !strings.Contains(err.Error(), "reset") {
		t.Errorf("the stuck browser's connection: %v (clients %d, %d bytes read)", err, v.Clients(), n)
	}
}
