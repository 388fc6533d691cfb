package realrobot

// Driver returns the driver the runtime runs on (the robot command asks
// it whether it is linked to a simulation that may end the run).
func (rt *Runtime) Driver() Driver { return rt.drv }
