#!/usr/bin/env bash
# Idempotent set-up for a fresh Debian machine: apt packages, then .venv installed from the
# lock only (requirements/<set>.txt, exact versions checked by their hashes), then the
# project itself editable without dependencies. Each step is skipped when already done.
#
#   bash scripts/bootstrap.sh            the dev set (what make test needs)
#   LOCK=runtime bash scripts/bootstrap.sh   the runtime set only (a kiosk machine)
#
# apt's and pip's output go to out/bootstrap.log, shown only when a step fails.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  espeak-ng                      # French voice for pyttsx3
  tesseract-ocr tesseract-ocr-fra
  hunspell-fr-comprehensive      # source of the default word list
  fonts-dejavu-core              # DejaVu Sans Bold for the room display
  xvfb                           # a virtual screen for the demo on headless machines
  sox                            # audio checks in tests
  postgresql libpq5              # --base postgresql://… (psycopg's libpq); the tests start a real server
  chromium chromium-driver poppler-utils  # pages checked in a real browser (results desk; Selenium for the stations), PDF through pdftoppm
  fonts-comic-neue fonts-humor-sans fonts-breip fonts-sil-andika  # hand-like lettering for the bulletin generator (vision)
  gcc libc6-dev python3-dev      # compiles the move generator (engine/_core.c) at install
  fonts-sjfonts fonts-dkg-handwriting fonts-yusei-magic  # held-out writer families (vision bench, tests)
)

LOCK=${LOCK:-dev}
REQS=requirements/$LOCK.txt
LOG=out/bootstrap.log
mkdir -p out

# step DESCRIPTION COMMAND...: run quietly into the log; on failure show the log's end.
step() {
  local what=$1
  shift
  echo "== $what: $*" >>"$LOG"
  if ! "$@" >>"$LOG" 2>&1; then
    echo "bootstrap : échec ($what). Fin du journal $LOG :" >&2
    tail -n 40 "$LOG" >&2
    exit 1
  fi
}

: >"$LOG"
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap : installation des paquets Debian manquants : ${missing[*]}"
  SUDO=()
  [ "$(id -u)" -ne 0 ] && SUDO=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  step "apt-get update" "${SUDO[@]}" apt-get update -q
  step "apt-get install" "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ ! -f "$REQS" ]; then
  echo "bootstrap : $REQS absent (ensembles figés : $(ls requirements/*.txt 2>/dev/null | xargs -n1 basename | sed 's/\.txt$//' | xargs))" >&2
  exit 1
fi

PY=${PYTHON:-python3}
stamp=.venv/.installed
want="$LOCK $(sha256sum "$REQS" | cut -d' ' -f1)"
# A different lock (new pins, another set): a new .venv, so nothing unlocked stays behind.
if [ -d .venv ] && [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  rm -rf .venv
fi
if [ ! -x .venv/bin/python ]; then
  echo "bootstrap : création de l'environnement virtuel .venv ($REQS)"
  step "venv" "$PY" -m venv .venv
  step "pip install (lock)" .venv/bin/python -m pip install --no-input --require-hashes -r "$REQS"
  echo "$want" >"$stamp"
  touch -d '1970-01-02' .venv/.project  # installed just below
fi
# The project itself (entry points, package list, the compiled move generator): again whenever
# pyproject.toml, setup.py or engine/_core.c changes.
if [ pyproject.toml -nt .venv/.project ] || [ setup.py -nt .venv/.project ] || [ engine/_core.c -nt .venv/.project ]; then
  step "pip install (projet)" env PYTHONWARNINGS=ignore .venv/bin/python -m pip install --no-input \
    --no-deps --no-build-isolation -e .
  touch .venv/.project
fi
if ! .venv/bin/python scripts/lock.py --check 2>>"$LOG"; then
  echo "bootstrap : attention, requirements/ ne correspond plus à pyproject.toml : lancez make lock" >&2
fi
