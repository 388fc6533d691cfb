#!/usr/bin/env bash
# Checks the dependency rule (docs/architecture.md):
#   ci imports nothing of the project;
#   controllers and behaviortk depend only on ci (and the standard library);
#   the robot binary (cmd/robot, when present) links no simulator, emulator or cp.
set -euo pipefail
cd "$(dirname "$0")/.."
mod=$(go list -m)
fail=0

bad=$(go list -deps ./ci/... | grep "^$mod/" | grep -v "^$mod/ci" || true)
if [ -n "$bad" ]; then echo "ci must import nothing of the project, but depends on:"; echo "$bad"; fail=1; fi

for dir in controllers behaviortk; do
  [ -d "$dir" ] || continue
  bad=$(go list -deps "./$dir/..." | grep "^$mod/" | grep -v -E "^$mod/(ci|behaviortk|controllers)(/|$)" || true)
  ext=$(go list -deps "./$dir/..." | grep -E '^[a-z0-9-]+\.[a-z]+/' | grep -v "^$mod/" || true)
  if [ -n "$bad$ext" ]; then echo "$dir may import only ci, behaviortk and the standard library, but depends on:"; echo "$bad$ext"; fail=1; fi
done

if [ -d cmd/robot ]; then
  bad=$(go list -deps ./cmd/robot | grep -E "^$mod/(simulator|emulator)|jakecoffman/cp" || true)
  if [ -n "$bad" ]; then echo "the robot binary must not link the simulator, the emulator or cp:"; echo "$bad"; fail=1; fi
fi

[ $fail -eq 0 ] && echo "dependency rule holds"
exit $fail
