// Package hil holds the hardware-in-the-loop tests of the robot binary:
// the controller written once against ci runs in the simulator, and as
// the cross-compiled ARM robot binary under qemu-user talking to emulated
// robot hardware backed by the simulator; both runs must show the robot
// driving toward a wall and avoiding it. It has no code of its own.
//
// The tests need qemu-user-static (scripts/ci-setup.d/qemu.sh installs it)
// and skip without it, except under ARGOS_CI=1, where its absence fails.
package hil
