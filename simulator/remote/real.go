package remote

import (
	"bufio"
	"bytes"
	"crypto/subtle"
	"fmt"
	"math"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/entity"
)

// Mover moves bodies between ticks (the simulator).
type Mover interface {
	MoveBody(i int, pos ci.Vector3, yaw float64) error
}

// Logger receives the server's warnings and events.
type Logger interface {
	Infof(format string, args ...any)
	Warnf(format string, args ...any)
}

// PosePrefix starts every line of the pose stream.
const PosePrefix = "POSE1"

// Pose is one line of the pose stream: where a real robot is.
type Pose struct {
	Token string
	ID    string
	// Seq orders the poses of one robot: a tick, a counter or a
	// timestamp; a pose whose Seq is not above the last one's is old.
	Seq       uint64
	X, Y, Yaw float64
}

// ParsePose decodes one line of the pose stream:
//
//	POSE1 <token> <robot id> <seq> <x> <y> <yaw>
//
// fields separated by spaces or tabs; x and y in metres in the arena's
// frame, yaw in radians counter-clockwise from the x axis; seq an
// unsigned integer that grows (a counter, a tick or a timestamp in
// milliseconds).
func ParsePose(line []byte) (Pose, error) {
	var p Pose
	f := strings.Fields(string(line))
	if len(f) != 7 || f[0] != PosePrefix {
		return p, fmt.Errorf("remote: a pose line is %q followed by token, robot id, seq, x, y and yaw (7 fields), not %q", PosePrefix, clip(string(line)))
	}
	p.Token, p.ID = f[1], f[2]
	var err error
	if p.Seq, err = strconv.ParseUint(f[3], 10, 64); err != nil {
		return p, fmt.Errorf("remote: pose of %q: seq %q is not an unsigned integer", clip(p.ID), clip(f[3]))
	}
	for i, dst := range []*float64{&p.X, &p.Y, &p.Yaw} {
		v, err := strconv.ParseFloat(f[4+i], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return p, fmt.Errorf("remote: pose of %q: %q is not a finite number", clip(p.ID), clip(f[4+i]))
		}
		*dst = v
	}
	return p, nil
}

// AppendPose appends p as a line of the pose stream (with its newline).
func AppendPose(buf []byte, p Pose) []byte {
	buf = fmt.Appendf(buf, "%s %s %s %d ", PosePrefix, p.Token, p.ID, p.Seq)
	buf = strconv.AppendFloat(buf, p.X, 'g', -1, 64)
	buf = append(buf, ' ')
	buf = strconv.AppendFloat(buf, p.Y, 'g', -1, 64)
	buf = append(buf, ' ')
	buf = strconv.AppendFloat(buf, p.Yaw, 'g', -1, 64)
	return append(buf, '\n')
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// realBody is a robot of the arena whose pose comes from outside.
type realBody struct {
	robot *entity.Robot

	mu      sync.Mutex
	seq     uint64
	have    bool // a pose came
	fresh   bool // not yet applied
	x, y, a float64
	last    time.Time // when the last pose came (or the first tick)

	stale bool // the warning was logged
}

// poses reads the pose stream until the socket closes.
func (s *Server) poses() {
	defer s.wg.Done()
	buf := make([]byte, 64<<10)
	for {
		n, from, err := s.udp.ReadFromUDP(buf)
		if err != nil {
			return
		}
		sc := bufio.NewScanner(bytes.NewReader(buf[:n]))
		for sc.Scan() {
			line := sc.Bytes()
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			p, err := ParsePose(line)
			if err != nil {
				s.warnOnce("pose:"+from.String(), "%v (from %s)", err, from)
				continue
			}
			if subtle.ConstantTimeCompare([]byte(p.Token), []byte(s.token)) != 1 {
				s.warnOnce("token:"+from.String(), "remote: poses with a wrong token from %s are ignored", from)
				continue
			}
			s.mu.Lock()
			rb := s.reals[p.ID]
			s.mu.Unlock()
			if rb == nil {
				s.warnOnce("id:"+p.ID, "remote: a pose of %q, which is no robot marked real=\"true\", is ignored", clip(p.ID))
				continue
			}
			rb.mu.Lock()
			if !rb.have || p.Seq > rb.seq {
				rb.seq, rb.have, rb.fresh = p.Seq, true, true
				rb.x, rb.y, rb.a = p.X, p.Y, p.Yaw
				rb.last = time.Now()
			}
			rb.mu.Unlock()
		}
	}
}

// warnOnce logs a warning once per key.
func (s *Server) warnOnce(key, format string, args ...any) {
	s.mu.Lock()
	seen := s.warned[key]
	s.warned[key] = true
	log := s.logger
	s.mu.Unlock()
	if !seen && log != nil {
		log.Warnf(format, args...)
	}
}

// movePoses puts the real robots where the stream last said; a robot
// whose pose is older than stale stays where it is, with a warning.
func (s *Server) movePoses() {
	now := time.Now()
	for _, id := range s.realIDs {
		rb := s.reals[id]
		rb.mu.Lock()
		if rb.last.IsZero() {
			rb.last = now // the lost timer starts at the first tick
		}
		fresh, x, y, a := rb.fresh, rb.x, rb.y, rb.a
		rb.fresh = false
		age := now.Sub(rb.last)
		rb.mu.Unlock()
		if fresh {
			if rb.stale && s.logger != nil {
				s.logger.Infof("remote: real robot %q: poses again", id)
			}
			rb.stale = false
			b := rb.robot.B()
			if err := s.mover.MoveBody(rb.robot.Body, ci.Vector3{X: x, Y: y, Z: b.Z}, a); err != nil && s.logger != nil {
				s.warnOnce("move:"+id, "remote: real robot %q: %v", id, err)
			}
			continue
		}
		if age > s.stale && !rb.stale {
			rb.stale = true
			if s.logger != nil {
				s.logger.Warnf("remote: real robot %q: no pose for %v: its body is frozen; the run stops after %v without one", id, age.Round(time.Millisecond), s.lost)
			}
		}
	}
}

// lostPose returns an error when real robot id has had no pose for
// longer than lost.
func (s *Server) lostPose(id string) error {
	s.mu.Lock()
	rb := s.reals[id]
	s.mu.Unlock()
	if rb == nil {
		return nil
	}
	rb.mu.Lock()
	defer rb.mu.Unlock()
	if !rb.last.IsZero() && time.Since(rb.last) > s.lost {
		return fmt.Errorf("remote: real robot %q: no pose for more than %v (lost in <remote>); the run stops. Is the pose stream sent to %s?", id, s.lost, s.PoseAddr())
	}
	return nil
}

// PoseAddr returns the UDP address of the pose stream, or "" when no
// robot is real.
func (s *Server) PoseAddr() string {
	if s.udp == nil {
		return ""
	}
	return s.udp.LocalAddr().String()
}

// openPoses starts the pose stream's socket.
func (s *Server) openPoses() error {
	addr, err := net.ResolveUDPAddr("udp", s.poseAddr)
	if err != nil {
		return s.node.AttrErrorf("pose_address", "remote: %v; give host:port", err)
	}
	s.udp, err = net.ListenUDP("udp", addr)
	if err != nil {
		return s.node.AttrErrorf("pose_address", "remote: cannot listen on %s: %v; pick a free host:port", s.poseAddr, err)
	}
	s.wg.Add(1)
	go s.poses()
	return nil
}
