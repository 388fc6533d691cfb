// Package devices holds the simulated sensors and actuators: each one
// implements a device interface of package ci for the controller, plus
// Sensor (read the world during the sense phase) or Actuator (write into
// the robot during the act phase) for the simulator. Devices are found by
// their .argos tag and implementation in the Sensors and Actuators
// registries, as ARGoS's plugins are.
package devices
