#!/bin/sh
# Runs on the robot (argos robot deploy, make robot-<model> ROBOT=user@host, calls it over ssh):
# installs the bundle's systemd unit and restarts the robot runtime.
#   sh install.sh DIR      DIR: where the bundle was copied
set -eu
dir=${1:-$(cd "$(dirname "$0")" && pwd)}
# ARGOS_UNIT_DIR: where systemd units go (tests point it elsewhere).
unit_dir=${ARGOS_UNIT_DIR:-/etc/systemd/system}
chmod +x "$dir/argos-robot"
if command -v systemctl >/dev/null 2>&1; then
  cp "$dir/argos-robot.service" "$unit_dir/argos-robot.service"
  systemctl daemon-reload
  systemctl enable argos-robot.service >/dev/null 2>&1 || true
  systemctl restart argos-robot.service
  echo "argos-robot restarted; follow it with: journalctl -u argos-robot -f (log: $dir/robot.log)"
else
  echo "no systemd on this robot: start it by hand with $(grep '^ExecStart=' "$dir/argos-robot.service" | cut -d= -f2-)"
fi
