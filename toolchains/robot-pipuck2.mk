# e-puck2 with a Pi-puck and a Raspberry Pi Zero 2 W on a 64-bit OS: Cortex-A53.
ROBOT_pipuck2_BOARD  := pipuck2
ROBOT_pipuck2_GOOS   := linux
ROBOT_pipuck2_GOARCH := arm64
ROBOT_pipuck2_GOARM  := 
ROBOT_pipuck2_QEMU   := qemu-aarch64-static -cpu cortex-a53
ROBOT_pipuck2_EXP    := toolchains/experiments/epuck.argos
ROBOT_pipuck2_ID     := edc
