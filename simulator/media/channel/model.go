package channel

import (
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
)

// Model is one stage of a channel, in ASCARI's three steps. A channel
// runs its stages in file order: at every tick each stage's Update, then
// every message through every stage's Receive, then every (message,
// receiver) pair that is left through every stage's Forward.
//
// Update and Receive run on one goroutine. Forward runs in parallel for
// different messages: it must only read what Update prepared and the
// message, and draw randomness from the message's counter-based stream
// ([Message.Rand]), never from a shared source.
type Model interface {
	// Update (step 1) refreshes the stage from the agents' states, once
	// per tick before any message passes.
	Update(s *State)
	// Receive (step 2) sees each message once, as it enters the channel:
	// it may read it, change its payload (m.Payload = a slice the stage
	// keeps valid until its next Update), drop it, or hold it: a message
	// held for n ticks comes back to this same stage n ticks later, with
	// Resumed set, ahead of the messages sent then.
	Receive(m *Message) Verdict
	// Forward (step 3) decides whether message m reaches agent to, among
	// the candidates the earlier stages left: Pass, Drop, or Hold(n),
	// which delays this delivery by n ticks (the holds of all stages add
	// up).
	Forward(m *Message, to int) Verdict
}

// Resetter is implemented by models that keep state across ticks; the
// channel calls Reset when the experiment is reset.
type Resetter interface{ Reset() }

// Verdict is what a stage decides about a message: Pass, Drop or
// Hold(n ticks).
type Verdict int32

const (
	// Pass lets the message (or the delivery) go on.
	Pass Verdict = 0
	// Drop loses it.
	Drop Verdict = -1
)

// Hold delays a message by n ticks (n >= 1; Hold(0) is Pass).
func Hold(n int) Verdict { return Verdict(max(n, 0)) }

// Message is a message on its way through the channel.
type Message struct {
	// From is the sender's index in State.Agents; To the addressee's, or
	// -1 for a broadcast.
	From, To int
	Topic    string
	Payload  []byte
	// Sent is the tick it was sent at; Seq its rank among the sender's
	// messages of that tick (from 0).
	Sent int64
	Seq  int
	// Resumed is set when a stage held the message and it comes back to
	// that stage.
	Resumed bool

	stage int    // the Receive stage it resumes at
	key   int32  // index in the tick's message list
	base  uint64 // the message's random stream: seed, tick, sender, rank
}

// Rand returns a number in [0, 1) drawn from a stream that depends only
// on the experiment's seed, the message (sender, tick, rank), the
// receiver and salt: the same for the same seed whatever the number of
// threads. Stages use it for random decisions; give each stage its own
// salt.
func (m *Message) Rand(to int, salt uint64) float64 {
	h := mix(mix(m.base^salt) + uint64(to))
	return float64(h>>11) * (1.0 / (1 << 53))
}

// streamOf is the base of a message's random stream.
func streamOf(seed uint64, sent int64, from, seq int) uint64 {
	return mix(mix(mix(seed)+uint64(sent)) + uint64(from)<<20 + uint64(seq))
}

// mix is SplitMix64's finaliser.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// State is what a stage's Update sees: the agents of the channel and the
// tick.
type State struct {
	// Tick counts the channel's updates from 1 (the simulator's tick).
	Tick int64
	// Seed is the experiment's seed.
	Seed   uint64
	Agents []Agent
	// World is the rest of the arena (walls for lines of sight).
	World *entity.World
}

// Agent is a member of the channel as the stages see it.
type Agent struct {
	ID string
	// Pos is the robot's position, at mid-height of its body (metres);
	// Yaw its heading.
	Pos ci.Vector3
	Yaw float64
	// Body is the robot's body in the space; Robot the robot.
	Body  int
	Robot *entity.Robot
	// Live is false for a robot removed from the arena: it neither sends
	// nor receives.
	Live bool
}

// ModelFactory builds a user model from its element under the channel
// (<model type="NAME" .../>); n's other attributes and children are the
// model's to read.
type ModelFactory func(n *config.Node, w *entity.World) (Model, error)

// Models is the registry of user models by the type attribute of
// <model>. Register from an init function of a package the simulator
// binary imports:
//
//	func init() {
//		channel.Models.MustRegister("fading", "loss growing with distance", newFading)
//	}
var Models = ci.NewRegistry[ModelFactory]("channel model")
