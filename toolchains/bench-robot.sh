#!/usr/bin/env bash
# The robot runtime benchmark (docs/benchmarks.md, section 3), against
# emulated hardware: sense-to-act time per tick without bus time, tick
# jitter at 10 Hz, start-up time, and the size of the robot binaries.
# Runs the e-puck binary natively and under qemu (GOARM=7, Cortex-A8) on
# an emulated e-puck (pty), and the foot-bot binary under qemu (GOARM=6,
# ARM1136) on an emulated Aseba network; prints one ROBOT-BENCH line per
# run.
#   toolchains/bench-robot.sh            (make bench-robot)
#   TICKS=600 toolchains/bench-robot.sh  (default 300 ticks = 30 s per run)
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
BUILD=${BUILD:-build}
TICKS=${TICKS:-300}
for m in footbot eyebot epuck pipuck pipuck2; do
  make --no-print-directory robot-$m BUILD="$BUILD" ROBOT= >/dev/null
done
make --no-print-directory build BUILD="$BUILD" GO="$GO" >/dev/null
$GO build -o "$BUILD/robot-host" ./cmd/robot
echo "machine: $(nproc) cores, $(uname -m); $(go version | cut -d' ' -f3)"
for m in footbot eyebot epuck pipuck pipuck2; do
  f="$BUILD/robot-$m/argos-robot"
  echo "ROBOT-SIZE model=$m bytes=$(stat -c %s "$f") ($(file -b "$f" | cut -d, -f1-2))"
done

tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT

# emulate BOARD EXP ROBOT_ID: starts the emulator, sets $ready.
emulate() {
  "$BUILD/argos" emulate -b "$1" -c "$2" -robot "$3" -link "$tmp/tty" -listen 127.0.0.1:0 -duration 10m >"$tmp/emu.out" 2>"$tmp/emu.err" &
  emu=$!
  for _ in $(seq 100); do
    ready=$(sed -n 's/^EMULATOR READY //p' "$tmp/emu.out")
    [ -n "$ready" ] && return 0
    sleep 0.1
  done
  echo "the emulator did not start:"; cat "$tmp/emu.err"; exit 1
}

bench() { # label, command...
  local label=$1; shift
  local t0 t1
  t0=$(date +%s%N)
  "$@" -q boards >/dev/null
  t1=$(date +%s%N)
  local stats
  stats=$("$@" -ticks "$TICKS" -stats 2>"$tmp/robot.err" | grep ROBOT-STATS) || { cat "$tmp/robot.err"; exit 1; }
  echo "ROBOT-BENCH target=$label exec_to_exit_ms=$(( (t1 - t0) / 1000000 )) ${stats#ROBOT-STATS }"
}

exp=toolchains/experiments/epuck.argos
emulate epuck "$exp" ep0
bench "epuck/host-amd64" "$BUILD/robot-host" -c "$exp" -i edc -b epuck -port "$tmp/tty"
kill $emu; wait $emu 2>/dev/null || true

emulate epuck "$exp" ep0
bench "epuck/qemu-cortex-a8-GOARM=7" qemu-arm-static -cpu cortex-a8 "$BUILD/robot-epuck/argos-robot" -c "$exp" -i edc -port "$tmp/tty"
kill $emu; wait $emu 2>/dev/null || true

exp=toolchains/experiments/footbot.argos
emulate footbot "$exp" fb0
bench "footbot/qemu-arm1136-GOARM=6" qemu-arm-static -cpu arm1136 "$BUILD/robot-footbot/argos-robot" -c "$exp" -i fdc -aseba "${ready#aseba=}"
kill $emu; wait $emu 2>/dev/null || true
