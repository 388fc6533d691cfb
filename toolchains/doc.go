// Package toolchains holds no code: the directory has the robots'
// cross-compilation settings (robot-<model>.mk, included by the Makefile
// through robots.mk), the bundle script, the systemd unit template, the
// install script run on the robot and the bundles' experiments. Its tests
// build the bundles and check them: the right ELF target and GOARM, the
// unit, the deploy commands, and that the settings agree with the board
// definitions of package boards.
package toolchains
