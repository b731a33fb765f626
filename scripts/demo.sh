#!/usr/bin/env bash
# make demo: the kiosk's self-playing game (kiosk demo), else the engine's terminal self-play.
#  - a screen ($DISPLAY): the game in a window, in real time, 10 s a coup, first 6 coups;
#  - no screen but Xvfb: the whole game in a virtual screen, time simulated;
#  - neither: the whole game without a window (--sans-ecran).
# Screens go to out/demo/*.png, announcements to out/demo/*.wav, results to out/demo/resultats.csv.
# Extra arguments go to kiosk demo (e.g. scripts/demo.sh --seed 7).
# Afterwards the kiosk itself: .venv/bin/kiosk … or make kiosk ARGS="…" (see README).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
if ! $PY -c "import kiosk.cli" 2>/dev/null; then
  exec $PY -m engine play --seed 1
fi
echo "démonstration : le kiosque se prépare (liste de mots, voix)…"
if [ -n "${DISPLAY:-}" ] && [ "${SDL_VIDEODRIVER:-}" != "dummy" ]; then
  exec $PY -m kiosk demo --rapide --fenetre --coups 6 "$@"
elif command -v xvfb-run >/dev/null 2>&1; then
  echo "pas d'écran : démonstration dans un écran virtuel (Xvfb), temps simulé ; une ligne par coup :"
  unset SDL_VIDEODRIVER
  exec xvfb-run -a -s "-screen 0 1920x1080x24" $PY -m kiosk demo --rapide --accelere "$@"
else
  echo "pas d'écran ni de Xvfb : démonstration sans fenêtre ; une ligne par coup :"
  exec $PY -m kiosk demo --rapide --sans-ecran "$@"
fi
