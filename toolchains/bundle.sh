#!/usr/bin/env bash
# Builds the deployable bundle of one robot model (called by the
# robot-<model> targets of toolchains/robots.mk, which pass the settings of
# toolchains/robot-<model>.mk in the environment), and with ROBOT=user@host
# copies it to the robot over ssh and restarts its service.
set -euo pipefail
: "${MODEL:?}" "${BOARD:?}" "${GOARCH:?}" "${EXP:?}" "${CTRL_ID:?}" "${OUT:?}"
GO=${GO:-go}
SSH=${SSH:-ssh}
SCP=${SCP:-scp}
REMOTE_DIR=${REMOTE_DIR:-/opt/argos-robot}
mkdir -p "$OUT"

flags=()
if [ -n "${CONTROLLERS:-}" ]; then
  # Link the chosen controllers instead of cmd/robot/controllers.go's list.
  src="$OUT/controllers.go"
  { echo "package main"; echo; echo "import ("
    for c in $CONTROLLERS; do echo "	_ \"github.com/argosgo/argos/controllers/$c\""; done
    echo ")"; } > "$src"
  printf '{"Replace":{"%s":"%s"}}\n' "$PWD/cmd/robot/controllers.go" "$(cd "$OUT" && pwd)/controllers.go" > "$OUT/overlay.json"
  flags+=(-overlay "$OUT/overlay.json")
fi

echo "building $OUT/argos-robot for $MODEL: GOOS=${GOOS:-linux} GOARCH=$GOARCH${GOARM:+ GOARM=$GOARM} CGO_ENABLED=0, board $BOARD"
env CGO_ENABLED=0 GOOS="${GOOS:-linux}" GOARCH="$GOARCH" GOARM="${GOARM:-}" \
  "$GO" build -trimpath "${flags[@]}" -ldflags "-s -w -X main.defaultBoard=$BOARD" -o "$OUT/argos-robot" ./cmd/robot
cp "$EXP" "$OUT/experiment.argos"
sed -e "s|@MODEL@|$MODEL|g" -e "s|@ID@|$CTRL_ID|g" -e "s|@BOARD@|$BOARD|g" -e "s|@DIR@|$REMOTE_DIR|g" \
  toolchains/argos-robot.service.in > "$OUT/argos-robot.service"
cp toolchains/install.sh "$OUT/install.sh"
rm -f "$OUT/overlay.json" "$OUT/controllers.go"

if [ -z "${ROBOT:-}" ]; then
  echo "bundle ready in $OUT/ (argos-robot, experiment.argos, argos-robot.service, install.sh)"
  echo "deploy it with: make robot-$MODEL ROBOT=user@host   (copies to $REMOTE_DIR and restarts the service)"
  exit 0
fi
echo "deploying to $ROBOT:$REMOTE_DIR"
$SSH "$ROBOT" "mkdir -p '$REMOTE_DIR'"
$SCP "$OUT/argos-robot" "$OUT/experiment.argos" "$OUT/argos-robot.service" "$OUT/install.sh" "$ROBOT:$REMOTE_DIR/"
$SSH "$ROBOT" "sudo sh '$REMOTE_DIR/install.sh' '$REMOTE_DIR'"
