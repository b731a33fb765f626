"""``kiosk``: nouvelle, reprendre, demo, lire, export, tournoi, classement — in French, errors in
French. A game is a file (the default) or, with ``--base postgresql://…``, a game of a database
shared by the rooms of a tournament (:mod:`kiosk.storage`)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from engine.cliparse import FrenchParser
from engine.files import os_reason as _os_reason
from engine.files import show
from engine.game import warning_seconds

from .journal import Journal, JournalError, games_dir, last_game, new_game_path
from .storage import Locator

TIMES = {"3:00": 180, "2:30": 150, "2:00": 120, "1:00": 60}
RAPIDE_SECONDS, RAPIDE_WARNING = 10, 5


class CliError(Exception):
    """A French message for the user; exit status 2."""


# -- helpers -------------------------------------------------------------------------------------
def _lexicon(path: str | None):
    from engine.lexicon import Lexicon, LexiconError
    from engine.movegen import fallback_notice

    try:
        lexicon = Lexicon.load(path)
    except LexiconError as exc:
        raise CliError(str(exc)) from exc
    notice = fallback_notice()  # the compiled move generator is missing: said once
    if notice:
        print(f"attention : {notice}", file=sys.stderr)
    return lexicon


def read_players(path: str | Path, warnings: list[str] | None = None) -> list[dict]:
    """The players list (:mod:`kiosk.players`), its refusal as a CliError."""
    from .players import PlayersError
    from .players import read_players as read

    try:
        return read(path, warnings)
    except PlayersError as exc:
        raise CliError(str(exc)) from exc


def assign_arbiters(players: list[dict], spec: str, warnings: list[str] | None = None) -> None:
    """``--arbitres "Anne:1-40,Marc:41-80"``: blocks of tables given to each arbiter (5.7's
    average is over the players of the same arbiter). Overrides a CSV ``arbitre`` column."""
    tables: dict[int, str] = {}
    for item in (part.strip() for part in spec.split(",")):
        if not item:
            continue
        name, sep, ranges = item.rpartition(":")
        name = name.strip()
        if not sep or not name:
            raise CliError(f"--arbitres : « {item} » : écrivez NOM:PREMIÈRE-DERNIÈRE table "
                           "(par exemple Anne:1-40)")
        low, dash, high = ranges.strip().partition("-")
        if not low.strip().isdigit() or (dash and not high.strip().isdigit()):
            raise CliError(f"--arbitres : « {item} » : tables attendues comme 1-40 ou 12")
        first, last = int(low), int(high) if dash else int(low)
        if first > last:
            raise CliError(f"--arbitres : « {item} » : {first} après {last}")
        for table in range(first, last + 1):
            if table in tables and tables[table] != name:
                raise CliError(f"--arbitres : la table {table} est à la fois à "
                               f"{tables[table]} et à {name}")
            tables[table] = name
    left = []
    for player in players:
        if player["table"] in tables:
            player["arbiter"] = tables[player["table"]]
        elif not player.get("arbiter"):
            left.append(player["table"])
    if left and warnings is not None:
        shown = ", ".join(str(t) for t in left[:10]) + (" …" if len(left) > 10 else "")
        warnings.append(f"{len(left)} joueur(s) sans arbitre (tables {shown}) : ils forment "
                        "un groupe à part pour la moyenne de la règle 5.7")


def _open_session(where: Path | Locator, lexicon_path: str | None, station: str = "kiosque"):
    from .session import Session, SessionError

    where = where if isinstance(where, Locator) else Locator(path=where)
    path = where.label
    try:
        journal = where.open(station)
    except JournalError as exc:
        raise CliError(str(exc)) from exc
    meta = journal.meta
    recorded = meta.get("lexicon_path") or None
    try:
        lexicon = _lexicon(lexicon_path or recorded)
    except CliError as exc:
        journal.close()
        if lexicon_path or not recorded:
            raise
        raise CliError(f"{exc} ; cette partie a été commencée avec cette liste : si elle a "
                       "changé de place, donnez son chemin avec --lexique") from exc
    try:
        session = Session(journal, lexicon)
    except (SessionError, JournalError) as exc:
        journal.close()
        raise CliError(str(exc)) from exc
    if session.config is None:
        journal.close()
        raise CliError(f"{path} : partie sans réglages, rien à reprendre")
    for line in session.set_aside:
        print(f"attention : {line}", file=sys.stderr)
    return session


def _lock_room(session) -> None:
    """One room process per game: refused in French when another room has it."""
    try:
        session.journal.lock_room()
    except JournalError as exc:
        session.journal.close()
        raise CliError(str(exc)) from exc


def _game_file(name: str | None) -> Path:
    if name:
        path = Path(name)
        if not path.exists() and not path.is_absolute():
            candidate = games_dir() / name
            path = candidate if candidate.exists() else path
        if not path.exists():
            raise CliError(f"fichier de partie introuvable : {name}")
        from engine.files import FileRefused, check_regular

        try:
            check_regular(path, "fichier de partie")
        except FileRefused as exc:
            raise CliError(str(exc)) from exc
        return path
    try:
        found = last_game()
        if found is None:
            raise CliError(f"aucune partie dans {games_dir()} : commencez par « kiosk nouvelle »")
    except JournalError as exc:
        raise CliError(str(exc)) from exc
    return found


def _create(where: Path | Locator, lexicon, config, station: str = "kiosque"):
    from .session import Session

    where = where if isinstance(where, Locator) else Locator(path=where)
    try:
        journal = where.create(_lexicon_meta(lexicon), station,
                               first=("partie", config.to_dict()))
    except JournalError as exc:
        raise CliError(str(exc)) from exc
    return Session(journal, lexicon)


def _lexicon_meta(lexicon) -> dict[str, str]:
    return {"lexicon_sha256": lexicon.sha256, "lexicon_path": str(lexicon.source)}


def _base(args) -> str | None:
    """The database of ``--base`` (else $KIOSK_BASE); None: games are files."""
    base = getattr(args, "base", None) or os.environ.get("KIOSK_BASE") or None
    if base is not None:
        from .pgjournal import is_url

        if not is_url(base):
            raise CliError(f"--base {base} : adresse non valable (attendu "
                           "postgresql://utilisateur@serveur:port/base)")
    return base


def _locate(args, name: str | None) -> Locator:
    """The game a command names: a file, a game of the database, or a tournament's room."""
    base = _base(args)
    tournoi, salle = getattr(args, "tournoi", None), getattr(args, "salle", None)
    if base is None:
        if tournoi or salle:
            raise CliError("--tournoi et --salle demandent la base du tournoi (--base "
                           "postgresql://… ou KIOSK_BASE)")
        return Locator(path=_game_file(name))
    from .pgjournal import PgJournal, latest_game

    try:
        if tournoi or salle:
            if not (tournoi and salle):
                raise CliError("donnez le tournoi et la salle : --tournoi NOM --salle NOM")
            return Locator(url=base, name=PgJournal.find_room(base, tournoi, salle))
        if name is None:
            name = latest_game(base)
            if name is None:
                raise CliError("aucune partie dans cette base : commencez par « kiosk nouvelle "
                               "--base … »")
    except JournalError as exc:
        raise CliError(str(exc)) from exc
    return Locator(url=base, name=name)


def _speech_settings(config):
    from speech.settings import SpeechSettings
    from speech.texts import LetterForm

    return SpeechSettings(warning_seconds=max(1, int(config.warning)),
                          letter_form=LetterForm.PAYS if config.blitz else LetterForm.PAYS_LETTRE)


def room_place(ecran: int | None, fenetre: bool, displays: int,
               desktop: tuple[int, int]) -> dict:
    """Where the room window goes. ``--ecran N``: fullscreen on display N (the projector);
    ``--fenetre``: a 1280×720 window; neither: fullscreen on the second display when there
    are two, else a window on the left of the only screen (the console goes beside it)."""
    if fenetre:
        return {"window_size": (1280, 720), "position": (0, 30)}
    if ecran is not None:
        return {"display_index": ecran}
    if displays > 1:
        return {"display_index": 1}
    width = max(640, desktop[0] * 11 // 20)
    return {"window_size": (width, width * 9 // 16), "position": (0, 30)}


def _open_room(args):
    from display.window import RoomDisplay, desktop_size, display_count

    try:
        place = room_place(getattr(args, "ecran", None), getattr(args, "fenetre", False),
                           display_count(), desktop_size(0))
        return RoomDisplay.open(**place)
    except Exception as exc:  # noqa: BLE001 - no video at all: say so in French
        _system_log().warning("écran de salle : %s", exc)
        text = str(exc).lower()
        reason = "aucun affichage graphique disponible" if "video" in text or "display" in text \
            else f"affichage refusé par le système ({type(exc).__name__})"
        raise CliError(f"impossible d'ouvrir l'écran de salle ({reason}) : essayez --sans-ecran "
                       "(démonstration) ou lancez un serveur X ; détail dans "
                       f"{_system_log_path()}") from exc


def _system_log_path() -> Path:
    return games_dir() / "kiosque.log"


def _system_log():
    """The log of what the sound and video layers said (raw, often English): a file, never a
    screen."""
    import logging

    logger = logging.getLogger("kiosk.systeme")
    if not any(getattr(h, "_kiosk", False) for h in logger.handlers):
        try:
            path = _system_log_path()
            path.parent.mkdir(parents=True, exist_ok=True)
            handler = logging.FileHandler(path, encoding="utf-8")
        except OSError:
            return logger
        handler._kiosk = True
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s : %(message)s"))
        for name in ("kiosk.systeme", "display.window", "speech"):
            logging.getLogger(name).addHandler(handler)
        logger.propagate = False
    return logger


# -- commands ------------------------------------------------------------------------------------
def cmd_nouvelle(args) -> int:
    from .session import Config

    if getattr(args, "tournoi", None) or getattr(args, "salle", None):
        return _new_room(args)
    args.tirage = args.tirage or "aleatoire"
    lexicon = _lexicon(args.lexique)
    seconds = TIMES[args.temps or "3:00"]
    source = None
    if args.tirage == "fichier":
        if not args.partie_source:
            raise CliError("tirages « fichier » : donnez la partie d'origine (--partie-source)")
        source = _predrawn(args.partie_source, lexicon)
        coups = len(source["coups"])
        print(f"partie pré-tirée vérifiée : {coups} tirage(s) conformes au sac et au règlement"
              + (" ; tops imposés" if not source.get("sans_solutions") else ""))
    elif args.partie_source:
        raise CliError("--partie-source ne sert qu'avec --tirage fichier")
    players = _players_of(args)
    seed = args.graine if args.graine is not None else int(time.time()) % 10**9
    config = Config(seed=seed, seconds=seconds, warning=warning_seconds(seconds),
                    blitz=seconds <= 60, draw_mode=args.tirage, players=players, source=source,
                    event=_event(args) or None, original=args.originale,
                    bulletin=_bulletin_model(args))
    base = _base(args)
    if base is not None:  # a game of the database, named by --fichier or by the time
        where = Locator(url=base, name=args.fichier or time.strftime("partie-%Y%m%d-%H%M%S"))
    else:
        where = Locator(path=Path(args.fichier) if args.fichier else _new_game_path())
    session = _create(where, lexicon, config)
    print(f"nouvelle partie : {where.label}")
    return _run_room(session, args)


def _players_of(args) -> list[dict]:
    warnings: list[str] = []
    players = read_players(args.joueurs, warnings) if args.joueurs else []
    if getattr(args, "arbitres", None):
        if not players:
            raise CliError("--arbitres : donnez aussi la liste des joueurs (--joueurs)")
        assign_arbiters(players, args.arbitres, warnings)
    for warning in warnings:
        print(f"attention : {warning}", file=sys.stderr)
    return players


def _room_session(args, players: list[dict], lexicon, station: str = "kiosque",
                  **extra):
    """A tournament room's new game (its players registered), as a session."""
    from . import tournament as tour
    from .session import Session

    base = _base(args)
    if base is None or not (args.tournoi and args.salle):
        raise CliError("une salle de tournoi : --base postgresql://… --tournoi NOM --salle NOM")
    for option, value in (("--tirage", getattr(args, "tirage", None)),
                          ("--graine", getattr(args, "graine", None)),
                          ("--partie-source", getattr(args, "partie_source", None)),
                          ("--temps", getattr(args, "temps", None)), ("--fichier", args.fichier)):
        if value is not None:
            raise CliError(f"{option} : en tournoi, les tirages, le temps et la partie sont "
                           "ceux du tournoi (kiosk tournoi NOM --creer)")
    try:
        t = tour.load(base, args.tournoi)
        if t.settings.get("lexicon_sha256") != lexicon.sha256:
            raise CliError(f"le tournoi « {t.name} » a été tiré avec une autre liste de mots "
                           f"({t.settings.get('lexicon_path')}) : --lexique avec la même liste")
        config = t.room_config(players, _event(args) if hasattr(args, "epreuve") else None)
        for name, value in extra.items():
            setattr(config, name, value)
        journal = tour.register_room(base, t, args.salle, config, _lexicon_meta(lexicon), station)
    except JournalError as exc:
        raise CliError(str(exc)) from exc
    return Session(journal, lexicon)


def _bulletin_model(args) -> str:
    """The bulletin model of the game's photos (``--modele``), checked now: a model that
    cannot be read is refused before the game starts, not at the first photo."""
    name = getattr(args, "modele", None) or "fd1"
    try:
        from vision.layout import Layout
    except ImportError:  # no reader installed: the bulletins are typed, the name kept
        return name
    try:
        Layout.load(name)
    except ValueError as exc:
        raise CliError(f"--modele : modèle de bulletin inutilisable : {exc}") from exc
    return name


def _new_room(args) -> int:
    lexicon = _lexicon(args.lexique)
    players = _players_of(args)
    extra = {"bulletin": _bulletin_model(args)} if getattr(args, "modele", None) else {}
    session = _room_session(args, players, lexicon, **extra)
    print(f"nouvelle partie : {session.journal.label} ({len(players)} joueur(s))")
    return _run_room(session, args)


def _predrawn(path: str, lexicon) -> dict:
    """A pre-drawn game (our JSON, Eliot XML or the text format), checked whole."""
    from engine.pretirage import PreDrawnError, read_predrawn

    try:
        return read_predrawn(path, lexicon)
    except PreDrawnError as exc:
        raise CliError(f"partie pré-tirée refusée : {exc}") from exc


def _event(args) -> dict:
    """The event header given on the command line (empty fields left out)."""
    fields = {"epreuve": args.epreuve, "date": args.date, "lieu": args.lieu,
              "juge_arbitre": args.juge_arbitre}
    return {k: v.strip() for k, v in fields.items() if v and v.strip()}


def _new_game_path(prefix: str = "partie") -> Path:
    try:
        return new_game_path(prefix)
    except JournalError as exc:
        raise CliError(str(exc)) from exc


def _start_stations(session, args):
    """The arbiter stations' server (``--postes``; by default when a network is present).

    It is a child process that ends with the kiosk; if it cannot start, the game goes on
    without it and the juge-arbitre is told why."""
    from .stations.launch import StationsError, StationsProcess
    from .stations.network import network_present

    wanted = getattr(args, "postes", False)
    if session.config.demo and not wanted:  # a demo plays alone, unless asked
        return None, ""
    if wanted is None:
        wanted = network_present() or getattr(args, "hote", None) not in (None, "0.0.0.0")
    if not wanted:
        return None, ""
    try:
        server = StationsProcess.start(Locator.of(session.journal), str(session.lexicon.source),
                                       args.hote or "0.0.0.0", args.port)
    except (StationsError, OSError) as exc:
        print(f"attention : {exc}", file=sys.stderr)
        return None, str(exc)
    session.sync()
    code = (session.network or {}).get("code", "")
    print(f"postes d'arbitrage : {server.url.split('?')[0]} — code {code} "
          "(code QR sur la console : touche Q)")
    results = (session.network or {}).get("classement")
    if results:
        print(f"classement en direct (lecture seule) : {results}")
    return server, ""


def _run_room(session, args, autopilot_factory=None, out_dir: Path | None = None) -> int:
    from .machine import Machine
    from .runner import native_stderr_to, run_window
    from .voice import RoomVoice

    _lock_room(session)
    _system_log()
    with native_stderr_to(_system_log_path()):  # ALSA/SDL lines: to the log, not the terminal
        room = _open_room(args)
        stations, problem = _start_stations(session, args)
        machine = Machine(session, time.monotonic)
        machine.message = problem
        if session.set_aside and not machine.message:
            machine.message = (f"{len(session.set_aside)} événement(s) du journal mis de côté "
                               "(détail sur le terminal) : la partie continue")
        voice = RoomVoice(_speech_settings(session.config),
                          out_dir=(out_dir / "son") if out_dir else None)
        autopilot = autopilot_factory(machine) if autopilot_factory else None
        try:
            run_window(machine, room, voice, autopilot, out_dir,
                       linger=8.0 if autopilot is not None else None)
        finally:
            machine.stop_chrono()  # also on Ctrl-C: the countdown's second is kept
            if stations is not None:
                stations.stop()
            voice.close()
            room.close()
            session.journal.close()
    print(f"partie enregistrée : {session.journal.label} (kiosk reprendre pour continuer)")
    return 0


def cmd_reprendre(args) -> int:
    where = _locate(args, args.partie)
    path = where.label
    session = _open_session(where, args.lexique)
    print(f"reprise de {path} : coup {session.coup.number if session.coup else 0}, "
          f"étape « {session.step} »")
    demo = session.config.demo if session.config else None
    if demo:
        from .outdir import OutDirError, check

        try:  # a path read from the journal: written to only if it is this demo's folder
            out_dir = Path(str(demo.get("out_dir")))
            check(out_dir, demo.get("token"))
        except OutDirError as exc:
            session.journal.close()
            raise CliError(str(exc)) from exc
        return _run_demo(session, out_dir, sans_ecran=args.sans_ecran,
                         accelere=args.sans_ecran or demo.get("accelere", False),
                         photos=demo.get("photos", True), args=args)
    if args.sans_ecran:
        raise CliError("« --sans-ecran » ne sert qu'à la démonstration : une vraie partie "
                       "se joue à l'écran")
    return _run_room(session, args)


def cmd_demo(args) -> int:
    from .demo import players
    from .outdir import OutDirError, claim, new_token
    from .session import Config

    lexicon = _lexicon(args.lexique)
    out_dir = Path(args.sortie).resolve()
    token = new_token()
    try:  # only a new, empty or earlier-demo folder; only the earlier demo's files go
        claim(out_dir, token)
    except OutDirError as exc:
        raise CliError(str(exc)) from exc
    seconds, warning = (RAPIDE_SECONDS, RAPIDE_WARNING) if args.rapide else (180, 30)
    accelere = args.sans_ecran or args.accelere
    demo = {"out_dir": str(out_dir), "photos": not args.sans_photos, "accelere": accelere,
            "token": token}
    people = _players_of(args) if args.joueurs else players()
    if args.tournoi or args.salle:  # a virtual room of a tournament: its game, our pace
        session = _room_session(args, people, lexicon, seed=args.seed, seconds=seconds,
                                warning=warning, max_coups=args.coups, demo=demo)
        print(f"démonstration : {session.journal.label}")
    else:
        config = Config(seed=args.seed, seconds=seconds, warning=warning, players=people,
                        max_coups=args.coups, demo=demo)
        base = _base(args)
        where = Locator(url=base, name=args.fichier or f"demo-graine{args.seed}-"
                        f"{time.strftime('%Y%m%d-%H%M%S')}") if base else \
            Locator(path=Path(args.fichier) if args.fichier else
                    _new_game_path(f"demo-graine{args.seed}"))
        session = _create(where, lexicon, config)
        print(f"démonstration : partie {where.label}")
    return _run_demo(session, out_dir, sans_ecran=args.sans_ecran, accelere=accelere,
                     photos=not args.sans_photos, args=args)


def _run_demo(session, out_dir: Path, *, sans_ecran: bool, accelere: bool, photos: bool,
              args) -> int:
    from .demo import Autopilot, VirtualClock
    from .machine import Machine
    from .runner import run_headless, run_window
    from .voice import FileVoice

    _lock_room(session)
    if not accelere:
        _run_room(session, args, lambda m: Autopilot(m, out_dir, photos=photos), out_dir)
        _summary(out_dir, photos, out_dir / "resultats.csv")
        return 0
    clock = VirtualClock()
    machine = Machine(session, clock)
    autopilot = Autopilot(machine, out_dir, photos=photos, advance=clock.advance)
    voice = FileVoice(out_dir, _speech_settings(session.config))
    try:
        if sans_ecran:
            csv_path = run_headless(machine, autopilot, voice, out_dir, progress=True)
        else:
            room = _open_room(args)
            try:
                run_window(machine, room, voice, autopilot, out_dir, pace=0.0, linger=1.0,
                           progress=True)
            finally:
                room.close()
            csv_path = out_dir / "resultats.csv"
    finally:
        session.journal.close()
    if voice.error:
        print(f"attention : {voice.error}", file=sys.stderr)
    _summary(out_dir, photos, csv_path)
    return 0


def _summary(out_dir: Path, photos: bool, csv_path: Path) -> None:
    """Say where the demo wrote everything."""
    print(f"écrans : {out_dir}/*.png ({len(list(out_dir.glob('*.png')))} images)")
    wavs = list(out_dir.glob("*.wav")) + list(out_dir.glob("son/*.wav"))
    print(f"annonces : {out_dir}/*.wav ({len(wavs)} fichiers ; en direct si une carte son "
          "est présente)")
    if photos:
        print(f"bulletins photographiés : {out_dir / 'bulletins'}")
    if csv_path.exists():
        print(f"résultats : {csv_path} et {out_dir / 'resultats.html'} "
              "(kiosk export --partie … pour les PDF et le fichier Eliot)")
    else:
        print("partie interrompue avant la fin : kiosk reprendre pour la continuer")


#: the reader's statuses as the arbiter reads them
STATUS_WORDS = {"ok": "lu", "a_verifier": "à vérifier", "illisible": "illisible"}
_FIELD_LABELS = {"table": "table", "word": "mot", "ref": "référence", "score": "score"}


def _field_read(name: str, field: dict) -> str:
    """``mot=REMIX (98 %)``, or ``mot non lu`` — never Python's ``None``."""
    value = field.get("value")
    if value in (None, ""):
        return f"{_FIELD_LABELS[name]} non lu"
    return f"{_FIELD_LABELS[name]}={value} ({float(field.get('confidence') or 0):.0%})"


def cmd_lire(args) -> int:
    """Read a folder of photos against the coup being collected (from its chrono's start)."""
    from .reading import collecting_coup, list_photos, read_photos
    from .session import SessionError, neighbour_question

    session = _open_session(_locate(args, args.partie), args.lexique, station=args.poste)
    try:
        photos, others = list_photos(args.dossier)
    except FileNotFoundError as exc:
        session.journal.close()
        raise CliError(str(exc)) from exc
    collecting = collecting_coup(session)
    if collecting is None:
        session.journal.close()
        raise CliError("aucun chrono encore lancé dans cette partie : les bulletins se lisent "
                       "dès que le chrono du coup a démarré")
    coup = args.coup if args.coup is not None else collecting
    if coup < 1 or coup > collecting:
        session.journal.close()
        raise CliError(f"pas de coup {coup} à lire : le coup en cours de ramassage est le "
                       f"coup {collecting}")
    for other in others:
        print(f"{other.name} : ignoré (pas une photo)")
    # a photo is read once, whatever the coup it was read for (one reading per bulletin on it)
    earlier = _earlier_readings(session)
    status, skipped, previous, bulletins = 0, 0, 0, 0
    for photo in photos:
        why = _skip_reason(photo, earlier)
        if why and not args.relire:
            print(f"{show(photo.name)} : {why}")
            skipped += 1
            continue
        for data in read_photos(photo, session, coup):
            name = show(photo.name) + (f" (bulletin {data['feuille']}/{data['feuilles']})"
                                       if data.get("feuilles") else "")
            bulletins += 1
            try:
                session.record("lecture", data)
            except SessionError as exc:
                print(f"{name} : {exc}")
                status = 1
                continue
            fields = data["fields"]
            read = " ".join(_field_read(field, fields[field])
                            for field in ("table", "word", "ref", "score"))
            line = {"photo": show(photo.name), "statut": data["status"],
                    "message": data["message"]}
            if data.get("feuilles"):
                line.update(bulletin=data["feuille"], bulletins=data["feuilles"])
            status_word = STATUS_WORDS.get(data["status"], data["status"].replace("_", " "))
            if data.get("voisin"):
                previous += 1
                status_word = neighbour_question(coup, int(data["voisin"]["coup"]))
                line["coup_voisin"] = data["voisin"]["coup"]
            print(json.dumps(line, ensure_ascii=False) if args.json else
                  f"{name} : {status_word} — {data['message']} — {read}")
    several = f" ({bulletins} bulletins)" if bulletins != len(photos) - skipped else ""
    print(f"{len(photos) - skipped} photo(s) lue(s){several} pour le coup {coup}, "
          f"{len(others) + skipped} fichier(s) ignoré(s) ; à confirmer sur l'écran de correction")
    if previous:
        print(f"{previous} bulletin(s) « coup précédent ? » ou « coup suivant ? » : le "
              "juge-arbitre décide de leur "
              "coup à l'écran de correction (Entrée sur la ligne)")
    session.journal.close()
    return status


def _earlier_readings(session) -> dict[str, dict]:
    """Photo key -> the last ``lecture`` of that photo in the journal, whatever its coup (a
    photo is one bulletin: read once)."""
    from .reading import photo_path

    found = {}
    for event in session.journal.events():
        if event.kind != "lecture" or not event.data.get("photo"):
            continue
        try:
            found[str(photo_path(event.data).resolve())] = event.data
        except (KeyError, TypeError, ValueError, OSError):
            continue
    return found


def _skip_reason(photo: Path, earlier: dict[str, dict]) -> str | None:
    """Why ``photo`` is not read again, or None to read it.

    A photo read « illisible » is read again once it has changed (copied again
    from the phone, or the first copy was still being written).
    """
    data = earlier.get(str(photo.resolve()))
    if data is None:
        return None
    coup = data.get("coup")
    if data.get("status") != "illisible":
        return f"déjà lue pour le coup {coup}, ignorée (--relire pour la relire)"
    try:
        info = photo.stat()
    except OSError:
        return None
    unchanged = data.get("photo_size") == info.st_size and \
        data.get("photo_mtime") == round(info.st_mtime, 3)
    if unchanged:
        return (f"illisible à la lecture précédente du coup {coup} et inchangée depuis, "
                "ignorée (--relire pour la relire)")
    return None


def cmd_sauvegarder(args) -> int:
    """A complete copy of the game in one file, made while it plays (SQLite's backup API; a
    game of a database is copied into a game file)."""
    where = _locate(args, args.partie)
    try:
        journal = where.open("sauvegarde")
    except JournalError as exc:
        raise CliError(str(exc)) from exc
    try:
        dest = journal.backup(args.destination)
        count = journal.last_seq()
    except JournalError as exc:
        raise CliError(str(exc)) from exc
    finally:
        journal.close()
    try:
        with Journal.open(dest, "sauvegarde") as copy:
            copied = copy.last_seq()
    except JournalError as exc:
        raise CliError(f"la copie {dest} ne se relit pas : {exc}") from exc
    print(f"copie de sauvegarde : {dest} ({copied} événements sur {count}, un seul fichier)")
    return 0 if copied >= count else 1


def cmd_export(args) -> int:
    from engine.export.pdf import PdfError

    from .exports import write_results

    where = _locate(args, args.partie)
    session = _open_session(where, args.lexique, station="export")
    out = Path(args.sortie) if args.sortie else where.default_out()
    try:
        if not session.results.players:
            raise CliError("cette partie n'a pas de joueurs : rien à exporter")
        if out.exists() and not out.is_dir():
            raise CliError(f"--sortie {out} : ce n'est pas un dossier ; rien n'a été écrit")
        try:
            written = write_results(session, out, event=_event(args), eliot=args.eliot,
                                    federation=tuple(args.federation or ("sigles",)))
        except (PdfError, ValueError) as exc:
            raise CliError(str(exc)) from exc
        except OSError as exc:
            raise CliError(f"écriture impossible dans {out} ({_os_reason(exc)})") from exc
    finally:
        session.journal.close()
    print(f"résultats dans {out} :")
    for item in written:
        print(f"  {item.name}")
    return 0


def cmd_importer(args) -> int:
    """An Eliot game made a kiosk game: tirages, tops, players, their coups and sanctions."""
    from engine.eliot import EliotError, import_eliot
    from engine.game import Game

    from .session import Config, SessionError

    lexicon = _lexicon(args.lexique)
    source_path = Path(args.partie_eliot)
    from engine.files import LIMITS, FileRefused, read_bytes

    try:  # a regular file of a sane size only (a FIFO or /dev/zero would hang)
        data = read_bytes(source_path, "partie Eliot", LIMITS["partie"])
    except FileRefused as exc:
        raise CliError(str(exc)) from exc
    try:
        imported = import_eliot(data, lexicon)
    except EliotError as exc:
        raise CliError(f"partie Eliot refusée : {source_path.name} : {exc}") from exc
    if imported.source.get("sans_solutions"):
        raise CliError("partie Eliot sans tops : rien à importer (pour la rejouer, "
                       "kiosk nouvelle --tirage fichier --partie-source)")
    config = Config(seed=0, draw_mode="fichier", players=imported.players, source=imported.source,
                    event=_event(args) or None)
    path = Path(args.fichier) if args.fichier else new_game_path(f"eliot-{source_path.stem}")
    session = _create(path, lexicon, config, station="import")
    game = Game.from_dict(imported.source)
    by_coup: dict[int, list[dict]] = {}
    for table, coup, decision, bulletin in imported.decisions:
        by_coup.setdefault(coup, []).append({"table": table, "decision": decision.to_dict(),
                                             "bulletin": bulletin})
    try:
        for coup in game.coups:
            reliquat = session.game.reliquat
            for tirage in coup.rejections:
                if tirage == reliquat:
                    session.record("rejet", {"reliquat_seul": True, "reason": "rejeté (Eliot)"})
                else:
                    session.record("tirage", {"mode": "fichier", "letters": tirage})
                    session.record("rejet", {"reason": "rejeté (Eliot)"})
                reliquat = ""
            session.record("tirage", {"mode": "fichier", "letters": coup.tirage})
            if coup.top is None:
                break
            session.record("top", {"coup": coup.number, "word": coup.top.word,
                                   "ref": str(coup.top.ref)})
            session.record("resultats", {"coup": coup.number, "source": "import",
                                         "decisions": by_coup.get(coup.number, [])})
        if game.finished or all(c.top for c in game.coups):
            session.record("fin", {"reason": game.end_reason or "partie importée d'Eliot"})
    except SessionError as exc:
        raise CliError(f"import interrompu : {exc} ({path} garde ce qui a été importé)") from exc
    finally:
        session.journal.close()
    for note in imported.notes:
        print(f"attention : {note}", file=sys.stderr)
    print(f"partie Eliot importée : {path} ({len(game.played())} coups, "
          f"{len(imported.players)} joueurs) ; kiosk export --partie {path} pour les résultats")
    return 0


def _need_base(args) -> str:
    base = _base(args)
    if base is None:
        raise CliError("un tournoi vit dans une base PostgreSQL : --base "
                       "postgresql://utilisateur@serveur:port/base (ou KIOSK_BASE)")
    return base


def cmd_tournoi(args) -> int:
    """``--creer``: the tournament made; otherwise its rooms shown."""
    if args.creer:
        return cmd_tournoi_creer(args)
    given = [o for o, v in (("--graine", args.graine), ("--partie-source", args.partie_source),
                            ("--coups", args.coups)) if v is not None]
    if given:
        raise CliError(f"{given[0]} ne sert qu'à la création du tournoi (--creer)")
    return cmd_tournoi_voir(args)


def cmd_tournoi_creer(args) -> int:
    """The head juge-arbitre draws the tournament's game (or loads it) once, for every room."""
    from engine.game import GameSettings
    from engine.pretirage import source_of_game
    from engine.selfplay import self_play

    from . import tournament as tour

    base = _need_base(args)
    lexicon = _lexicon(args.lexique)
    seconds = TIMES[args.temps]
    if args.partie_source:
        if args.graine is not None:
            raise CliError("--graine ou --partie-source, pas les deux")
        source = _predrawn(args.partie_source, lexicon)
        if source.get("sans_solutions"):
            raise CliError("en tournoi, la partie pré-tirée doit donner les tops : toutes les "
                           "salles jouent la même partie")
        how = f"partie pré-tirée {Path(args.partie_source).name} vérifiée"
    else:
        seed = args.graine if args.graine is not None else int(time.time()) % 10**9
        game = self_play(seed, lexicon, GameSettings(seconds, seconds <= 60, auto_reject=True))
        source = source_of_game(game, lexicon)
        how = f"partie tirée avec la graine {seed}"
    if args.coups is not None and args.coups < 1:
        raise CliError("--coups : au moins 1")
    settings = {"source": source, "seconds": seconds, "warning": warning_seconds(seconds),
                "blitz": seconds <= 60, "original": bool(args.originale),
                "max_coups": args.coups, "event": _event(args),
                "lexicon_sha256": lexicon.sha256, "lexicon_path": str(lexicon.source)}
    try:
        tour.create(base, args.nom, settings)
    except JournalError as exc:
        raise CliError(str(exc)) from exc
    coups = len([c for c in source["coups"] if c.get("top")])
    if args.coups:
        coups = min(coups, args.coups)
    print(f"tournoi « {args.nom} » créé : {how}, {coups} coups")
    print(f"chaque salle : kiosk nouvelle --base … --tournoi « {args.nom} » --salle NOM "
          "--joueurs joueurs-de-la-salle.csv (tables numérotées à la suite d'une salle à l'autre)")
    return 0


def cmd_tournoi_voir(args) -> int:
    from . import tournament as tour

    base = _need_base(args)
    try:
        tour.load(base, args.nom)
        rooms = tour.rooms(base, args.nom)
    except JournalError as exc:
        raise CliError(str(exc)) from exc
    print(f"tournoi « {args.nom} » : {len(rooms)} salle(s)")
    for r in rooms:
        state = "terminée" if r.finished else f"{r.tops} top(s) annoncé(s)"
        held = f"kiosque ouvert ({r.holder})" if r.holder else "aucun kiosque ouvert"
        print(f"  salle {r.room} : {r.players} joueur(s), {state}, {held}")
    return 0


def cmd_classement(args) -> int:
    """The results desk: every room replayed from the base, ranked, kept live with --suivre."""
    from . import tournament as tour
    from .desk import Desk

    base = _need_base(args)
    try:
        settings = tour.load(base, args.tournoi).settings
        lexicon = _lexicon(args.lexique or settings.get("lexicon_path"))
        desk = Desk(base, args.tournoi, lexicon)
    except JournalError as exc:
        raise CliError(str(exc)) from exc
    out = Path(args.sortie) if args.sortie else None
    if out is not None and out.exists() and not out.is_dir():
        desk.close()
        raise CliError(f"--sortie {out} : ce n'est pas un dossier ; rien n'a été écrit")
    try:
        while True:
            print("\n".join(desk.lines()), flush=True)
            if out is not None:
                try:
                    desk.write(out)
                except OSError as exc:
                    raise CliError(f"écriture impossible dans {out} ({_os_reason(exc)})") from exc
                print(f"résultats dans {out} (general/ et un dossier par salle)", flush=True)
            if args.suivre is None:
                return 0
            while not desk.refresh():
                desk.wait(max(0.2, args.suivre))
            print()
    except KeyboardInterrupt:
        return 0
    except JournalError as exc:
        raise CliError(str(exc)) from exc
    finally:
        desk.close()


# -- parser --------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = FrenchParser(prog="kiosk", description="Kiosque de Scrabble Duplicate : anime une "
                          "partie (tirages, annonces, chrono, écran de salle, correction).")
    sub = parser.add_subparsers(dest="command", metavar="COMMANDE")
    sub.required = True

    def event_options(p, export: bool = False):
        where = " (remplace la valeur donnée à « kiosk nouvelle »)" if export else ""
        p.add_argument("--epreuve", metavar="NOM", help="nom de l'épreuve, en tête des "
                       "résultats imprimés" + where)
        p.add_argument("--date", metavar="DATE", help="date de l'épreuve" + where)
        p.add_argument("--lieu", metavar="LIEU", help="lieu de l'épreuve" + where)
        p.add_argument("--juge-arbitre", metavar="NOM", help="nom du juge-arbitre" + where)

    def base_options(p, room: bool = True):
        p.add_argument("--base", metavar="URL", help="base PostgreSQL partagée par les salles "
                       "(postgresql://utilisateur@serveur:port/base ; défaut $KIOSK_BASE ; sans "
                       "elle, la partie est un fichier)")
        if room:
            p.add_argument("--tournoi", metavar="NOM", help="tournoi de la base (avec --salle)")
            p.add_argument("--salle", metavar="NOM", help="salle du tournoi (avec --tournoi)")

    def screen_options(p):
        p.add_argument("--ecran", type=int, default=None, metavar="N",
                       help="écran du projecteur, 0 pour le premier (la salle y est en plein "
                       "écran, la console sur un autre écran) ; défaut : le deuxième écran "
                       "s'il y en a deux, sinon la salle dans une fenêtre et la console à côté")
        p.add_argument("--fenetre", action="store_true",
                       help="écran de salle dans une fenêtre 1280×720, la console à côté")

    def station_options(p):
        p.add_argument("--postes", dest="postes", action="store_true", default=None,
                       help="postes d'arbitrage sur le réseau (téléphones, portables) ; "
                       "par défaut dès qu'un réseau est présent")
        p.add_argument("--sans-postes", dest="postes", action="store_false",
                       help="pas de postes d'arbitrage sur le réseau")
        p.add_argument("--hote", default="0.0.0.0", metavar="ADRESSE",
                       help="adresse d'écoute des postes (défaut 0.0.0.0 : tout le réseau)")
        p.add_argument("--port", type=int, default=None, metavar="N",
                       help="port des postes (défaut : celui de la partie, sinon 8765 ou le "
                       "suivant libre)")

    p = sub.add_parser("nouvelle", help="commencer une nouvelle partie")
    p.add_argument("--lexique", "--lexicon", dest="lexique", metavar="LISTE",
                   help="liste de mots (un mot par ligne) ; "
                   "par défaut $DUPLICATE_LEXICON ou la liste française livrée")
    p.add_argument("--temps", choices=list(TIMES), default=None,
                   help="temps par coup (défaut 3:00 ; 1:00 = blitz)")
    p.add_argument("--modele", metavar="MODELE",
                   help="modèle des bulletins photographiés (défaut fd1, celui du projet ; "
                   "les bulletins de la fédération : le modèle mesuré par « python -m vision "
                   "calibrer », son nom ou son fichier)")
    p.add_argument("--tirage", choices=["aleatoire", "manuel", "fichier"], default=None,
                   help="tirages aléatoires (graine, par défaut), tapés à la main, ou repris "
                   "d'une partie pré-tirée")
    p.add_argument("--graine", type=int, help="graine des tirages aléatoires")
    p.add_argument("--partie-source", metavar="PARTIE",
                   help="partie pré-tirée dont on rejoue les tirages (--tirage fichier) : "
                   "partie du kiosque (.json), partie Eliot (.xml) ou texte (un tirage par "
                   "ligne, « - » devant un tirage rejeté)")
    p.add_argument("--joueurs", metavar="JOUEURS.csv",
                   help="liste des joueurs : table;nom;club;licence (en-tête facultatif ; avec "
                   "en-tête, colonnes arbitre, serie, categorie aussi)")
    p.add_argument("--arbitres", metavar="NOM:1-40,…",
                   help="tables de chaque arbitre (moyenne de la règle 5.7), par exemple "
                   "« Anne:1-40,Marc:41-80 » ; sinon la colonne arbitre de la liste des joueurs")
    p.add_argument("--originale", action="store_true",
                   help="partie originale : la pénalité des avertissements commence au 6e "
                   "(comme en blitz)")
    p.add_argument("--fichier", metavar="PARTIE", help="fichier de la partie (défaut : dans "
                   "$KIOSK_PARTIES ou ~/.local/share/duplicate-kiosk/parties ; avec --base, "
                   "son nom dans la base)")
    base_options(p)
    event_options(p)
    screen_options(p)
    station_options(p)
    p.set_defaults(func=cmd_nouvelle)

    p = sub.add_parser("reprendre", help="reprendre la dernière partie (ou celle nommée)")
    p.add_argument("partie", nargs="?", metavar="PARTIE",
                   help="fichier de la partie (défaut : la plus récente)")
    p.add_argument("--lexique", "--lexicon", dest="lexique", metavar="LISTE",
                   help="liste de mots de la partie")
    p.add_argument("--sans-ecran", action="store_true",
                   help="démonstration seulement : sans fenêtre, écrans en PNG")
    base_options(p)
    screen_options(p)
    station_options(p)
    p.set_defaults(func=cmd_reprendre)

    p = sub.add_parser("demo", help="partie de démonstration jouée toute seule")
    p.add_argument("--seed", "--graine", dest="seed", type=int, default=1, metavar="GRAINE",
                   help="graine (défaut 1) : même graine, même partie")
    p.add_argument("--rapide", action="store_true", help="10 secondes par coup")
    p.add_argument("--sans-ecran", action="store_true",
                   help="sans fenêtre : écrans en PNG, annonces en WAV, temps simulé")
    p.add_argument("--accelere", action="store_true",
                   help="avec la fenêtre mais temps simulé et annonces en WAV")
    p.add_argument("--coups", type=int, default=None, metavar="N", help="arrêter après N coups")
    p.add_argument("--sans-photos", action="store_true",
                   help="bulletins saisis au clavier au lieu d'être photographiés et lus")
    p.add_argument("--sortie", default="out/demo", metavar="DOSSIER",
                   help="dossier des écrans, annonces et résultats (défaut out/demo)")
    p.add_argument("--lexique", "--lexicon", dest="lexique", metavar="LISTE", help="liste de mots")
    p.add_argument("--fichier", metavar="PARTIE", help="fichier de la partie (avec --base, son "
                   "nom dans la base)")
    p.add_argument("--joueurs", metavar="JOUEURS.csv",
                   help="joueurs virtuels de cette liste (défaut : les 16 de la démonstration)")
    base_options(p)
    screen_options(p)
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("lire", help="lire un dossier de photos de bulletins (coup en cours)")
    p.add_argument("dossier", metavar="DOSSIER", help="dossier des photos")
    p.add_argument("--partie", help="fichier de la partie (défaut : la plus récente)")
    p.add_argument("--coup", type=int, metavar="N", help="numéro du coup (défaut : celui dont "
                   "le chrono est lancé, en cours de ramassage)")
    p.add_argument("--poste", default=f"poste-{os.getpid()}", metavar="NOM",
                   help="nom de ce poste d'arbitrage")
    p.add_argument("--lexique", "--lexicon", dest="lexique", metavar="LISTE",
                   help="liste de mots de la partie")
    p.add_argument("--json", action="store_true", help="une ligne JSON par photo")
    p.add_argument("--relire", action="store_true",
                   help="relire aussi les photos déjà lues pour ce coup")
    base_options(p)
    p.set_defaults(func=cmd_lire)

    p = sub.add_parser("sauvegarder", help="copier la partie, même en cours, dans un seul "
                       "fichier (clé USB…)")
    p.add_argument("destination", metavar="DESTINATION",
                   help="fichier ou dossier de la copie (une copie précédente est remplacée)")
    p.add_argument("--partie", help="fichier de la partie (défaut : la plus récente ; avec "
                   "--base, son nom dans la base : la copie est un fichier de partie)")
    base_options(p)
    p.set_defaults(func=cmd_sauvegarder)

    from engine.export import EXPORTERS

    p = sub.add_parser("export", help="écrire les résultats (CSV, HTML, PDF, fédération, Eliot)")
    p.add_argument("--partie", help="fichier de la partie (défaut : la plus récente)")
    p.add_argument("--sortie", metavar="DOSSIER", help="dossier de sortie")
    p.add_argument("--lexique", "--lexicon", dest="lexique", metavar="LISTE",
                   help="liste de mots de la partie")
    p.add_argument("--eliot", action="store_true",
                   help="écrire aussi la partie pour Eliot (XML format 2)")
    p.add_argument("--federation", action="append", choices=sorted(EXPORTERS), metavar="FORMAT",
                   help="fichier fédéral à écrire (défaut sigles) ; " + " ; ".join(
                       f"{e.name} : {e.description}" for e in EXPORTERS.values()))
    event_options(p, export=True)
    base_options(p)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("importer", help="faire une partie du kiosque d'une partie Eliot (XML)")
    p.add_argument("partie_eliot", metavar="PARTIE.xml", help="partie enregistrée par Eliot")
    p.add_argument("--fichier", metavar="PARTIE", help="fichier de la partie créée")
    p.add_argument("--lexique", "--lexicon", dest="lexique", metavar="LISTE",
                   help="liste de mots sur laquelle vérifier les coups")
    event_options(p)
    p.set_defaults(func=cmd_importer)

    p = sub.add_parser("tournoi", help="un tournoi en plusieurs salles sur une base PostgreSQL : "
                       "le créer (--creer) ou voir ses salles")
    p.add_argument("nom", metavar="NOM", help="nom du tournoi")
    p.add_argument("--creer", action="store_true", help="créer le tournoi : le juge-arbitre "
                   "principal tire la partie (--graine) ou charge la partie pré-tirée")
    p.add_argument("--graine", type=int, help="graine des tirages (défaut : au hasard)")
    p.add_argument("--partie-source", metavar="PARTIE", help="partie pré-tirée avec ses tops "
                   "(.json, .xml Eliot ou texte), vérifiée en entier")
    p.add_argument("--temps", choices=list(TIMES), default="3:00",
                   help="temps par coup (défaut 3:00 ; 1:00 = blitz)")
    p.add_argument("--coups", type=int, metavar="N", help="arrêter la partie après N coups")
    p.add_argument("--originale", action="store_true", help="partie originale (pénalité des "
                   "avertissements à partir du 6e)")
    p.add_argument("--lexique", "--lexicon", dest="lexique", metavar="LISTE",
                   help="liste de mots de la partie")
    base_options(p, room=False)
    event_options(p)
    p.set_defaults(func=cmd_tournoi)

    p = sub.add_parser("classement", help="le classement en direct de toutes les salles d'un "
                       "tournoi (par salle et général), avec les fichiers de résultats")
    p.add_argument("--tournoi", metavar="NOM", required=True, help="nom du tournoi")
    p.add_argument("--sortie", metavar="DOSSIER", help="écrire les résultats (général et par "
                   "salle : CSV, HTML, PDF, SIGLES) dans ce dossier")
    p.add_argument("--suivre", type=float, nargs="?", const=5.0, default=None, metavar="SECONDES",
                   help="rester ouvert et mettre à jour à chaque écriture d'une salle (au plus "
                   "toutes les SECONDES, défaut 5) ; Ctrl-C pour finir")
    p.add_argument("--lexique", "--lexicon", dest="lexique", metavar="LISTE",
                   help="liste de mots du tournoi")
    base_options(p, room=False)
    p.set_defaults(func=cmd_classement)
    return parser


def main(argv: list[str] | None = None) -> int:
    from engine.cliparse import printable_streams, quiet_stdout
    from engine.files import FileRefused

    args = build_parser().parse_args(argv)
    printable_streams()
    try:
        return args.func(args)
    except (CliError, FileRefused) as exc:
        print(f"erreur : {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head that closed early
        quiet_stdout()
        return 141
    except KeyboardInterrupt:
        print("interrompu : la partie est enregistrée (kiosk reprendre)", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - never a traceback on the juge-arbitre's screen
        log = _log_unexpected(exc)
        print(f"erreur inattendue du kiosque ({type(exc).__name__}) : ce qui était enregistré "
              f"n'est pas perdu (kiosk reprendre) ; détails pour le support : {log}",
              file=sys.stderr)
        return 3


def _log_unexpected(exc: BaseException) -> Path | str:
    """The traceback of an unexpected error, appended to ``erreurs.log`` by the game files."""
    import traceback

    text = f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} kiosk {' '.join(sys.argv[1:])}\n" + \
        "".join(traceback.format_exception(exc))
    try:
        folder = games_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "erreurs.log"
        with open(path, "a", encoding="utf-8", errors="backslashreplace") as handle:
            handle.write(text)
        return path
    except Exception:  # noqa: BLE001 - no home, read-only disk…: the handler must not fail
        return "journal d'erreurs impossible à écrire"


if __name__ == "__main__":
    sys.exit(main())
