"""Runs one command's hostile cases in this process, through its real ``main``; JSON out.

Started by tests/test_hostile_files.py as a child process with its address space
capped (RLIMIT_AS), so that no case may use more than that. Reads
``{"command": "engine", "cases": [[id, argv], ...]}`` on stdin and prints one JSON
object: id -> {code, out, err, seconds, escaped}. ``escaped`` is the text of any
exception that got out of ``main`` (a traceback a user would have seen).
"""

from __future__ import annotations

import contextlib
import io
import json
import signal
import sys
import time
import traceback

LIMIT_S = 10


class TooLong(Exception):
    pass


def _alarm(signum, frame):
    raise TooLong(f"plus de {LIMIT_S} s")


def entry(command: str):
    if command == "kiosk":
        from kiosk.cli import main
    elif command == "engine":
        from engine.__main__ import main
    elif command == "display":
        from display.__main__ import main
    elif command == "vision":
        from vision.cli import main
    elif command == "speech":
        from speech.cli import main
    else:
        raise SystemExit(f"commande inconnue : {command}")
    return main


def run_case(main, argv: list[str]) -> dict:
    out, err = io.StringIO(), io.StringIO()
    escaped = None
    code = None
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(LIMIT_S)
    start = time.monotonic()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except SystemExit as exc:  # argparse's own exits
        code = exc.code if isinstance(exc.code, int) else 2
    except BaseException as exc:  # noqa: BLE001 - what a user would have seen as a traceback
        escaped = "".join(traceback.format_exception(exc))[-2000:]
    finally:
        signal.alarm(0)
    return {"code": code, "out": out.getvalue()[-3000:], "err": err.getvalue()[-3000:],
            "seconds": round(time.monotonic() - start, 3), "escaped": escaped}


def main() -> int:
    request = json.load(sys.stdin)
    command_main = entry(request["command"])
    results = {case_id: run_case(command_main, argv) for case_id, argv in request["cases"]}
    sys.__stdout__.write(json.dumps(results) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
