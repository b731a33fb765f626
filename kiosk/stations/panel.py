"""The juge-arbitre's view of the stations: join code, QR code, who corrects what, progress.

:func:`stations_view` is a plain view model computed from the session;
:func:`panel_overlay` makes it the console's panel (key Q, drawn by
:mod:`display.console` in the juge-arbitre's window only — never on the room's),
and :func:`panel_key` the keys of the panel (↑ ↓ choose a station, Suppr revoke
it after a confirmation, Échap close).

The QR code is made by segno (pure Python, no dependency, well kept): a QR
encoder is Reed-Solomon codes, masks and version tables — not worth our own.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

from display.console import Overlay

from ..session import Session


@dataclass(frozen=True)
class StationLine:
    ident: str
    name: str
    block: str  # « tables 1 à 10 » or « toutes »
    last_activity: str  # « il y a 12 s »
    waiting: int  # readings of its photos still to confirm
    revoked: bool


@dataclass(frozen=True)
class StationsView:
    address: str  # short address to type: http://192.168.1.10:8765/
    link: str  # the QR code's address, with the game's secret
    code: str  # 6 digits
    lines: tuple[StationLine, ...]
    coup: int  # the coup whose progress is shown
    progress: str  # « 87 / 120 corrigés »
    waiting: int  # readings waiting for a confirmation (all stations and the console)
    results: str = ""  # the read-only results page (its own key): /classement?cle=…

    @property
    def qr(self) -> tuple[tuple[bool, ...], ...]:
        return qr_matrix(self.link)


@lru_cache(maxsize=4)
def qr_matrix(text: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code's modules, dark = True, with its quiet zone of 4 modules."""
    import segno

    code = segno.make(text, error="m", micro=False)
    return tuple(tuple(bool(v) for v in row) for row in code.matrix_iter(border=4))


def _ago(seconds: float) -> str:
    if seconds < 0 or seconds != seconds:
        return "—"
    if seconds < 60:
        return f"il y a {int(seconds)} s"
    if seconds < 3600:
        return f"il y a {int(seconds // 60)} min"
    return f"il y a {int(seconds // 3600)} h"


def progress_coup(session: Session) -> int:
    """The coup being corrected: the last one whose top is known."""
    return len(session.game.played()) if session.game is not None else 0


_VIEWS: dict[tuple, StationsView] = {}


def stations_view(session: Session, now: float | None = None) -> StationsView | None:
    """What the console shows of the stations; None when the station server never opened.
    Made once per journal change and second (the console asks 30 times a second)."""
    net = session.network
    if not net:
        return None
    now = time.time() if now is None else now
    key = (id(session), session.applied, int(now))
    if key not in _VIEWS:
        if len(_VIEWS) > 8:
            _VIEWS.clear()
        _VIEWS[key] = _stations_view(session, net, now)
    return _VIEWS[key]


def _stations_view(session: Session, net: dict, now: float) -> StationsView:
    activity = session.activity
    waiting_by: dict[str, int] = {}
    for reading in session.pending.values():
        if reading.station:
            waiting_by[reading.station] = waiting_by.get(reading.station, 0) + 1
    lines = []
    for ident, st in session.stations.items():
        block = st.get("bloc")
        seen = activity.get(f"poste:{ident}")
        lines.append(StationLine(ident, str(st["nom"]),
                                 f"tables {block[0]} à {block[1]}" if block else "toutes",
                                 _ago(now - seen) if seen else "—", waiting_by.get(ident, 0),
                                 bool(st["retire"])))
    coup = progress_coup(session)
    players = len(session.results.players)
    done = sum(1 for t in session.results.players if coup and session.results.history(t, coup))
    return StationsView(str(net.get("adresse", "")), str(net.get("lien", "")),
                        str(net.get("code", "")), tuple(lines), coup,
                        f"{done} / {players} corrigés" if coup else "aucun coup joué",
                        len(session.pending), str(net.get("classement", "")))


def summary(view: StationsView | None) -> str:
    """One line for the correction screen: stations, progress, the key to the panel."""
    if view is None:
        return ""
    active = sum(1 for line in view.lines if not line.revoked)
    return (f"postes : {active} · coup {view.coup} : {view.progress} · "
            f"code {view.code} · Q : postes d'arbitrage")


def revoke(session: Session, ident: str) -> str:
    """The juge-arbitre takes a station out: its token is refused from its next request."""
    station = session.stations.get(ident)
    if station is None or station["retire"]:
        return "poste déjà retiré ou inconnu"
    session.record("poste_retire", {"poste": ident})
    return f"poste de {station['nom']} retiré : il ne peut plus rien envoyer"


def assign_block(session: Session, ident: str, first: int, last: int) -> str:
    """The juge-arbitre gives a station its block of tables."""
    if not 1 <= first <= last:
        return "bloc : de la plus petite à la plus grande table"
    session.record("poste_bloc", {"poste": ident, "bloc": [first, last]})
    return f"{session.stations[ident]['nom']} : tables {first} à {last}"


# -- the kiosk's panel (key Q) ------------------------------------------------------------------
def panel_key(machine, name: str) -> None:
    """Keys while the panel is open. ``machine.stations_cursor`` is the line chosen;
    ``machine.stations_revoking`` the station waiting for the confirmation of its removal."""
    from ..session import SessionError

    view = stations_view(machine.session)
    lines = [line for line in (view.lines if view else ()) if not line.revoked]
    revoking = getattr(machine, "stations_revoking", None)
    if revoking is not None:
        machine.stations_revoking = None
        if name in ("o", "return"):
            try:
                machine.message = revoke(machine.session, revoking)
            except SessionError as exc:
                machine.message = str(exc)
        else:
            machine.message = "poste gardé"
        return
    cursor = getattr(machine, "stations_cursor", 0)
    if name in ("escape", "q"):
        machine.mode = None
    elif name in ("down", "j"):
        machine.stations_cursor = min(cursor + 1, max(0, len(lines) - 1))
    elif name in ("up", "k"):
        machine.stations_cursor = max(0, cursor - 1)
    elif name in ("delete", "backspace"):
        if lines:
            machine.stations_revoking = lines[min(cursor, len(lines) - 1)].ident
        else:
            machine.message = "aucun poste à retirer"


def panel_prompt(machine) -> list[str]:
    ident = getattr(machine, "stations_revoking", None)
    if ident is None:
        return []
    name = machine.session.stations.get(ident, {}).get("nom", ident)
    return [f"Retirer le poste de {name} ?", "O ou Entrée : retirer (ce qu'il a envoyé reste) · "
            "autre touche : garder"]


def panel_overlay(view: StationsView | None, selected: int = 0) -> Overlay:
    """The panel (key Q) as the console draws it (:mod:`display.console`, kind ``postes``):
    QR code, address and code on the left, a line per station on the right."""
    if view is None:
        return Overlay("postes", "Postes d'arbitrage fermés",
                       ("relancez avec kiosk nouvelle / reprendre --postes",),
                       note="Échap : fermer")
    active = [ln for ln in view.lines if not ln.revoked]
    lines = tuple(f"{ln.name} · {ln.block} · {ln.last_activity} · {ln.waiting}"
                  for ln in active)
    if not lines:
        lines = ("aucun poste encore : scannez le code QR ou tapez l'adresse et le code",)
    return Overlay("postes", f"Postes d'arbitrage — coup {view.coup} : {view.progress} · "
                   f"{view.waiting} bulletin(s) à confirmer", lines,
                   cursor=min(selected, len(active) - 1) if active else -1, qr=view.qr,
                   side=(view.address, f"code {view.code}"),
                   head="poste · tables · dernière action · à confirmer",
                   note=(f"classement (lecture seule) : {view.results} · " if view.results else "")
                   + "↑ ↓ : choisir · Suppr : retirer le poste · Échap : fermer")


def panel_texts(view: StationsView | None) -> set[str]:
    """What only the console may show of the stations (tests check the room never does)."""
    if view is None:
        return set()
    overlay = panel_overlay(view)
    return {overlay.title, *overlay.lines, *overlay.side, overlay.note, view.link, view.code,
            summary(view), *([view.results] if view.results else [])}
