# Robot targets, included by the Makefile: `make robot-<model>` cross-compiles
# cmd/robot for the robot's CPU and makes a deployable bundle in
# $(BUILD)/robot-<model>/ (argos-robot, experiment.argos,
# argos-robot.service, install.sh); with ROBOT=user@host it copies the
# bundle there over ssh and restarts the service.
#
#   make robot-footbot                        # bundle only; prints where it is
#   make robot-epuck ROBOT=root@epuck-3021    # bundle, copy, restart
#   make robot-pipuck ROBOT_EXP=my.argos CTRL_ID=c1 CONTROLLERS="diffusion foraging"
#
# Per-robot settings (board, GOARCH, GOARM, qemu command, default
# experiment and controller id) are in toolchains/robot-<model>.mk.

include $(wildcard toolchains/robot-*.mk)

ROBOT_MODELS := footbot eyebot epuck pipuck pipuck2
ROBOT        ?=
# ROBOT_EXP and CTRL_ID replace the model's experiment file and controller id.
ROBOT_EXP    ?=
CTRL_ID      ?=
REMOTE_DIR   ?= /opt/argos-robot
SSH          ?= ssh
SCP          ?= scp
# CONTROLLERS: packages of controllers/ to link instead of the list in
# cmd/robot/controllers.go (space-separated names).
CONTROLLERS  ?= $(ROBOT_$*_CONTROLLERS)

.PHONY: robots $(addprefix robot-,$(ROBOT_MODELS))

robots: $(addprefix robot-,$(ROBOT_MODELS))

$(addprefix robot-,$(ROBOT_MODELS)): robot-%:
	@MODEL=$* BOARD=$(ROBOT_$*_BOARD) GOOS=$(ROBOT_$*_GOOS) GOARCH=$(ROBOT_$*_GOARCH) GOARM=$(ROBOT_$*_GOARM) \
	  EXP=$(or $(ROBOT_EXP),$(ROBOT_$*_EXP)) \
	  CTRL_ID=$(or $(CTRL_ID),$(ROBOT_$*_ID)) CONTROLLERS="$(CONTROLLERS)" \
	  OUT=$(BUILD)/robot-$* GO=$(GO) ROBOT=$(ROBOT) REMOTE_DIR=$(REMOTE_DIR) SSH="$(SSH)" SCP="$(SCP)" \
	  toolchains/bundle.sh

# BENCHMARKS.md section 3: the robot runtime against emulated hardware.
.PHONY: bench-robot
bench-robot:
	GO=$(GO) BUILD=$(BUILD) toolchains/bench-robot.sh

# The fuzz tests of the robot protocols' decoders (seeds in testdata/fuzz).
.PHONY: fuzz-robot
fuzz-robot:
	for f in FuzzParseChain FuzzDecodeSense FuzzDecodeSpeed FuzzDecodeSensors FuzzDecodeActuators FuzzDecodeChips; do \
	  $(GO) test -run=XXX -fuzz=^$$f$$ -fuzztime=$(FUZZTIME) ./realrobot/epuck/ || exit 1; done
	$(GO) test -run=XXX -fuzz=^FuzzDecode$$ -fuzztime=$(FUZZTIME) ./realrobot/aseba/
	$(GO) test -run=XXX -fuzz=^FuzzFirmwareHandle$$ -fuzztime=$(FUZZTIME) ./emulator/epuck/
