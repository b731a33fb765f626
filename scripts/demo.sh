#!/usr/bin/env bash
# make demo: the kiosk's self-playing game when the kiosk exists, else the engine's terminal self-play.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
if $PY -c "import kiosk.cli" 2>/dev/null; then
  exec $PY -m kiosk demo "$@"
fi
exec $PY -m engine play --seed 1
