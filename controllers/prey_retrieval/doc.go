// Package preyretrieval (directory controllers/prey_retrieval) holds the
// two controllers of the prey-retrieval experiment
// (experiments/prey_retrieval.argos), the experiment with which ARGoS's
// design shows the whole system at work: one eye-bot guides foot-bots,
// with its laser, to carry a prey it chose to the nest. Both are written
// with behaviortk, each as a finite-state machine of small behaviours.
//
// Communication is visual only. Nobody sends a message and the foot-bots
// know no positions; what one robot does, the others see:
//
//	preys          LEDs on top, one colour each (yellow, cyan): the eye-bot's camera tells them apart
//	nest           a green floor disc that the foot-bots' ground sensors read (grey level 0.59),
//	               marked for the eye-bot by a green light above it
//	laser spot     red (the eye-bot's laser_pointer): "grip here" while it marks the prey,
//	               "carry it here" while it guides the carrier
//	carrier        a foot-bot that grips the prey turns its LEDs blue: the eye-bot sees the prey
//	               taken, the other foot-bots keep away from it
//
// # The eye-bot (prey_retrieval_eyebot_controller)
//
// It picks one of the prey colours at random with its own random stream,
// takes off and flies a lawn-mower sweep at a fixed altitude with its laser
// off, remembering where it saw the nest's light. States:
//
//	take_off   climb to altitude                                  -> search when there
//	search     sweep the area, laser off                          -> approach when the chosen prey is seen
//	approach   fly over the prey                                  -> mark when over it; search if it vanished
//	mark       hover over the prey with the laser on              -> find_nest when blue LEDs stay at the prey
//	find_nest  sweep on, laser off, until the nest was seen       -> guide (at once when already seen)
//	guide      hover lead metres ahead of the carrier (its blue    -> done when the prey is in the nest and
//	           LEDs) toward the nest, laser on                       the carrier left it; mark when the carrier
//	                                                                 is gone but the prey is not home
//	done       hover, laser off
//
// It flies with quadrotor_position set-points that move at a bounded
// speed, and locates what its downward camera sees with its own
// positioning sensor (its pose plus each blob's angle and distance).
//
// # The foot-bots (prey_retrieval_footbot_controller)
//
//	wander      random walk, obstacle avoidance, keep away from blue LEDs -> go_to_spot when the laser spot is seen
//	                                                                       and no carrier is at it
//	go_to_spot  drive to the spot                                         -> grip when it is close ahead; wander when
//	                                                                       it is lost or a carrier is at it
//	grip        face the prey, creep forward, lock when it touches        -> carry when gripping; back_off when it fails
//	            the front right under the spot                               or a carrier shows up at the spot
//	carry       LEDs blue, drive toward the spot (wait when none)         -> release after some steps in the nest (ground
//	                                                                       sensors); at once when, just after the grip,
//	                                                                       the spot is not on what it holds (it gripped
//	                                                                       another robot); at random when another
//	                                                                       carrier holds the same prey
//	release     open the gripper, LEDs off                                -> back_off
//	back_off    reverse for a while, ignoring spots                       -> wander
//
// # Use
//
//	<prey_retrieval_eyebot_controller id="pre">
//	  <actuators>
//	    <quadrotor_position implementation="default"/>
//	    <laser_pointer implementation="default"/>
//	  </actuators>
//	  <sensors>
//	    <positioning implementation="default"/>
//	    <colored_blob_perspective_camera implementation="default" medium="leds"/>
//	  </sensors>
//	  <params preys="yellow;cyan" altitude="1.5" area="-1.6,-1.6,1.6,1.6" lane="1.6"/>
//	</prey_retrieval_eyebot_controller>
//
//	<prey_retrieval_footbot_controller id="prf">
//	  <actuators>
//	    <differential_steering implementation="default"/>
//	    <leds implementation="default" medium="leds"/>
//	    <footbot_gripper implementation="default"/>
//	  </actuators>
//	  <sensors>
//	    <footbot_proximity implementation="default"/>
//	    <footbot_motor_ground implementation="rot_z_only"/>
//	    <colored_blob_omnidirectional_camera implementation="rot_z_only" medium="leds"/>
//	  </sensors>
//	  <params speed="10" carry_speed="6"/>
//	</prey_retrieval_footbot_controller>
//
// The parameters are listed in the controllers' descriptions (argos -q
// prey_retrieval_eyebot_controller).
package preyretrieval
