# Robot targets, included by the Makefile: `make robot-<model>` builds
# build/argos, then runs `argos robot build` (package toolchains), which
# cross-compiles cmd/robot for the model's CPU (the board's GOOS, GOARCH
# and GOARM) and writes a deployable bundle in $(BUILD)/robot-<model>
# (argos-robot, experiment.argos, argos-robot.service, install.sh); with
# ROBOT=user@host, `argos robot deploy` also copies it there over ssh and
# restarts the service.
#
#   make robot-footbot                        # bundle only; prints where it is
#   make robot-epuck ROBOT=root@epuck-3021    # bundle, copy, restart
#   make robot-pipuck ROBOT_EXP=my.argos CTRL_ID=c1
#
# The bundles run toolchains/experiments/<model>.argos by default (the
# e-puck's for the Pi-pucks).

ROBOT_MODELS := footbot eyebot epuck pipuck pipuck2
ROBOT        ?=
ROBOT_EXP    ?=
CTRL_ID      ?=
REMOTE_DIR   ?= /opt/argos-robot
SSH          ?= ssh
SCP          ?= scp

ROBOT_EXP_footbot := toolchains/experiments/footbot.argos
ROBOT_EXP_eyebot  := toolchains/experiments/eyebot.argos
ROBOT_EXP_epuck   := toolchains/experiments/epuck.argos
ROBOT_EXP_pipuck  := toolchains/experiments/epuck.argos
ROBOT_EXP_pipuck2 := toolchains/experiments/epuck.argos

.PHONY: robots $(addprefix robot-,$(ROBOT_MODELS))

robots: $(addprefix robot-,$(ROBOT_MODELS))

$(addprefix robot-,$(ROBOT_MODELS)): robot-%: build
	$(ARGOS) robot $(if $(ROBOT),deploy --host $(ROBOT) --ssh "$(SSH)" --scp "$(SCP)",build) --model $* \
	  -c $(or $(ROBOT_EXP),$(ROBOT_EXP_$*)) $(if $(CTRL_ID),-i $(CTRL_ID)) \
	  --out $(BUILD)/robot-$* --remote-dir $(REMOTE_DIR) --go $(GO)

# The robot runtime against emulated hardware (docs/benchmarks.md).
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
