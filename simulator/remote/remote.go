// Package remote lets controllers outside the simulator process drive
// robots of a simulation: a robot binary (robotcli with the "sim" board)
// attaches over TCP and, tick after tick, receives the sensor readings
// of one simulated robot and sends back its actuator values (protocol:
// wire/simlink; docs/remote.md).
//
// It is declared as a medium:
//
//	<media>
//	  <remote id="link" robots="fb0,fb1" address="127.0.0.1:7070"
//	          mode="lockstep" token_env="ARGOS_REMOTE_TOKEN" wait="30" timeout="10"/>
//	</media>
//
// The robots it names keep their devices and their controller entry, but
// no controller runs for them in the simulator: a proxy sends their
// sensors out and applies what comes back. In lockstep each control step
// waits for the attached controller's answer; in real time it never
// waits and applies the last answer received.
//
// Robots marked real="true" are hosted too: their bodies move to the
// poses of a UDP pose stream (real.go: [ParsePose], timeouts stale and
// lost), so that simulated robots sense them and talk to them through
// the channel models, and their controllers, running on the robots,
// attach as above to receive the virtual readings of their bodies.
package remote

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/wire/simlink"
)

// DefaultAddress is where the server listens when the element gives no
// address: loopback, on a port the system picks (Server.Addr says which).
const DefaultAddress = "127.0.0.1:0"

// TokenEnv is the environment variable a token is read from when the
// element has no token attribute and names no other variable.
const TokenEnv = "ARGOS_REMOTE_TOKEN"

// Description is the medium's entry in the registry.
const Description = "Controllers outside the simulator (docs/remote.md): robot binaries attach over TCP (wire/simlink) and drive the robots listed in robots. " +
	"Attributes: robots (ids), address (default 127.0.0.1 on a free port), mode (lockstep, default, or realtime), token or token_env " +
	"(default environment variable ARGOS_REMOTE_TOKEN; required), wait (seconds to wait for a controller to attach, default 30), " +
	"timeout (seconds a lockstep answer may take, default 10). Robots marked real=\"true\" take their pose from the UDP pose stream " +
	"(POSE1 token id seq x y yaw) at pose_address (default 127.0.0.1, a free port): frozen with a warning after stale seconds " +
	"without a pose (default 0.5), the run stops after lost (default 5); merge (tag:max|virtual|real, ...) tells their robot binary " +
	"how to merge its sensors with the virtual readings."

// Server is the <remote> medium: it listens, checks who attaches and
// runs the proxies of the robots it hosts.
type Server struct {
	id      string
	mode    byte
	token   string
	wait    time.Duration
	timeout time.Duration
	tps     int
	ln      net.Listener
	node    *config.Node

	mu      sync.Mutex
	proxies map[string]*proxy
	closed  bool
	conns   map[net.Conn]bool
	wg      sync.WaitGroup
	logger  Logger
	warned  map[string]bool
	closing chan struct{} // closed by Close

	// robots marked real="true" (real.go)
	mover       Mover
	poseAddr    string
	stale, lost time.Duration
	udp         *net.UDPConn
	reals       map[string]*realBody
	realIDs     []string // arena order
	announced   bool     // the pose address was logged
}

// New reads a <remote> element and starts listening.
func New(n *config.Node, w *entity.World) (*Server, error) {
	if err := n.CheckAttrs("id", "robots", "address", "mode", "token", "token_env", "wait", "timeout", "pose_address", "stale", "lost", "merge"); err != nil {
		return nil, err
	}
	s := &Server{node: n, proxies: map[string]*proxy{}, conns: map[net.Conn]bool{}, tps: ticksPerSecondOf(n),
		warned: map[string]bool{}, reals: map[string]*realBody{}, closing: make(chan struct{})}
	s.poseAddr = n.StringOr("pose_address", DefaultAddress)
	stale, err := n.FloatOr("stale", 0.5)
	if err != nil {
		return nil, err
	}
	lost, err := n.FloatOr("lost", 5)
	if err != nil {
		return nil, err
	}
	if stale <= 0 || lost < stale {
		return nil, n.Errorf("remote: stale (%g s) must be positive and lost (%g s) at least stale", stale, lost)
	}
	s.stale, s.lost = time.Duration(stale*float64(time.Second)), time.Duration(lost*float64(time.Second))
	if _, err := simlink.ParseMerge(n.StringOr("merge", "")); err != nil {
		return nil, n.AttrErrorf("merge", "%v", err)
	}
	s.id = n.StringOr("id", "remote")
	switch m := n.StringOr("mode", "lockstep"); m {
	case "lockstep":
		s.mode = simlink.Lockstep
	case "realtime", "real_time":
		s.mode = simlink.RealTime
	default:
		return nil, n.AttrErrorf("mode", "remote: mode %q: write lockstep (the simulation waits for attached controllers) or realtime (it does not)", m)
	}
	wait, err := n.FloatOr("wait", 30)
	if err != nil {
		return nil, err
	}
	timeout, err := n.FloatOr("timeout", 10)
	if err != nil {
		return nil, err
	}
	if wait <= 0 || timeout <= 0 {
		return nil, n.Errorf("remote: wait and timeout are seconds and must be positive")
	}
	s.wait, s.timeout = time.Duration(wait*float64(time.Second)), time.Duration(timeout*float64(time.Second))
	if t, ok := n.Attr("token"); ok {
		s.token = t
	} else {
		env := n.StringOr("token_env", TokenEnv)
		s.token = os.Getenv(env)
		if s.token == "" {
			return nil, n.Errorf("remote: no token: set the environment variable %s, or give token=\"...\" (a controller must present it to attach)", env)
		}
	}
	if s.token == "" {
		return nil, n.AttrErrorf("token", "remote: an empty token; give a secret that attached controllers present")
	}
	ids := n.StringOr("robots", "")
	for _, id := range strings.Split(ids, ",") {
		if id = strings.TrimSpace(id); id != "" {
			s.proxies[id] = &proxy{srv: s, id: id, ready: make(chan struct{}), attached: make(chan struct{})}
		}
	}
	if strings.TrimSpace(ids) != "" && len(s.proxies) == 0 {
		return nil, n.AttrErrorf("robots", "remote: list the ids of the robots whose controllers attach, separated by commas")
	}
	addr := n.StringOr("address", DefaultAddress)

	s.ln, err = net.Listen("tcp", addr)
	if err != nil {
		return nil, n.AttrErrorf("address", "remote: cannot listen on %s: %v; pick a free host:port", addr, err)
	}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// Bind gives the server the simulator, to move real robots, and its
// log.
func (s *Server) Bind(m Mover, log Logger) {
	s.mu.Lock()
	first := s.mover == nil
	s.mover, s.logger = m, log
	s.mu.Unlock()
	if first && log != nil {
		log.Infof("remote: <remote id=%q>: controllers attach at %s", s.id, s.Addr())
	}
	if s.udp != nil && !s.announced {
		s.announced = true
		if log != nil {
			log.Infof("remote: <remote id=%q>: poses of real robots at udp %s", s.id, s.PoseAddr())
		}
	}
}

func (s *Server) logf(format string, args ...any) {
	s.mu.Lock()
	log := s.logger
	s.mu.Unlock()
	if log != nil {
		log.Infof(format, args...)
	}
}

// Addr returns the address the server listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Update puts the real robots where the pose stream says (run it before
// the media that read poses: <remote> first under <media>).
func (s *Server) Update(physics.Runner) {
	if s.mover != nil && len(s.realIDs) > 0 {
		s.movePoses()
	}
}

// Reset implements the medium's reset.
func (s *Server) Reset() {}

// Close stops listening, says bye to the attached controllers and
// waits for the connections' goroutines.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.closing)
	for _, p := range s.proxies {
		p.detach("the simulation ended")
	}
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	err := s.ln.Close()
	if s.udp != nil {
		s.udp.Close()
	}
	s.wg.Wait()
	if err != nil && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("remote: %w", err)
	}
	return nil
}

// HostController returns the proxy controller of robot r when the
// server hosts it: r is listed in robots or marked real="true".
func (s *Server) HostController(r *entity.Robot, c *config.Controller) (ci.Controller, bool, error) {
	real, err := IsReal(r)
	if err != nil {
		return nil, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.proxies[r.ID]
	if real && !ok {
		p = &proxy{srv: s, id: r.ID, ready: make(chan struct{}), attached: make(chan struct{})}
		s.proxies[r.ID], ok = p, true
	}
	if !ok || p.entry != nil {
		return nil, false, nil
	}
	p.entry, p.real = c, real
	if real {
		if s.udp == nil {
			if err := s.openPoses(); err != nil {
				return nil, false, err
			}
		}
		s.reals[r.ID] = &realBody{robot: r}
		s.realIDs = append(s.realIDs, r.ID)
	}
	return p, true, nil
}

// IsReal reports whether robot r is marked real="true".
func IsReal(r *entity.Robot) (bool, error) {
	if r.Node == nil || !r.Node.Has("real") {
		return false, nil
	}
	return r.Node.Bool("real")
}

// accept serves connections until the listener closes.
func (s *Server) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			c.Close()
			return
		}
		s.conns[c] = true
		s.wg.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.wg.Done()
			s.serve(c)
			s.mu.Lock()
			delete(s.conns, c)
			s.mu.Unlock()
			c.Close()
		}()
	}
}

// serve checks a connection's Hello, attaches it to its robot and reads
// its Acts until it leaves.
func (s *Server) serve(nc net.Conn) {
	if tc, ok := nc.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
	}
	c := simlink.NewConn(nc)
	reject := func(format string, args ...any) {
		reason := fmt.Sprintf(format, args...)
		s.logf("remote: %s: refused: %s", nc.RemoteAddr(), reason)
		c.Write(simlink.FrameReject, func(b []byte) []byte { return simlink.AppendReason(b, "remote: "+reason) })
	}
	nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	typ, body, err := c.Read()
	if err != nil {
		return
	}
	if typ != simlink.FrameHello {
		reject("the first frame must be a hello, not type %d", typ)
		return
	}
	h, err := simlink.ParseHello(body)
	if err != nil {
		reject("%v", err)
		return
	}
	if h.Version != simlink.Version {
		reject("protocol version %d; this simulator speaks version %d: use robot binaries of the same release", h.Version, simlink.Version)
		return
	}
	if subtle.ConstantTimeCompare([]byte(h.Token), []byte(s.token)) != 1 {
		reject("wrong token for robot %q; give the experiment's token (ARGOS_REMOTE_TOKEN)", h.RobotID)
		return
	}
	nc.SetReadDeadline(time.Time{})
	s.mu.Lock()
	p, ok := s.proxies[h.RobotID]
	s.mu.Unlock()
	if ok {
		// The simulation may still be building its robots.
		t := time.NewTimer(s.wait)
		select {
		case <-p.ready:
		case <-t.C:
			ok = false
		case <-s.closing:
			t.Stop()
			return
		}
		t.Stop()
	}
	if !ok {
		var ids []string
		for id := range s.proxies {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		reject("robot %q is not hosted by <remote id=%q> (it hosts %s)", h.RobotID, s.id, strings.Join(ids, ", "))
		return
	}
	sess, err := p.newSession(nc, c, h)
	if err != nil {
		reject("%v", err)
		return
	}
	// Attached and welcomed under the write lock: no Sense goes out
	// before the Welcome.
	sess.wmu.Lock()
	if err := p.attach(sess); err != nil {
		sess.wmu.Unlock()
		reject("%v", err)
		return
	}
	err = c.Write(simlink.FrameWelcome, func(b []byte) []byte {
		return simlink.AppendWelcome(b, simlink.Welcome{Version: simlink.Version, TicksPerSecond: s.tps, Mode: s.mode, Params: sess.params})
	})
	sess.wmu.Unlock()
	if err != nil {
		p.detachSession(sess, err.Error())
		return
	}
	if s.mode == simlink.RealTime {
		go sess.writer()
	}
	s.logf("remote: robot %q: controller attached from %s", h.RobotID, nc.RemoteAddr())
	why := sess.read(s.mode)
	p.detachSession(sess, why)
	s.logf("remote: robot %q: controller left: %s", h.RobotID, why)
}

// ticksPerSecondOf reads <experiment ticks_per_second> of the file n is
// in (the config package has checked it).
func ticksPerSecondOf(n *config.Node) int {
	root := n
	for root.Parent() != nil {
		root = root.Parent()
	}
	if fw := root.FirstChild("framework"); fw != nil {
		if e := fw.FirstChild("experiment"); e != nil {
			if v, err := e.IntOr("ticks_per_second", 0); err == nil {
				return v
			}
		}
	}
	return 0
}
