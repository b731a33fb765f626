#!/usr/bin/env bash
# Idempotent set-up for a fresh Debian machine: apt packages, then .venv with
# the project installed editable. Each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  espeak-ng                      # French voice for pyttsx3
  tesseract-ocr tesseract-ocr-fra
  hunspell-fr-comprehensive      # source of the default word list
  fonts-dejavu-core              # DejaVu Sans Bold for the room display
  xvfb                           # a virtual screen for the demo on headless machines
  sox                            # audio checks in tests
  fonts-comic-neue fonts-humor-sans fonts-breip fonts-sil-andika  # hand-like lettering for the bulletin generator (vision)
)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installation des paquets Debian manquants : ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

PY=${PYTHON:-python3}
stamp=.venv/.installed
if [ ! -x .venv/bin/python ]; then
  echo "bootstrap: création de l'environnement virtuel .venv"
  "$PY" -m venv .venv
fi
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "bootstrap: installation du projet dans .venv"
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[dev]'
  touch "$stamp"
fi
