// Package foraging is ARGoS's foraging controller (the ARGoS 3 example
// footbot_foraging, argos3-examples/controllers/footbot_foraging): foot-bots
// rest in a grey nest, go out to look for food items (black spots on a
// white floor) and bring them back, guided by lights placed over the nest.
// It works with the loop functions foraging_loop_functions (package
// simulator/loop), which draw the floor, hand an item to a robot that
// stands on it and take it back when the robot reaches the nest.
//
// The robot is a state machine with three states:
//
//   - resting: it waits in the nest with red LEDs. Once it has rested
//     minimum_resting_time ticks it leaves with probability
//     RestToExploreProb per tick. Meanwhile it listens on
//     range-and-bearing: a neighbour back with food (byte 0 = 1) raises
//     RestToExploreProb and lowers ExploreToRestProb, one back empty-handed
//     (byte 0 = 2) does the opposite (the social rule).
//   - exploring: green LEDs. It avoids obstacles (the proximity vector;
//     inside the nest also away from the light). Every obstacle avoided
//     makes resting more likely (the collision rule). When the loop
//     functions give it a food item it returns (the food rule makes
//     exploring more likely); after minimum_unsuccessful_explore_time ticks
//     without food it returns with probability ExploreToRestProb per tick,
//     and every tick it stays makes resting more likely.
//   - returning to nest: blue LEDs. It follows the light (phototaxis) while
//     avoiding obstacles; once both of its right-hand motor ground sensors
//     (readings 2 and 3, as ARGoS's code reads them) have seen grey for
//     minimum_search_for_place_in_nest_time ticks it stops, broadcasts the
//     result of its trip in byte 0 of its range-and-bearing payload and
//     rests.
//
// Probabilities stay in [0, 1]. Headings become wheel speeds through
// ARGoS's three turning mechanisms (no turn, soft turn, hard turn) with
// hysteresis; see [behaviortk.WheelTurning].
//
// The loop functions reach the robot's food data through [Controller.PickUp],
// [Controller.Drop], [Controller.Carrying] and [Controller.IsResting], and
// need nothing else of this package.
//
// Parameters, as children of <params> (every attribute is optional and
// defaults to the value of ARGoS's foraging.argos, see [DefaultParams]):
//
//	<params>
//	  <diffusion go_straight_angle_range="-5:5" delta="0.1" />
//	  <wheel_turning hard_turn_angle_threshold="90" soft_turn_angle_threshold="70"
//	                 no_turn_angle_threshold="10" max_speed="10" />
//	  <state initial_rest_to_explore_prob="0.1" initial_explore_to_rest_prob="0.1"
//	         food_rule_explore_to_rest_delta_prob="0.01" food_rule_rest_to_explore_delta_prob="0.01"
//	         collision_rule_explore_to_rest_delta_prob="0.01"
//	         social_rule_explore_to_rest_delta_prob="0.01" social_rule_rest_to_explore_delta_prob="0.01"
//	         minimum_resting_time="50" minimum_unsuccessful_explore_time="600"
//	         minimum_search_for_place_in_nest_time="50" />
//	</params>
//
// Angles are in degrees, speeds in cm/s, times in ticks. Devices:
// actuators differential_steering, leds and range_and_bearing; sensors
// footbot_proximity, footbot_light, footbot_motor_ground and
// range_and_bearing.
package foraging
