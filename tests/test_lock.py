"""The lock: requirements/*.txt pin every package exactly, with hashes, made from the
ranges pyproject.toml holds now, and the environment the tests run in is that lock."""

import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import lock  # noqa: E402

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^\s;\\]+)")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(path: Path) -> dict[str, str]:
    """name -> version, checking each pin carries at least one sha256 hash."""
    found = {}
    text = path.read_text(encoding="utf-8")
    for block in re.split(r"\n(?=\S)", text):
        match = PIN.match(block)
        if match:
            assert "--hash=sha256:" in block, f"{path.name} : {match.group(1)} sans empreinte"
            found[canonical(match.group(1))] = match.group(2)
    return found


def requirement_names(requirements: list[str]) -> set[str]:
    return {canonical(re.match(r"[A-Za-z0-9._-]+", r).group(0)) for r in requirements}


def test_locks_match_pyproject():
    assert lock.stale_locks() == [], "pyproject.toml a changé sans make lock"


@pytest.mark.parametrize("name", list(lock.lock_sets(PYPROJECT)))
def test_every_direct_dependency_is_pinned_with_hashes(name):
    pinned = pins(ROOT / "requirements" / f"{name}.txt")
    project = PYPROJECT["project"]
    wanted = requirement_names(project["dependencies"])
    wanted |= requirement_names(PYPROJECT["build-system"]["requires"])
    for extra in lock.lock_sets(PYPROJECT)[name]:
        wanted |= requirement_names(project["optional-dependencies"][extra])
    assert wanted <= set(pinned), wanted - set(pinned)


def test_the_test_environment_is_the_dev_lock():
    """bootstrap installed exactly the pinned versions (pip --require-hashes)."""
    for name, version in pins(ROOT / "requirements" / "dev.txt").items():
        assert importlib.metadata.version(name) == version, name


def test_a_changed_range_is_seen(tmp_path):
    (tmp_path / "requirements").mkdir()
    for path in (ROOT / "requirements").glob("*.txt"):
        (tmp_path / "requirements" / path.name).write_text(path.read_text(encoding="utf-8"),
                                                           encoding="utf-8")
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    assert lock.stale_locks(tmp_path) == []
    (tmp_path / "pyproject.toml").write_text(
        text.replace('dependencies = [\n', 'dependencies = [\n  "qrcode>=7",\n', 1),
        encoding="utf-8")
    assert set(lock.stale_locks(tmp_path)) == set(lock.lock_sets(PYPROJECT))


def test_the_standard_lock_file_holds_the_dev_pins():
    """pylock.toml (PEP 751), made by make lock from requirements/dev.txt: the same packages at
    the same versions, each file with its sha256."""
    data = tomllib.loads((ROOT / "pylock.toml").read_text(encoding="utf-8"))
    assert data["lock-version"] == "1.0"
    packages = {canonical(p["name"]): p for p in data["packages"]}
    assert {k: p["version"] for k, p in packages.items()} == pins(ROOT / "requirements" / "dev.txt")
    for name, p in packages.items():
        files = [p["sdist"]] if "sdist" in p else []
        files += p.get("wheels", [])
        assert files and all(f["hashes"].get("sha256") for f in files), name
