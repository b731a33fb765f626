"""make lock: resolve pyproject.toml's ranges into exact, hashed pins under requirements/.

pyproject.toml keeps the compatible ranges (what the code needs); requirements/*.txt
hold what is installed (what was tested). One lock per set:

- ``requirements/runtime.txt``: [project].dependencies (a kiosk machine);
- ``requirements/<extra>.txt``: the runtime set plus [project.optional-dependencies]
  ``<extra>`` (``dev.txt`` is what ``make test`` installs; a new extra gets its own lock
  by itself).

Every set also pins the build backend ([build-system].requires): bootstrap installs the
project with ``--no-build-isolation``, so nothing unpinned is downloaded for the build.

Pins already in a lock are kept when they still fit (adding a package moves nothing
else); ``make lock-upgrade`` (``--upgrade``) takes the newest releases everywhere.
Each lock starts with the digest of the pyproject.toml inputs it was made from:
bootstrap and the tests compare it, so a range changed without ``make lock`` is seen.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK_DIR = ROOT / "requirements"
PYTHON_VERSION = "3.11"  # the Debian 12 Python every machine of the project runs
PLATFORM = "x86_64-manylinux_2_28"  # Debian 12 (glibc 2.36) on x86-64
DIGEST_PREFIX = "# inputs-sha256: "


def lock_sets(pyproject: dict) -> dict[str, list[str]]:
    """Lock name -> extras it installs besides the runtime set."""
    extras = sorted(pyproject["project"].get("optional-dependencies", {}))
    return {"runtime": [], **{extra: [extra] for extra in extras}}


def inputs_digest(pyproject: dict, extras: list[str]) -> str:
    """What a lock depends on in pyproject.toml, as a digest (order-insensitive)."""
    project = pyproject["project"]
    optional = project.get("optional-dependencies", {})
    inputs = {
        "python": PYTHON_VERSION,
        "platform": PLATFORM,
        "build": sorted(pyproject["build-system"]["requires"]),
        "runtime": sorted(project.get("dependencies", [])),
        "extras": {extra: sorted(optional.get(extra, [])) for extra in extras},
    }
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()


def recorded_digest(lock: Path) -> str | None:
    """The digest written at the top of ``lock``, or None."""
    try:
        for line in lock.read_text(encoding="utf-8").splitlines()[:5]:
            if line.startswith(DIGEST_PREFIX):
                return line[len(DIGEST_PREFIX):].strip()
    except OSError:
        return None
    return None


def stale_locks(root: Path = ROOT) -> list[str]:
    """Names of the locks missing or made from other pyproject.toml inputs."""
    pyproject = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    return [name for name, extras in lock_sets(pyproject).items()
            if recorded_digest(root / "requirements" / f"{name}.txt")
            != inputs_digest(pyproject, extras)]


def compile_lock(uv: str, pyproject: dict, name: str, extras: list[str], upgrade: bool) -> None:
    out = LOCK_DIR / f"{name}.txt"
    build = "\n".join(pyproject["build-system"]["requires"]) + "\n"
    command = [uv, "pip", "compile", "-", "pyproject.toml", "--generate-hashes",
               "--python-version", PYTHON_VERSION, "--python-platform", PLATFORM,
               "--custom-compile-command", "make lock", "--no-emit-index-url",
               "--quiet", "-o", str(out.relative_to(ROOT))]
    for extra in extras:
        command += ["--extra", extra]
    if upgrade:
        command.append("--upgrade")
    subprocess.run(command, input=build, text=True, cwd=ROOT, check=True)
    body = out.read_text(encoding="utf-8")
    body = "".join(line for line in body.splitlines(keepends=True)
                   if not line.startswith(DIGEST_PREFIX))
    header = (f"{DIGEST_PREFIX}{inputs_digest(pyproject, extras)}\n"
              f"# Python {PYTHON_VERSION}, {PLATFORM}; installed by scripts/bootstrap.sh with "
              "pip --require-hashes. Do not edit: change pyproject.toml, then make lock.\n")
    out.write_text(header + body, encoding="utf-8")
    pins = sum(1 for line in body.splitlines() if "==" in line and not line.startswith("#"))
    print(f"lock : {out.relative_to(ROOT)} ({pins} paquets)")


#: the standard lock file (PEP 751) at the top of the repository: the full test environment's
#: pins (requirements/dev.txt) in the format other tools read; written from those very pins
PYLOCK = ROOT / "pylock.toml"


def export_pylock(uv: str) -> None:
    """``pylock.toml`` from requirements/dev.txt, pin for pin (no new resolution)."""
    subprocess.run([uv, "pip", "compile", "requirements/dev.txt", "--no-deps", "--quiet",
                    "--format", "pylock.toml", "--python-version", PYTHON_VERSION,
                    "--python-platform", PLATFORM, "--custom-compile-command", "make lock",
                    "-o", PYLOCK.name], cwd=ROOT, check=True)
    print(f"lock : {PYLOCK.name} (PEP 751, les mêmes versions que requirements/dev.txt)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/lock.py",
                                     description="Fige les dépendances de pyproject.toml "
                                                 "(versions exactes et empreintes) dans requirements/.")
    parser.add_argument("--upgrade", action="store_true",
                        help="prendre les dernières versions permises partout (sinon les "
                             "versions déjà figées sont gardées quand elles conviennent)")
    parser.add_argument("--check", action="store_true",
                        help="dire seulement si les fichiers figés correspondent à pyproject.toml")
    parser.add_argument("--uv", default=str(Path(sys.executable).with_name("uv")),
                        help="l'outil uv à utiliser (par défaut celui de .venv)")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_locks()
        for name in stale:
            print(f"requirements/{name}.txt ne correspond plus à pyproject.toml : "
                  "lancez make lock", file=sys.stderr)
        return 1 if stale else 0
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    LOCK_DIR.mkdir(exist_ok=True)
    for name, extras in lock_sets(pyproject).items():
        try:
            compile_lock(args.uv, pyproject, name, extras, args.upgrade)
        except FileNotFoundError:
            print(f"erreur : uv introuvable ({args.uv}) : lancez d'abord make bootstrap",
                  file=sys.stderr)
            return 2
        except subprocess.CalledProcessError:
            print(f"erreur : résolution impossible pour requirements/{name}.txt (voir ci-dessus)",
                  file=sys.stderr)
            return 1
    export_pylock(args.uv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
