"""``python -m kiosk.stations PARTIE``: the station server, as the kiosk starts it.

It prints ``PRET <join address>`` once listening (the kiosk waits for that
line), and stops on SIGTERM, Ctrl-C, or when its standard input closes
(``--avec-kiosque``: the kiosk that started it is gone, even killed).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import threading
from pathlib import Path


def _parser() -> argparse.ArgumentParser:
    from engine.cliparse import FrenchParser

    p = FrenchParser(prog="python -m kiosk.stations",
                      description="Serveur des postes d'arbitrage (téléphones, portables).")
    p.add_argument("partie", help="fichier de la partie (avec une base : son nom dans la base, "
                   "l'adresse de la base dans la variable KIOSK_BASE_POSTES)")
    p.add_argument("--lexique", metavar="LISTE", help="liste de mots de la partie")
    p.add_argument("--hote", default="0.0.0.0", metavar="ADRESSE",
                   help="adresse d'écoute (défaut : toutes)")
    p.add_argument("--port", type=int, default=None, metavar="N",
                   help="port (défaut : celui de la partie, "
                   "sinon 8765 ou le suivant libre)")
    p.add_argument("--lecteurs", type=int, default=None, metavar="N",
                   help="processus de lecture des photos (défaut : un par cœur moins un)")
    p.add_argument("--avec-kiosque", action="store_true",
                   help="s'arrêter quand l'entrée standard se ferme (le kiosque a quitté)")
    return p


async def _serve(args) -> int:
    from ..storage import Locator
    from .launch import BASE_VARIABLE
    from .server import StationServer

    url = os.environ.get(BASE_VARIABLE)
    where = Locator(url=url, name=args.partie) if url else Locator(path=Path(args.partie))
    server = StationServer(where, args.lexique, args.hote, args.port, args.lecteurs)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, server.stopping.set)
    if args.avec_kiosque:
        def watch() -> None:
            while sys.stdin.buffer.read(1):
                pass
            loop.call_soon_threadsafe(server.stopping.set)

        threading.Thread(target=watch, daemon=True, name="kiosque").start()
    try:
        url = await server.start(port_given=args.port is not None)
    except OSError as exc:
        print(f"ERREUR {exc}", flush=True)
        await server.stop()
        return 2
    print(f"PRET {url}", flush=True)
    try:
        await server.stopping.wait()
    finally:
        await server.stop()
    return 0


def main(argv: list[str] | None = None) -> int:
    from ..cli import CliError

    args = _parser().parse_args(argv)
    try:
        os.nice(2)  # the room's frames come before the stations' answers
    except OSError:
        pass
    try:
        return asyncio.run(_serve(args))
    except CliError as exc:
        print(f"ERREUR {exc}", flush=True)
        return 2


if __name__ == "__main__":
    sys.exit(main())
