# Part of scripts/ci-setup.sh (sourced; apt_install is defined there).
# qemu-user-static runs the cross-compiled ARM robot binaries in the tests
# of cmd/robot (qemu-arm-static -cpu arm1136 for the ARMv6 foot-bot and
# Pi Zero W builds, qemu-aarch64-static for the Pi Zero 2 W build).
command -v qemu-arm-static >/dev/null || apt_install qemu-user-static
