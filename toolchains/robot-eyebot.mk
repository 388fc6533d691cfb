# eye-bot: compute board assumed the foot-bot's (ARM1136, ARMv6).
ROBOT_eyebot_BOARD  := eyebot
ROBOT_eyebot_GOOS   := linux
ROBOT_eyebot_GOARCH := arm
ROBOT_eyebot_GOARM  := 6
ROBOT_eyebot_QEMU   := qemu-arm-static -cpu arm1136
ROBOT_eyebot_EXP    := toolchains/experiments/eyebot.argos
ROBOT_eyebot_ID     := ehc
# The hover controller, when the tree has it.
ROBOT_eyebot_CONTROLLERS := diffusion $(notdir $(wildcard controllers/eyebot_hover))
