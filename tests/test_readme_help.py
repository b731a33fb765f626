"""The READMEs and the ``--help`` of every command agree, and every help is in French."""

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
READMES = [ROOT / "README.md", *sorted(ROOT.glob("*/README.md"))]
ENGLISH = ("usage:", "positional arguments", "optional arguments", "show this help",
           "options:", "subcommands")


def parsers() -> dict[str, object]:
    """Program name -> its argparse parser, as the commands build them."""
    from display.__main__ import build_parser as display
    from engine.__main__ import build_parser as engine
    from engine.correction_cli import _parser as corriger
    from kiosk.cli import build_parser as kiosk
    from speech.cli import _parser as speech
    from vision.cli import build_parser as vision

    return {"kiosk": kiosk(), "python -m engine": engine(), "python -m display": display(),
            "python -m speech": speech(), "python -m vision": vision(),
            "python -m engine corriger": corriger()}


def subcommands(parser) -> dict[str, object]:
    for action in parser._actions:
        if action.__class__.__name__ == "_SubParsersAction":
            return dict(action.choices)
    return {}


def options(parser) -> set[str]:
    return {s for a in parser._actions for s in a.option_strings}


def every_parser():
    for prog, parser in parsers().items():
        yield prog, parser
        for name, sub in subcommands(parser).items():
            if not (prog == "python -m engine" and name == "corriger"):  # its own parser
                yield f"{prog} {name}", sub


def command_lines():
    """(readme, program, subcommand, options) of each command line in the READMEs' code."""
    for readme in READMES:
        in_code = False
        lines: list[str] = []  # a command and its continuation lines, joined
        for line in readme.read_text(encoding="utf-8").splitlines():
            if line.startswith("```"):
                in_code = not in_code
                continue
            text = line.split("#", 1)[0].rstrip()
            if not in_code or not text.strip():
                continue
            if text[0].isspace() and text.strip()[0] in "[-" and lines:
                lines[-1] += " " + text.strip()
            else:
                lines.append(text.strip())
        yield from _parse(readme, lines)


def _parse(readme: Path, lines: list[str]):
    """(readme, program, subcommand, options) of the joined command lines."""
    for text in lines:
        match = re.match(r"(kiosk|python -m (engine|display|speech|vision))\s+(\S+)(.*)",
                         text)
        if not match:
            continue
        prog, sub, rest = match.group(1), match.group(3), match.group(4)
        if prog == "python -m engine" and sub == "corriger":
            prog, sub = "python -m engine corriger", None
            rest = text.split("corriger", 1)[1]
        try:
            words = shlex.split(rest.replace("|", " "))
        except ValueError:
            words = rest.split()
        opts = {w.strip("[]").split("=")[0] for w in words if w.strip("[").startswith("--")}
        yield readme.relative_to(ROOT), prog, sub, opts


def test_every_option_a_readme_names_is_in_the_help():
    known = parsers()
    problems, seen = [], 0
    for readme, prog, sub, opts in command_lines():
        parser = known[prog]
        if sub is not None:
            subs = subcommands(parser)
            if sub not in subs:
                if sub.startswith("-"):
                    continue  # « kiosk --help »
                problems.append(f"{readme} : {prog} {sub} : commande inconnue")
                continue
            parser = subs[sub]
        seen += 1
        missing = opts - options(parser)
        if missing:
            problems.append(f"{readme} : {prog} {sub or ''} : {sorted(missing)} absent de --help")
    assert not problems, "\n".join(problems)
    assert seen >= 15


def test_kiosk_readme_names_every_option_of_every_command():
    text = (ROOT / "kiosk" / "README.md").read_text(encoding="utf-8")
    block = text.split("## Commandes", 1)[1].split("## ", 1)[0]
    missing = []
    for name, sub in subcommands(parsers()["kiosk"]).items():
        assert f"kiosk {name}" in block, name
        for action in sub._actions:
            if action.option_strings and "-h" not in action.option_strings:
                if not any(s in block for s in action.option_strings):
                    missing.append(f"kiosk {name} {action.option_strings[0]}")
    assert not missing, missing


@pytest.mark.parametrize("prog,parser", list(every_parser()), ids=lambda v: v if
                         isinstance(v, str) else "")
def test_every_help_is_french(prog, parser):
    text = parser.format_help()
    assert text.startswith("utilisation : "), text[:80]
    assert not [w for w in ENGLISH if w in text], text
    for action in parser._actions:
        if action.help is None and action.option_strings and action.dest != "help":
            pytest.fail(f"{prog} {action.option_strings[0]} sans aide")
        if action.help is None and not action.option_strings and action.dest not in (
                "command",):
            pytest.fail(f"{prog} {action.dest} sans aide")


def test_module_help_through_the_real_entry_points():
    import subprocess
    import sys

    for module in ("engine", "display", "speech", "vision", "kiosk"):
        out = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True,
                             text=True, cwd=ROOT, timeout=60)
        assert out.returncode == 0 and out.stdout.startswith("utilisation : "), out.stdout[:200]
        assert not [w for w in ENGLISH if w in out.stdout]
