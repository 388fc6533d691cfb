// Package entity defines what can be put in the arena: the robot models
// (foot-bot, e-puck) with their ARGoS geometry and device layout, passive
// objects (box, cylinder) and lights; the registry that maps .argos tags to
// parsers; and Robot, the simulated robot that devices read and write.
package entity
