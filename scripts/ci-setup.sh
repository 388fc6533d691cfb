#!/usr/bin/env bash
# Installs the system packages the test suite needs. Idempotent; safe to
# run on a developer machine (it only installs what is missing).
set -euo pipefail
export PATH="$PATH:/usr/local/go/bin"
command -v go >/dev/null || { echo "ci-setup: Go is not installed (expected in /usr/local/go)"; exit 1; }
command -v make >/dev/null || need_make=1
pkgs=()
[ -n "${need_make:-}" ] && pkgs+=(make)
if [ ${#pkgs[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${pkgs[@]}"
fi
go mod download
