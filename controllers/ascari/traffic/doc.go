// Package traffic is ASCARI's traffic-control application: unicycle
// agents travel on a graph (a grid of rows x cols nodes, spacing metres
// apart) and lock the nodes they are about to cross through messages, so
// that no two agents are ever on one node at the same time and no two
// travel one arc, over a channel that loses, delays and limits the range
// of messages. The controller is ascari_traffic_controller.
//
// # Motion
//
// Each agent holds the node it stands on. It plans a few nodes ahead (a
// random walk that does not turn back and avoids the nodes others say
// they hold or claim) and claims the first; once it has the claim
// granted it holds both nodes, drives along the arc, and releases the
// node it left when it reaches the other. Holding both ends of an arc
// while on it makes the arc exclusive too. An arc is driven as a
// straight leg (unicycle.Body.FollowLeg): the agent turns on the spot to
// face the next node, then drives with no angular speed, so that its
// commands change only at the ends of the leg and in its last
// centimetres.
//
// # Messages
//
// Every period ticks (staggered by agent number) and whenever it makes a
// new claim, an agent broadcasts a Status on topic "traffic": its
// number, its tick, its position, the nodes it holds, its claim with the
// tick the claim was made (its priority), the nodes it plans to cross
// next, and the claims of others it grants. ASCARI's paper does not spell
// its locking protocol out; this one is a Ricart-Agrawala mutual exclusion
// made of states rather than events, so that a lost or late message only
// delays:
//
//   - An agent grants another's claim on node n unless it holds n, or
//     claims n itself with priority (an earlier claim tick; equal ticks:
//     the smaller agent number). A grant names the claim (agent, node,
//     claim tick), so that it never counts for a later claim.
//   - An agent enters the claimed node once every agent that might be
//     near it has granted the claim and none of them says it holds it.
//     "Might be near" is judged from the last Status heard from each
//     agent: its position then, plus the distance it may have driven
//     since (the Status carries its tick, so a delay is accounted for),
//     within 1.5 spacings of the node. Agents not heard for forget ticks
//     are taken to be out of range.
//   - Claims and grants are repeated in every Status until they change,
//     so a lost message is made good by a later one.
//   - An agent that waits longer than patience ticks (plus a random
//     jitter) withdraws its claim and plans another way: two agents
//     facing each other on an arc, or a cycle of agents each waiting for
//     the next, would otherwise wait for ever.
//
// Safety rests on two assumptions the experiment must meet: the channel's
// range is at least 2.5 spacings plus the distance an agent drives in
// forget ticks, so that an agent that could contend for a node is heard
// long before it gets there; and no agent goes unheard for forget ticks
// while in range (with the default 2000 ticks and a period of 50, forty
// Status messages in a row would have to be lost). Agents start at
// distinct nodes and make no claim in their first warmup ticks (default
// 1000: twenty Status messages), while they hear each other. With the
// defaults, 1 m spacing and 0.5 m/s the range must be at least 3.5 m.
// The ticks of all agents run together, as in the simulator; real robots
// would carry Lamport clocks in the claim ticks.
//
// Params: rows, cols (the grid, default 5 x 5), spacing (m, default 1),
// x0, y0 (the position of node 0, default 0, 0; node r*cols+c is at
// x0+c*spacing, y0+r*spacing), speed (m/s, default 0.5), turn (rad/s,
// default 6), period (ticks between Status messages, default 50),
// patience (ticks, default 400), forget (ticks, default 2000), warmup
// (ticks, default 1000), tick (the tick's length in seconds, default
// 0.001), locking (default true; false enters without asking, to show
// the collisions the protocol prevents). Devices: dynamics_state and dynamics_control (a unicycle:
// states x, y, theta; controls v, w), messaging under actuators and
// sensors.
package traffic
