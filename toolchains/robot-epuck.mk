# e-puck with a Gumstix Overo: TI OMAP3, Cortex-A8 (ARMv7-A).
ROBOT_epuck_BOARD  := epuck
ROBOT_epuck_GOOS   := linux
ROBOT_epuck_GOARCH := arm
ROBOT_epuck_GOARM  := 7
ROBOT_epuck_QEMU   := qemu-arm-static -cpu cortex-a8
ROBOT_epuck_EXP    := toolchains/experiments/epuck.argos
ROBOT_epuck_ID     := edc
