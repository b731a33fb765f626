"""Keep pyttsx3's own prints off the user's terminal.

pyttsx3 2.99's espeak driver prints « Audio saved to … » on standard output from
espeak's callback, which may run after ``runAndWait()`` has returned (so a
``contextlib.redirect_stdout`` around the call misses it now and then). Two
layers: the driver module's ``print`` is replaced once and for all, whatever the
thread or the moment; and :func:`stdout_silenced` points file descriptor 1 itself
at /dev/null, for anything written below Python (the C library) while a command
that prints nothing on standard output renders.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

DRIVER_MODULES = ("pyttsx3.drivers.espeak", "pyttsx3.drivers._espeak")


def _discard(*args, **kwargs) -> None:
    """A ``print`` that writes nothing."""


def mute_driver_prints() -> None:
    """Replace ``print`` in pyttsx3's espeak driver modules already imported."""
    for name in DRIVER_MODULES:
        module = sys.modules.get(name)
        if module is not None:
            module.print = _discard


@contextlib.contextmanager
def stdout_silenced() -> Iterator[None]:
    """fd 1 and ``sys.stdout`` go to /dev/null inside the block, then come back."""
    try:
        sys.stdout.flush()
        saved = os.dup(1)
    except (OSError, ValueError, AttributeError):  # no stdout at all: nothing to protect
        yield
        return
    null_fd = os.open(os.devnull, os.O_WRONLY)
    previous = sys.stdout
    null = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
    try:
        os.dup2(null_fd, 1)
        sys.stdout = null
        yield
    finally:
        sys.stdout = previous
        null.close()
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null_fd)
