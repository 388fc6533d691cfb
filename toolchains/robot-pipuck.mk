# e-puck2 with a Pi-puck and a Raspberry Pi Zero W: BCM2835, ARM1176 (ARMv6).
ROBOT_pipuck_BOARD  := pipuck
ROBOT_pipuck_GOOS   := linux
ROBOT_pipuck_GOARCH := arm
ROBOT_pipuck_GOARM  := 6
ROBOT_pipuck_QEMU   := qemu-arm-static -cpu arm1176
ROBOT_pipuck_EXP    := toolchains/experiments/epuck.argos
ROBOT_pipuck_ID     := edc
