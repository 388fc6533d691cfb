# Headless Chromium for the web viewer's browser test (simulator/render/web),
# and ffmpeg for `argos --video` (cmd/argos). Sourced by scripts/ci-setup.sh,
# which defines apt_install.
apt_install chromium chromium-driver ffmpeg fonts-liberation
