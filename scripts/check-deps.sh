#!/usr/bin/env bash
# Checks the dependency rule (docs/architecture.md):
#   ci imports nothing of the project, nor any module outside the standard library;
#   controllers and behaviortk depend only on ci (and the standard library);
#   the robot binary (cmd/robot, robotcli) links no simulator, emulator, loop
#   functions or cp.
set -euo pipefail
cd "$(dirname "$0")/.."
mod=$(go list -m)
fail=0

bad=$(go list -deps ./ci/... | grep "^$mod/" | grep -v "^$mod/ci" || true)
bad+=$(go list -deps ./ci/... | grep -E '^[a-z0-9-]+\.[a-z]+/' | grep -v "^$mod/" || true)
if [ -n "$bad" ]; then echo "ci must import nothing of the project nor outside the standard library, but depends on:"; echo "$bad"; fail=1; fi

for dir in controllers behaviortk; do
  [ -d "$dir" ] || continue
  bad=$(go list -deps "./$dir/..." | grep "^$mod/" | grep -v -E "^$mod/(ci|behaviortk|controllers)(/|$)" || true)
  ext=$(go list -deps "./$dir/..." | grep -E '^[a-z0-9-]+\.[a-z]+/' | grep -v "^$mod/" || true)
  if [ -n "$bad$ext" ]; then echo "$dir may import only ci, behaviortk and the standard library, but depends on:"; echo "$bad$ext"; fail=1; fi
done

if [ -d cmd/robot ]; then
  bad=$(go list -deps ./cmd/robot ./robotcli | grep -E "^$mod/(simulator|emulator|loop_functions)|jakecoffman/cp" || true)
  if [ -n "$bad" ]; then echo "the robot binary must not link the simulator, the emulator or cp:"; echo "$bad"; fail=1; fi
fi

[ $fail -eq 0 ] && echo "dependency rule holds"
exit $fail
