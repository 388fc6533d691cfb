// Package custom is the physics engine of agents whose dynamics the
// experiment file writes, as ASCARI's configuration does: the states, the
// control commands and one equation per state,
//
//	<physics_engines>
//	  <custom id="agents" iterations="10">
//	    <dynamics name="unicycle" states="x, y, theta" controls="v, w">
//	      <equation>x' = v*cos(theta)</equation>
//	      <equation>y' = v*sin(theta)</equation>
//	      <equation>theta' = w</equation>
//	    </dynamics>
//	  </custom>
//	</physics_engines>
//	<arena ...>
//	  <agent id="u0" dynamics="unicycle" radius="0.05">
//	    <body position="0,0,0" orientation="90,0,0"/>
//	    <controller config="traffic"/>
//	  </agent>
//	</arena>
//
// integrated with fourth-order Runge-Kutta (or Euler, method="euler") at
// the engine's step, the tick divided by iterations. The expressions are
// parsed once, with errors at the file's line (an unknown symbol, a
// division by a constant zero), folded where constant, and compiled into
// a program that evaluates a batch of agents register by register without
// allocating. A controller sets an agent's controls through the
// dynamics_control actuator and reads its states through the
// dynamics_state sensor (ci.DynamicsControl, ci.DynamicsState).
//
// The states x, y and theta are the agent's pose in the arena; agents do
// not collide with anything (ASCARI's engine has no contacts), but the
// sensors of others see their bodies.
package custom
