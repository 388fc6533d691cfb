// Package eyebotcircle is ARGoS's eyebot_circle example
// (argos3-examples): a foot-bot broadcasts a counter over range and
// bearing (footbot_circle_controller) while an eye-bot
// (eyebot_circle_controller) takes off 3 m above where it stands, flies
// 2 m out, goes round a circle of 20 way-points about its take-off
// column, comes back to the centre and lands, listening to the foot-bot
// all along.
//
//	<footbot_circle_controller id="fcc">
//	  <actuators><range_and_bearing implementation="default" /></actuators>
//	  <sensors><range_and_bearing implementation="medium" medium="rab" /></sensors>
//	</footbot_circle_controller>
//	<eyebot_circle_controller id="ecc">
//	  <actuators><quadrotor_position implementation="default" /><range_and_bearing implementation="default" /></actuators>
//	  <sensors><positioning implementation="default" /><range_and_bearing implementation="medium" medium="rab" /></sensors>
//	</eyebot_circle_controller>
package eyebotcircle
