#!/usr/bin/env bash
# Installs what the test suite needs: every scripts/ci-setup.d/*.sh adds its
# part (Debian packages, daemons). Idempotent; safe to run on a developer
# machine (each part installs only what is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
command -v go >/dev/null || { echo "ci-setup: Go is not installed (expected in /usr/local/go)"; exit 1; }

# apt_install PKG... installs the Debian packages that are missing.
apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

command -v make >/dev/null || apt_install make
for part in scripts/ci-setup.d/*.sh; do
  [ -e "$part" ] || continue
  echo "ci-setup: $part"
  # shellcheck source=/dev/null
  source "$part"
done
go mod download
