# foot-bot (marXbot): Freescale i.MX31, ARM1136 (ARMv6 with VFP).
ROBOT_footbot_BOARD  := footbot
ROBOT_footbot_GOOS   := linux
ROBOT_footbot_GOARCH := arm
ROBOT_footbot_GOARM  := 6
ROBOT_footbot_QEMU   := qemu-arm-static -cpu arm1136
ROBOT_footbot_EXP    := toolchains/experiments/footbot.argos
ROBOT_footbot_ID     := fdc
