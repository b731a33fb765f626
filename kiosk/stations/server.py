"""The station server: HTTP for the phones, one journal thread, reading workers.

Why aiohttp: one well-kept package is both the server and the client (the
tests' and the bench's simulated stations), it streams a multipart upload
chunk by chunk (a 200 MB upload is cut at 20 MB, never held whole) and it runs
an asyncio loop that a plain process can own, without the signal handling
uvicorn wants for itself. The server runs in a process of its own
(:mod:`.launch`): the room's pygame loop keeps its frames.

Inside: the asyncio loop answers; every journal operation runs in one thread
(:class:`~.hub.Hub`), so the journal is written in one order, by one writer;
photos are read in worker processes (:mod:`.reader`). A request is answered only
once what it changed is committed.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from aiohttp import web

from ..storage import Locator
from . import network, reader
from .hub import Hub, Refused

STATIC = Path(__file__).with_name("static")
STATIC_FILES = {"app.js", "style.css", "icone.svg"}
MAX_PHOTO = 20 * 1024 * 1024
MAX_JSON = 64 * 1024
#: a multipart upload's own overhead beyond the photo (boundaries, the small fields)
MULTIPART_SLACK = 64 * 1024
LONG_POLL_SECONDS = 20.0
SYNC_SECONDS = 0.3
WAKE_SECONDS = 0.05
#: requests per second per station (and its burst): a phone polls and uploads far less;
#: per address, more (a laptop may hold several stations, a hall's NAT several phones)
RATE, BURST = 20.0, 60.0
IP_RATE, IP_BURST = 100.0, 300.0
#: wrong codes per address before it must wait, and how long
JOIN_FAILURES, JOIN_LOCK_SECONDS = 8, 300.0
_BAD_NAME = re.compile(r"[/\\\x00]|\.\.")
#: the results page: no script at all, its own inline style, reloaded every few seconds
RESULTS_CSP = ("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; "
               "base-uri 'none'; form-action 'none'")
RESULTS_REFRESH = 10
CSP = ("default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; "
       "style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
       "base-uri 'none'; form-action 'self'")


class Bucket:
    """Token bucket per client address."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.state: dict[str, tuple[float, float]] = {}

    def take(self, key: str, now: float) -> bool:
        tokens, last = self.state.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1.0:
            self.state[key] = (tokens, now)
            return False
        self.state[key] = (tokens - 1.0, now)
        if len(self.state) > 10_000:  # forget the oldest addresses
            for old in sorted(self.state, key=lambda k: self.state[k][1])[:5_000]:
                del self.state[old]
        return True


class StationServer:
    def __init__(self, game: Path | Locator, lexicon: str | None, bind: str = "0.0.0.0",
                 port: int | None = None, workers: int | None = None) -> None:
        self.game = game if isinstance(game, Locator) else Locator(path=Path(game))
        self.lexicon = lexicon
        self.bind = bind
        self.port = port
        self.workers = workers or reader.default_workers()
        self.hub: Hub | None = None
        self.url = ""
        self._journal = ThreadPoolExecutor(1, thread_name_prefix="journal")
        #: the results desk's own thread and connections: a ranking of all rooms never holds
        #: up the stations' writes
        self._desk_thread = ThreadPoolExecutor(1, thread_name_prefix="classement")
        self._desk = None
        self._page: tuple[tuple, str] | None = None
        self._changed = asyncio.Event()
        self._wake_due = False
        self._seen = -1
        self._queue: asyncio.Queue = asyncio.Queue()
        self._tasks: list[asyncio.Task] = []
        self._pool = None
        self._runner: web.AppRunner | None = None
        self._bucket = Bucket(RATE, BURST)
        self._ip_bucket = Bucket(IP_RATE, IP_BURST)
        self._join_failures: dict[str, list[float]] = {}
        self.stopping = asyncio.Event()

    # -- the journal thread -------------------------------------------------------------------
    async def call(self, fn, *args):
        """Run ``fn`` in the journal thread; wake the waiting pages if the game changed."""
        result = await asyncio.get_running_loop().run_in_executor(self._journal, fn, *args)
        self._wake()
        return result

    def _wake(self) -> None:
        """Wake the waiting pages once for changes that come together (every reading would
        otherwise send every station its whole state again, one change at a time)."""
        if self.hub is not None and self.hub.seq != self._seen and not self._wake_due:
            self._wake_due = True
            asyncio.get_running_loop().call_later(WAKE_SECONDS, self._wake_now)

    def _wake_now(self) -> None:
        self._wake_due = False
        self._seen = self.hub.seq
        self._changed.set()
        self._changed = asyncio.Event()

    def _open_hub(self) -> Hub:
        from ..cli import _open_session

        session = _open_session(self.game, self.lexicon, station="postes")
        return Hub(session, self.game.beside("-photos"))

    # -- life ---------------------------------------------------------------------------------
    async def start(self, port_given: bool = False) -> str:
        """Open the journal, listen, journal the address; returns the join address."""
        self.hub = await self.call(self._open_hub)
        wanted = self.port if self.port is not None else int(
            (self.hub.session.network or {}).get("port") or network.DEFAULT_PORT)
        app = self.app()
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False,
                                     shutdown_timeout=2.0)
        await self._runner.setup()
        ports = [wanted] if port_given else [wanted + i for i in range(network.PORT_TRIES)] + [0]
        error: OSError | None = None
        for port in ports:
            site = web.TCPSite(self._runner, self.bind, port, reuse_address=True)
            try:
                await site.start()
            except OSError as exc:
                error = exc
                continue
            self.port = site._server.sockets[0].getsockname()[1]  # the real one when 0
            break
        else:
            await self._runner.cleanup()
            raise OSError(f"le port {wanted} est déjà pris ({error.strerror if error else ''}) : "
                          "choisissez-en un autre (--port)")
        host = network.public_host(self.bind)
        info = await self.call(self.hub.open, host, self.port, self.bind)
        self.url = info["lien"]
        self._pool = reader.pool(self.game, self.lexicon, self.workers)
        for item in await self.call(self.hub.unread):
            self._queue.put_nowait(item)
        self._tasks = [asyncio.create_task(self._sync_loop())]
        self._tasks += [asyncio.create_task(self._read_loop()) for _ in range(self.workers)]
        return self.url

    async def stop(self) -> None:
        self._changed.set()  # the pages waiting for news get their answer now
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        if self.hub is not None:
            await asyncio.get_running_loop().run_in_executor(self._journal,
                                                             self.hub.session.journal.close)
        if self._desk is not None:
            await asyncio.get_running_loop().run_in_executor(self._desk_thread, self._desk.close)
        self._desk_thread.shutdown(wait=True)
        self._journal.shutdown(wait=True)

    async def _sync_loop(self) -> None:
        """The console writes too (revocations, confirmations): pick them up, wake the pages."""
        while True:
            await asyncio.sleep(SYNC_SECONDS)
            try:
                await self.call(self.hub.sync)
            except Exception:  # noqa: BLE001 - keep serving; the log says why
                traceback.print_exc(file=sys.stderr)

    async def _read_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            envoi, path, coup = await self._queue.get()
            try:
                data = await loop.run_in_executor(self._pool, reader.read_job, str(path), coup)
            except BrokenProcessPool:
                self._pool = reader.pool(self.game, self.lexicon, self.workers)
                data = reader.failed(str(path), coup, "le lecteur s'est arrêté sur cette photo")
            except Exception as exc:  # noqa: BLE001 - the arbiter types it instead
                traceback.print_exc(file=sys.stderr)
                data = reader.failed(str(path), coup, type(exc).__name__)
            try:
                await self.call(self.hub.record_readings, envoi, data)
            except Exception:  # noqa: BLE001 - read again at the next start (still unread)
                traceback.print_exc(file=sys.stderr)

    # -- HTTP ---------------------------------------------------------------------------------
    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_JSON, middlewares=[self._guard])
        app.router.add_get("/", self.index)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_post("/api/rejoindre", self.join)
        app.router.add_get("/api/etat", self.state)
        app.router.add_post("/api/bloc", self.block)
        app.router.add_post("/api/photo", self.photo)
        app.router.add_post("/api/saisie", self.typed)
        app.router.add_post("/api/lecture/{seq:\\d{1,12}}", self.act)
        app.router.add_get("/api/image/{seq:\\d{1,12}}", self.image)
        app.router.add_get("/classement", self.results)
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler) -> web.StreamResponse:
        """Rate limit, French errors, and the headers that keep the page to itself."""
        try:
            now = time.monotonic()
            token = request.headers.get("X-Jeton", "")[:128]
            if not self._ip_bucket.take(request.remote or "?", now) or \
                    (token and not self._bucket.take(token, now)):
                raise Refused(429, "trop de requêtes : patientez un instant")
            response = await handler(request)
        except Refused as exc:
            response = _error(exc.status, exc.message, **exc.extra)
        except web.HTTPException as exc:
            words = {404: "page introuvable", 405: "méthode non acceptée",
                     413: "requête trop grande"}
            response = _error(exc.status, words.get(exc.status, "requête refusée"))
        except (asyncio.CancelledError, ConnectionResetError):
            raise
        except Exception:  # noqa: BLE001 - never a traceback on a phone
            traceback.print_exc(file=sys.stderr)
            response = _error(500, "erreur du serveur des postes : rien de ce qui était "
                                   "enregistré n'est perdu ; réessayez")
        response.headers.setdefault("Cache-Control", "no-store")
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Referrer-Policy"] = "no-referrer"
        return response

    async def _station(self, request: web.Request) -> dict:
        return await self.call(self.hub.station_for, request.headers.get("X-Jeton"))

    async def index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html",
                                headers={"Content-Type": "text/html; charset=utf-8"})

    async def static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in STATIC_FILES:
            raise Refused(404, "page introuvable")
        return web.FileResponse(STATIC / name)

    async def join(self, request: web.Request) -> web.Response:
        ip = request.remote or "?"
        now = time.monotonic()
        recent = [t for t in self._join_failures.get(ip, []) if now - t < JOIN_LOCK_SECONDS]
        self._join_failures[ip] = recent
        if len(recent) >= JOIN_FAILURES:
            raise Refused(429, "trop de codes faux : attendez quelques minutes, puis "
                               "vérifiez le code avec le juge-arbitre")
        body = await _json(request)
        try:
            answer = await self.call(self.hub.join, body.get("nom"), body.get("jeton"),
                                     body.get("cle"), body.get("code"))
        except Refused as exc:
            if exc.status == 403 and not exc.extra.get("retire"):
                recent.append(now)
            raise
        return web.json_response(answer)

    async def state(self, request: web.Request) -> web.Response:
        station = await self._station(request)
        try:
            since = int(request.query.get("depuis", "-1"))
        except ValueError:
            since = -1
        if since >= self.hub.seq:
            waiting = self._changed
            try:
                await asyncio.wait_for(waiting.wait(), LONG_POLL_SECONDS)
            except TimeoutError:
                pass
            station = await self._station(request)  # revoked while waiting?
        return web.json_response(await self.call(self._state, station))

    def _state(self, station: dict) -> dict:
        data = self.hub.state(station)
        data["adresse"] = self.url.split("?")[0]
        data["file_lecture"] = self._queue.qsize()
        return data

    async def block(self, request: web.Request) -> web.Response:
        station = await self._station(request)
        body = await _json(request)
        return web.json_response(await self.call(self.hub.set_block, station, body))

    async def act(self, request: web.Request) -> web.Response:
        station = await self._station(request)
        body = await _json(request)
        seq = int(request.match_info["seq"])
        return web.json_response(await self.call(self.hub.act, station, seq, body))

    async def typed(self, request: web.Request) -> web.Response:
        station = await self._station(request)
        body = await _json(request)
        return web.json_response(await self.call(self.hub.typed, station, body))

    async def image(self, request: web.Request) -> web.StreamResponse:
        await self._station(request)
        path = await self.call(self.hub.image_of, int(request.match_info["seq"]))
        if path is None:
            raise Refused(404, "image introuvable")
        return web.FileResponse(path, headers={"Content-Type": "image/jpeg"
                                               if path.suffix == ".jpg" else "image/png"})

    async def results(self, request: web.Request) -> web.Response:
        """``/classement?cle=…``: the live ranking, read-only, behind its own key.

        A tournament room's server shows the results desk of the whole tournament (every
        room, :class:`kiosk.desk.Desk`; ``&salle=S`` one room); any other game its own
        ranking. Its key is not the stations' secret: a results screen in the hall, or the
        organisers' laptop, must not be able to join as an arbiter and write."""
        expected = str((self.hub.session.network or {}).get("cle_classement") or "")
        given = request.query.get("cle", "")[:128]
        if not expected or not given or not network.same_secret(given, expected):
            return _html_page(403, "Classement", "Adresse du classement incomplète ou "
                              "périmée : demandez-la au juge-arbitre (touche Q de sa console).")
        room = request.query.get("salle") or None
        loop = asyncio.get_running_loop()
        from ..journal import JournalError

        try:
            if self._tournament() is None:
                html = await self.call(self._game_results)
            else:
                html = await loop.run_in_executor(self._desk_thread, self._desk_results, room)
        except JournalError as exc:
            return _html_page(503, "Classement", f"Classement indisponible pour l'instant "
                              f"({exc}) : la page se recharge d'elle-même.", refresh=True)
        if html is None:
            return _html_page(404, "Classement", f"Salle « {room} » inconnue dans ce tournoi.")
        html = html.replace('<meta charset="utf-8">', '<meta charset="utf-8">'
                            f'<meta http-equiv="refresh" content="{RESULTS_REFRESH}">', 1)
        return web.Response(text=html, content_type="text/html", charset="utf-8",
                            headers={"Content-Security-Policy": RESULTS_CSP})

    def _tournament(self) -> str | None:
        return getattr(self.hub.session.journal, "tournament", None)

    def _game_results(self) -> str:
        """This game's ranking (the journal thread: the hub's session is up to date)."""
        from engine.export import results_html

        from ..exports import report_of

        self.hub.sync()
        return results_html(report_of(self.hub.session))

    def _desk_results(self, room: str | None) -> str | None:
        """The tournament's desk (its own thread): opened once, then kept up to date."""
        from ..desk import Desk

        journal = self.hub.session.journal
        if self._desk is None:
            self._desk = Desk(journal.base.url, journal.tournament, self.hub.session.lexicon)
        moved = self._desk.refresh()
        key = (room, tuple(sorted((r, s.applied) for r, s in self._desk.sessions.items())))
        if moved or self._page is None or self._page[0] != key:
            if room is None:
                html = self._desk.page()
            elif room in self._desk.sessions:
                from engine.export import results_html

                html = results_html(self._desk.room(room))
            else:
                return None
            self._page = (key, html)
        return self._page[1]

    async def photo(self, request: web.Request) -> web.Response:
        """One photo per request: ``envoi`` (upload id), ``coup``, then ``photo`` (the file)."""
        station = await self._station(request)
        length = request.content_length
        if length is not None and length > MAX_PHOTO + MULTIPART_SLACK:
            raise Refused(413, "photo trop grande (20 Mo au plus) : rien n'a été enregistré")
        if not request.content_type.startswith("multipart/"):
            raise Refused(400, "envoi de photo attendu (formulaire multipart)")
        fields, data = await _read_upload(request)
        if data is None:
            raise Refused(400, "photo manquante : rien n'a été enregistré")
        answer = await self.call(self.hub.accept_photo, station, fields.get("envoi"),
                                 fields.get("coup"), bytes(data))
        if answer["etat"] == "recue":
            self._queue.put_nowait((answer["envoi"], self.hub.photo_path(
                self.hub.session.uploads[answer["envoi"]]["fichier"]), answer["coup"]))
        return web.json_response(answer, status=202 if answer["etat"] == "recue" else 200)


async def _read_upload(request: web.Request) -> tuple[dict[str, str], bytearray | None]:
    try:
        form = await request.multipart()
    except (ValueError, AssertionError, KeyError) as exc:
        raise Refused(400, "envoi de photo illisible (formulaire multipart attendu)") from exc
    fields: dict[str, str] = {}
    data: bytearray | None = None
    while True:
        try:
            part = await form.next()
        except (ValueError, AssertionError) as exc:
            raise Refused(400, "envoi de photo illisible : rien n'a été enregistré") from exc
        if part is None:
            break
        name = getattr(part, "name", None)
        if name in ("envoi", "coup"):
            fields[name] = (await _read_part(part, 256, name)).decode("utf-8", "replace")
        elif name == "photo":
            filename = part.filename or ""
            if _BAD_NAME.search(filename) or len(filename) > 255:
                raise Refused(400, "nom de fichier refusé (un chemin n'est pas un nom de photo) "
                                   ": rien n'a été enregistré")
            data = await _read_part(part, MAX_PHOTO, name)
        else:
            raise Refused(400, "champ inconnu dans l'envoi : rien n'a été enregistré")
    return fields, data


async def _read_part(part, limit: int, name: str) -> bytearray:
    buffer = bytearray()
    while True:
        chunk = await part.read_chunk(65536)
        if not chunk:
            return buffer
        buffer += chunk
        if len(buffer) > limit:
            if name == "photo":
                raise Refused(413, "photo trop grande (20 Mo au plus) : rien n'a été enregistré")
            raise Refused(400, f"champ « {name} » trop long : rien n'a été enregistré")


async def _json(request: web.Request) -> dict[str, Any]:
    if request.content_length is not None and request.content_length > MAX_JSON:
        raise Refused(413, "requête trop grande")
    raw = await request.content.read(MAX_JSON + 1)
    if len(raw) > MAX_JSON:
        raise Refused(413, "requête trop grande")
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise Refused(400, "requête illisible (JSON attendu) : rien n'a été enregistré") from None
    if not isinstance(body, dict):
        raise Refused(400, "requête illisible (objet JSON attendu) : rien n'a été enregistré")
    return body


def _html_page(status: int, title: str, message: str, refresh: bool = False) -> web.Response:
    """A short French page for a browser (the results page's refusals)."""
    from html import escape

    again = f'<meta http-equiv="refresh" content="{RESULTS_REFRESH}">' if refresh else ""
    text = (f'<!DOCTYPE html><html lang="fr"><head><meta charset="utf-8">{again}<title>'
            f"{escape(title)}</title></head><body><h1>{escape(title)}</h1><p>{escape(message)}"
            "</p></body></html>")
    return web.Response(status=status, text=text, content_type="text/html", charset="utf-8",
                        headers={"Content-Security-Policy": RESULTS_CSP})


def _error(status: int, message: str, **extra: Any) -> web.Response:
    return web.json_response({"erreur": message, **extra}, status=status)
