"""The coup's state machine, scripted key by key on a fake clock, with the real journal,
the real speech texts rendered to WAV files and the real renderers drawing headless."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from display.render import render
from display.view import Screen
from kiosk.journal import Journal
from kiosk.machine import Machine
from kiosk.runner import Output
from kiosk.screens import compose
from kiosk.session import Config, Session
from kiosk.views import arbiter_rows, room_view
from kiosk.voice import FileVoice
from speech import texts


class Clock:
    def __init__(self):
        self.now = 500.0

    def __call__(self):
        return self.now



#: what only the console shows, with its resting value
CONSOLE_STATE = {"mode": None, "message": "", "buffer": "", "cursor": 0, "tie_cursor": 0,
                 "arbiter_screen": True, "undo_what": None, "form": None, "zoom": False,
                 "raw_photo": False, "stations_cursor": 0, "stations_revoking": None}


def console_texts(machine) -> set[str]:
    """What only the console may show in this state: help, dialogs, messages, correction, the
    arbiter stations (their panel's texts, join address with its secret, code)."""
    from kiosk.machine import HELP
    from kiosk.screens import _prompt
    from kiosk.stations.panel import panel_texts, stations_view

    texts = {what for _, what in HELP} | set(_prompt(machine))
    texts |= panel_texts(stations_view(machine.session))
    if machine.message:
        texts.add(machine.message)
    if machine.step == "correction":
        texts.add(f"Correction du coup {machine.session.coup.number}")
    return {t for t in texts if t}


def check_room_free_of_console(machine) -> None:
    """The room view is the same whatever the console shows (dialog, help, message, tie
    chooser, correction), and none of the console's texts is drawn on the room."""
    saved = {name: getattr(machine, name) for name in CONSOLE_STATE}
    seen = room_view(machine)
    for name, value in CONSOLE_STATE.items():
        setattr(machine, name, value)
    try:
        assert room_view(machine) == seen, f"the room depends on the console ({saved})"
    finally:
        for name, value in saved.items():
            setattr(machine, name, value)
    forbidden = console_texts(machine)
    drawn = {text for text, _ in render(seen, ROOM_SURFACE()).texts}
    assert not drawn & forbidden, drawn & forbidden
    secret = (machine.session.network or {}).get("cle")
    if secret:  # the join secret (and its code) nowhere on the room, not even inside a text
        code = machine.session.network["code"]
        assert not [t for t in drawn if secret in t or code in t], drawn
    assert "Touches du juge-arbitre" not in drawn and "Tops à égalité" not in " ".join(drawn)


def ROOM_SURFACE():  # noqa: N802 - a small room, made once
    if not hasattr(ROOM_SURFACE, "surface"):
        pygame.font.init()
        ROOM_SURFACE.surface = pygame.Surface((800, 450))
    return ROOM_SURFACE.surface


@pytest.fixture(autouse=True)
def room_never_shows_the_console(monkeypatch):
    """Every state each scripted game below goes through (after every key) is checked."""
    original = Machine.key
    checked = []

    def key(self, name, text=""):
        original(self, name, text)
        check_room_free_of_console(self)
        checked.append(name)

    monkeypatch.setattr(Machine, "key", key)
    yield checked


def start(tmp_path, lexicon, **config):
    journal = Journal.create(tmp_path / "p.partie", {"lexicon_sha256": lexicon.sha256})
    session = Session(journal, lexicon)
    players = [{"table": t, "name": f"Joueur {t}"} for t in (1, 2, 3)]
    session.record("partie", Config(**{"seed": 11, "seconds": 180, "warning": 30,
                                       "players": players, **config}).to_dict())
    clock = Clock()
    return Machine(session, clock), clock


def go_to_correction(machine, clock):
    """Space through tirage, annonce and chrono, let the time run out, then ramassage and top."""
    for _ in range(3):
        machine.key("space")
    clock.now += 181
    machine.tick()
    machine.key("space")
    machine.key("space")


def type_text(machine, text):
    """Characters as the window sends them; a circled letter (lower case) is ? then the letter."""
    for ch in text:
        if ch.islower():
            machine.key("/", "?")
        machine.key(ch.lower() if ch.isalpha() else ch, ch)


def kinds(machine):
    return [e.kind + (":" + e.data["step"] if e.kind == "etape" else "")
            for e in machine.session.journal.events()]


def test_full_game_screens_announcements_journal(tmp_path, lexicon):
    machine, clock = start(tmp_path, lexicon, seconds=60, warning=20, max_coups=3)
    voice = FileVoice(tmp_path / "son", cache_dir=tmp_path / "cache")
    output = Output(machine, voice)
    pygame.font.init()
    surface = pygame.Surface((800, 450))
    screens = []

    def show():
        screens.append(compose(machine, surface))
        output.apply(machine.take_effects())

    show()
    for _ in range(60):
        if machine.step == "fin":
            break
        if machine.step == "chrono":
            clock.now += 41
            machine.tick()
            show()
            clock.now += 20
            machine.tick()
            show()
            continue
        if machine.step == "correction":
            machine.key("o")  # top à tous les joueurs restants
        machine.key("space")
        show()
    assert machine.step == "fin"
    per_coup = ["coup", "coup", "coup", "coup", "coup", "annonce", "correction"]
    assert screens[0] == "accueil"
    assert screens[1:1 + 3 * len(per_coup)] == per_coup * 3
    assert screens[-1] == "fin"
    # announcements in the order of the procedure, the calls at their seconds
    spoken = voice.spoken
    game = machine.session.game
    first = game.coups[0]
    assert spoken[0] == f"{texts.coup(1)}. {texts.draw(first.new_letters, first.tirage)}"
    assert spoken[1:4] == ["Chrono", "Vingt secondes", "Terminé"]
    assert spoken[4] == texts.top(first.top)
    assert spoken[-1].startswith(texts.end_of_game(game.total_score))
    assert len(voice.written) == len(spoken) and all(p.stat().st_size > 1000 for p in voice.written)
    # journal: every step, every call, every top
    coup = ["tirage", "etape:annonce", "etape:chrono", "appel", "appel", "appel",
            "etape:ramassage", "top", "etape:correction", "top_tous"]
    assert kinds(machine) == ["partie"] + coup * 3 + ["fin"]
    results = machine.session.results
    assert [s.total for s in results.ranking()] == [game.total_score] * 3


def test_countdown_calls_and_display_agree(tmp_path, lexicon):
    machine, clock = start(tmp_path, lexicon)
    machine.key("space")
    machine.key("space")
    machine.key("space")  # chrono
    assert machine.step == "chrono"
    assert [e.text for e in machine.take_effects() if e.kind == "appel"] == ["Chrono"]
    clock.now += 149.9
    machine.tick()
    assert machine.take_effects() == []
    assert room_view(machine).countdown.text == "0:31"
    clock.now += 0.1
    machine.tick()
    assert [e.text for e in machine.take_effects()] == ["Trente secondes"]
    assert room_view(machine).countdown.text == "0:30"
    machine.key("p")  # pause: time stands still, greyed, « PAUSE » beside it
    clock.now += 500
    machine.tick()
    paused = room_view(machine).countdown
    assert (paused.text, paused.label, paused.state) == ("0:30", "PAUSE", "pause")
    machine.key("p")
    clock.now += 29.99
    machine.tick()
    assert machine.step == "chrono" and room_view(machine).countdown.text == "0:01"
    clock.now += 0.01
    machine.tick()
    assert machine.step == "ramassage"
    assert room_view(machine).countdown.text == "Terminé"
    calls = [e.data for e in machine.session.journal.events() if e.kind in ("appel", "chrono")
             and e.data.get("action") != "temps"]  # (the second reached, journaled for crashes)
    assert [c.get("name") or c["action"] for c in calls] == \
        ["chrono", "avertissement", "pause", "reprise", "terminé"]
    assert calls[1]["elapsed"] == pytest.approx(150.0)


def test_reject_manual_ties_repeat_undo_help_quit(tmp_path, lexicon):
    machine, clock = start(tmp_path, lexicon)
    machine.key("space")
    letters = machine.session.coup.tirage
    machine.key("r")
    machine.key("o")  # a valid tirage: rejected once confirmed
    assert room_view(machine).screen is Screen.REJET
    assert room_view(machine).new_letters == letters
    assert machine.take_effects()[0].text.startswith("Tirage rejeté")
    assert machine.session.coup.rejections[-1] == letters
    machine.key("space")  # the juge-arbitre chose a new random tirage
    assert room_view(machine).screen is Screen.COUP and machine.session.coup.tirage
    # manual tirage refused while a tirage is on: reject, then type one
    machine.key("m")
    assert machine.mode is None and "rejeter" in machine.message
    machine.session.record("rejet", {"reason": "lettres mal tirées"})
    machine.key("m")
    assert machine.mode == "manuel"
    for ch in "eaZ?s":  # too few letters: refused, nothing written
        machine.key(ch.lower(), ch)
    machine.key("return")
    assert "il manque des lettres" in machine.message and machine.mode is None
    machine.key("m")
    for ch in "eaZ?str":
        machine.key(ch.lower(), ch)
    machine.key("return")
    assert machine.session.coup.tirage == "EAZ?STR"
    assert "R pour le rejeter" not in machine.message  # 2 vowels + 2 consonants: valid
    machine.key("space")
    assert machine.step == "annonce"
    said = machine.take_effects()[-1].text
    machine.key("a")
    assert [e.text for e in machine.take_effects()] == [said]
    # undo with confirmation: a refusal keeps the step, "o" goes back
    machine.key("u")
    machine.key("n")
    assert machine.step == "annonce"
    machine.key("u")
    from kiosk.screens import _prompt

    assert _prompt(machine)[0] == "Annuler la dernière étape : étape « annonce » ?"
    machine.key("o")
    assert machine.step == "tirage" and "annulé" in machine.message
    assert machine.session.journal.events()[-1].kind == "annule"
    # help overlay and quit confirmation
    machine.key("h")
    assert machine.mode == "aide"
    machine.key("h")
    machine.key("escape")
    assert machine.mode == "quitter"
    machine.key("n")
    assert not any(e.kind == "quitter" for e in machine.take_effects())
    machine.key("escape")
    machine.key("o")
    assert [e.kind for e in machine.take_effects()] == ["quitter"]


def test_tied_tops_choice_is_journaled(tmp_path, lexicon):
    machine, clock = start(tmp_path, lexicon, draw_mode="manuel")
    machine.key("space")
    assert machine.mode == "manuel"
    for ch in "AEINRST":  # many scrabbles score the same on an empty board
        machine.key(ch.lower(), ch)
    machine.key("return")
    machine.key("space")
    machine.key("space")
    clock.now += 181
    machine.tick()
    assert machine.step == "ramassage"
    tops = machine.ties()
    assert len(tops) >= 2
    machine.key("t")
    assert machine.mode == "egalite"
    machine.key("2", "2")
    machine.key("return")
    machine.key("space")
    assert machine.session.coup.top == tops[1]
    assert room_view(machine).last_top.word == tops[1].word


def test_correction_mode_lists_confidences_and_edits(tmp_path, lexicon):
    machine, clock = start(tmp_path, lexicon)
    go_to_correction(machine, clock)
    assert machine.step == "correction"
    top = machine.session.coup.top
    seq = machine.add_reading({"coup": 1, "photo": "p1.jpg", "status": "a_verifier",
                               "message": "à vérifier", "fields": {
                                   "table": {"value": 2, "confidence": 0.99},
                                   "word": {"value": top.word, "confidence": 0.97},
                                   "ref": {"value": str(top.ref), "confidence": 0.95},
                                   "score": {"value": top.score + 1, "confidence": 0.41,
                                             "pourquoi": "case douteuse"}}})
    rows = arbiter_rows(machine)
    assert rows[0].label == "à confirmer" and rows[0].selected
    low = [cell.name for cell in rows[0].fields if cell.low]
    assert low == ["score"]
    # the reader's reason comes with the doubtful field, and only with it
    assert [cell.why for cell in rows[0].fields] == ["", "", "", "case douteuse"]
    assert rows[0].decision.startswith("avertissement")
    machine.key("e")  # the form opens on the doubtful field, the score
    assert machine.form.name == "score"
    for ch in str(top.score):
        machine.key(ch, ch)
    machine.key("return")
    assert machine.session.pending[seq].fields["score"]["value"] == top.score
    machine.key("return")  # confirm
    assert machine.session.results.decision(2, 1).outcome.value == "ok"
    # a bulletin typed at the kiosk: N, then each field (Tab moves to the next), Enter saves
    machine.key("n")
    assert machine.mode == "edition"
    for i, text in enumerate(("1", top.word, str(top.ref), "7")):
        if i:
            machine.key("tab")
        type_text(machine, text)
    machine.key("return")
    assert machine.mode is None
    typed = machine.selected_reading()
    assert typed.bulletin_dict() == {"table": 1, "word": top.word, "ref": str(top.ref),
                                     "score": 7, "coup": 1}
    machine.key("return")
    assert machine.session.results.decision(1, 1).outcome.value == "avertissement"
    machine.key("o")
    assert machine.session.missing_tables(1) == []
    # an arbiter's decision on a recorded result: table 3 (third row), zero with a reason
    machine.key("down")
    machine.key("down")
    assert machine.selected_table() == 3
    assert [r.selected for r in arbiter_rows(machine)] == [False, False, True]
    machine.key("e")
    for ch in "zero":
        machine.key(ch, ch)
    machine.key("return")
    assert "motivée" in machine.message
    machine.key("e")
    for ch in "zero bulletin rendu en retard":
        machine.key("space" if ch == " " else ch, ch)
    machine.key("return")
    decision = machine.session.results.decision(3, 1)
    assert decision.outcome.value == "zero" and decision.score == 0
    assert machine.session.results.history(3, 1)[0].source == "top"  # the original stays
    kinds = [e.kind for e in machine.session.journal.events()]
    assert kinds[kinds.index("lecture"):] == ["lecture", "edition", "bulletin", "lecture",
                                              "bulletin", "top_tous", "modif"]
    # the same state comes back from the journal alone
    again = Session(machine.session.journal, lexicon)
    assert again.results.to_dict() == machine.session.results.to_dict()
    assert again.step == "correction"


def test_tirages_replayed_from_a_saved_game(tmp_path, lexicon):
    from engine.selfplay import self_play

    source = self_play(21, lexicon)
    machine, clock = start(tmp_path, lexicon, draw_mode="fichier", source=source.to_dict(),
                           max_coups=4)
    for _ in range(40):
        if machine.step == "fin":
            break
        if machine.step == "chrono":
            clock.now += 181
            machine.tick()
        machine.key("space")
    game = machine.session.game
    assert machine.step == "fin" and len(game.coups) == 4
    assert [c.tirage for c in game.coups] == [c.tirage for c in source.coups[:4]]
    assert [c.top for c in game.coups] == [c.top for c in source.coups[:4]]


def test_resume_between_termine_and_ramassage(tmp_path, lexicon):
    """A crash right after "Terminé" was journaled: the resumed kiosk goes on to the ramassage."""
    machine, clock = start(tmp_path, lexicon, seconds=60, warning=20)
    for _ in range(3):
        machine.key("space")
    session = machine.session
    for name, elapsed in (("avertissement", 40.0), ("terminé", 60.0)):
        session.record("appel", {"name": name, "elapsed": elapsed})
    resumed = Machine(Session(session.journal, lexicon), clock)
    assert resumed.step == "chrono"
    resumed.tick()
    assert resumed.step == "ramassage" and resumed.take_effects() == []
    assert [e.kind for e in session.journal.events()][-2:] == ["appel", "etape"]


def test_manual_tirage_prompt_names_the_reliquat_and_an_eighth_letter_is_refused(tmp_path,
                                                                                  lexicon):
    from kiosk.screens import _prompt

    machine, clock = start(tmp_path, lexicon, draw_mode="manuel")
    machine.key("space")
    assert "reliquat" not in _prompt(machine)[0]  # first coup: the 7 letters
    for ch in "KWZAEIOU":
        machine.key(ch.lower(), ch)
    assert machine.buffer == "KWZAEIO" and "7 lettres au plus" in machine.message
    machine.key("return")
    machine.key("space")
    machine.key("space")
    clock.now += 181
    machine.tick()
    machine.key("space")  # the top
    machine.key("space")  # correction
    machine.key("o")  # the top to every player
    machine.key("space")  # next coup: the juge-arbitre types it
    assert machine.mode == "manuel"
    reliquat = machine.session.game.reliquat
    assert reliquat and machine.manual_reliquat() == reliquat
    head = _prompt(machine)[0]
    assert f"reliquat {reliquat}" in head and f"les {7 - len(reliquat)} nouvelles" in head


def test_edited_field_message_agrees_in_french(tmp_path, lexicon):
    machine, clock = start(tmp_path, lexicon)
    go_to_correction(machine, clock)
    machine.key("n")
    machine.key("1", "1")
    machine.key("return")
    assert machine.message.startswith("bulletin saisi : zéro 0 proposé")
    machine.key("e")
    machine.key("2", "2")
    machine.key("return")
    assert machine.message.startswith("enregistré (table) : ")  # not « table corrigé »


def test_quitting_during_the_chrono_keeps_its_second(tmp_path, lexicon):
    machine, clock = start(tmp_path, lexicon)
    for _ in range(3):
        machine.key("space")
    assert machine.step == "chrono"
    clock.now += 50
    machine.tick()
    machine.key("escape")
    machine.key("o")
    assert [e.kind for e in machine.take_effects()][-1] == "quitter"
    machine.session.journal.close()
    journal = Journal.open(tmp_path / "p.partie")
    resumed = Machine(Session(journal, lexicon), clock)
    assert resumed.step == "chrono" and resumed.countdown.paused
    assert resumed.countdown.remaining(clock.now) == pytest.approx(130)  # not 3:00 again
    assert "chrono en pause à 2:10" in resumed.message  # the room shows « Pause » alone
    journal.close()


def test_a_refused_bulletin_stays_listed_to_be_fixed_and_outcomes_are_french(tmp_path,
                                                                              lexicon):
    machine, clock = start(tmp_path, lexicon)
    go_to_correction(machine, clock)
    top = machine.session.coup.top

    def typed(table, word):
        machine.key("n")
        for i, value in enumerate((str(table), word, str(top.ref), str(top.score))):
            if i:
                machine.key("tab")
            type_text(machine, value)
        machine.key("return")  # the form saved: one event
        machine.key("return")  # confirmed

    typed(9, top.word)  # a table not in the game: kept, to be corrected
    assert "table 9 inconnue" in machine.message and len(machine.pending()) == 1
    machine.key("e")
    machine.key("1", "1")  # the field was selected: the 1 replaces the 9, the rest is kept
    machine.key("return")
    assert machine.pending()[0].fields["word"]["value"] == top.word
    assert machine.pending()[0].fields["table"]["value"] == 1 and machine.mode is None
    machine.key("return")
    assert not machine.pending() and "table 1 : OK" in machine.message
    typed(1, top.word)  # the same table twice: kept, not thrown away
    assert "déjà un résultat" in machine.message and len(machine.pending()) == 1
    assert [e.kind for e in machine.session.journal.events()[-3:]] == ["edition", "bulletin",
                                                                        "lecture"]
    machine.key("e")
    machine.key("2", "2")
    machine.key("return")
    machine.key("return")
    assert machine.session.results.decision(2, 1).outcome.value == "ok"
    typed(3, "XQZW")
    assert machine.message.startswith("table 3 : zéro, 0 points")
    assert [r.decision for r in arbiter_rows(machine)][-1] == "zéro 0"


def test_every_tied_top_is_selectable(tmp_path, lexicon):
    from kiosk.console import console_view

    machine, clock = start(tmp_path, lexicon, draw_mode="manuel")
    machine.key("space")
    for ch in "??LMRTE":  # two jokers: dozens of tied tops
        machine.key(ch.lower(), ch)
    machine.key("return")
    machine.key("space")
    machine.key("space")
    clock.now += 181
    machine.tick()
    tops = machine.ties()
    assert len(tops) > 12
    machine.key("t")
    chooser = console_view(machine).overlay
    assert chooser.kind == "egalite" and len(chooser.moves) == len(tops)  # all of them
    assert [m.word for m in chooser.moves] == [m.word for m in tops]
    machine.key("1", "1")
    machine.key("2", "2")  # the twelfth: a number past 9
    assert machine.tie_cursor == 11
    machine.key("return")
    assert machine.session.top_choice == 11 and machine.mode is None
    machine.key("t")
    assert machine.tie_cursor == 11  # the chooser opens on the choice made
    machine.key("end")  # the last one, by scrolling
    assert machine.tie_cursor == len(tops) - 1
    machine.key("page up")
    assert machine.tie_cursor == len(tops) - 11
    pygame.font.init()
    surface = pygame.Surface((1366, 768))
    compose(machine, surface)  # the list scrolled to the cursor: its line is drawn
    machine.key("escape")
    assert machine.session.top_choice == 11 and "inchangé" in machine.message
    machine.key("space")
    assert machine.session.coup.top == tops[11]


def test_selected_bulletin_reasons_are_written_full_size(tmp_path, lexicon):
    from display import fonts
    from kiosk.screens import _wrap

    pygame.font.init()
    reasons = ("place du joker incertaine : position la moins avantageuse retenue; "
               "joker non entouré; score absent")
    lines = _wrap(reasons, 20, 300)
    assert len(lines) > 1 and " ".join(lines) == reasons
    assert all(fonts.font(20).size(text)[0] <= 300 for text in lines)
    machine, clock = start(tmp_path, lexicon)
    go_to_correction(machine, clock)
    machine.key("n")
    machine.key("escape")
    assert arbiter_rows(machine)[0].selected
    compose(machine, pygame.Surface((1024, 768)))


def test_leaving_correction_with_work_left_asks_twice_and_late_readings_stay_listed(tmp_path,
                                                                                    lexicon):
    machine, clock = start(tmp_path, lexicon)
    go_to_correction(machine, clock)
    top = machine.session.coup.top
    machine.add_reading({"coup": 1, "photo": "t1.jpg", "status": "ok", "message": "bulletin lu",
                         "fields": {"table": {"value": 1, "confidence": 0.99},
                                    "word": {"value": top.word, "confidence": 0.99},
                                    "ref": {"value": str(top.ref), "confidence": 0.99},
                                    "score": {"value": top.score, "confidence": 0.99}}})
    machine.key("space")  # 1 bulletin waiting, 3 players without a result: said, not done
    assert machine.session.coup.number == 1
    assert "1 bulletin(s) à confirmer" in machine.message
    assert "3 joueur(s) sans résultat" in machine.message
    machine.key("down")  # another key: the warning starts over
    machine.key("m")  # a typed tirage for the next coup is warned about too
    assert machine.mode is None and "1 bulletin(s) à confirmer" in machine.message
    machine.key("down")
    machine.key("space")
    assert machine.session.coup.number == 1
    machine.key("space")  # twice: on to the next coup
    assert machine.session.coup.number == 2
    for _ in range(2):
        machine.key("space")
    clock.now += 181
    machine.tick()
    machine.key("space")
    machine.key("space")
    assert machine.step == "correction"
    rows = arbiter_rows(machine)  # coup 1's bulletin is still there, said to be coup 1's
    assert rows[0].label == "à confirmer" and "coup 1" in rows[0].status
    machine.key("return")
    assert machine.session.results.decision(1, 1).outcome.value == "ok"
    machine.key("o")
    assert machine.session.missing_tables(2) == []


def test_a_crash_during_the_chrono_costs_at_most_a_few_seconds(tmp_path, lexicon):
    from kiosk.machine import CHECKPOINT_SECONDS

    machine, clock = start(tmp_path, lexicon)
    for _ in range(3):
        machine.key("space")
    for _ in range(100):  # the room loop ticks many times a second; here once a second
        clock.now += 1
        machine.tick()
    # kill -9: nothing more is written; a new kiosk reads the file
    journal = Journal.open(tmp_path / "p.partie")
    resumed = Machine(Session(journal, lexicon), clock)
    left = resumed.countdown.remaining(clock.now)
    assert 80 <= left <= 80 + CHECKPOINT_SECONDS  # not 3:00, not the 0:30 call's second
    marks = [e for e in journal.events() if e.kind == "chrono"]
    assert len(marks) <= 100 / CHECKPOINT_SECONDS + 1
    journal.close()


def test_a_reading_taken_twice_can_be_set_aside(tmp_path, lexicon):
    machine, clock = start(tmp_path, lexicon)
    go_to_correction(machine, clock)
    top = machine.session.coup.top
    fields = {"table": {"value": 1, "confidence": 0.99},
              "word": {"value": top.word, "confidence": 0.99},
              "ref": {"value": str(top.ref), "confidence": 0.99},
              "score": {"value": top.score, "confidence": 0.99}}
    for photo in ("t1.jpg", "t1-bis.jpg"):
        machine.add_reading({"coup": 1, "photo": photo, "status": "ok", "message": "lu",
                             "fields": fields})
    machine.key("return")
    assert len(machine.pending()) == 1
    machine.key("delete")
    machine.key("n")  # not confirmed: kept
    assert len(machine.pending()) == 1 and machine.message == "bulletin gardé"
    machine.key("delete")
    machine.key("o")
    assert machine.pending() == [] and "écarté" in machine.message
    assert machine.session.journal.events()[-1].kind == "ecarte"
    again = Session(Journal.open(tmp_path / "p.partie"), lexicon)  # the same after a resume
    assert not again.pending and again.results.decision(1, 1).outcome.value == "ok"
    again.journal.close()
    pygame.font.init()
    machine.mode = "aide"
    compose(machine, pygame.Surface((1024, 768)))


def test_top_to_all_leaves_out_a_table_whose_bulletin_waits(tmp_path, lexicon):
    machine, clock = start(tmp_path, lexicon)
    go_to_correction(machine, clock)
    top = machine.session.coup.top
    machine.add_reading({"coup": 1, "photo": "t2.jpg", "status": "ok", "message": "lu",
                         "fields": {"table": {"value": 2, "confidence": 0.99},
                                    "word": {"value": top.word, "confidence": 0.99},
                                    "ref": {"value": str(top.ref), "confidence": 0.99},
                                    "score": {"value": top.score - 1, "confidence": 0.99}}})
    machine.key("o")
    assert machine.session.missing_tables(1) == [2]
    assert "1 joueur(s) ont un bulletin à confirmer" in machine.message
    machine.key("return")  # table 2's bulletin decides: a warning, not the top
    assert machine.session.results.decision(2, 1).outcome.value == "avertissement"


def test_the_stations_panel_is_the_consoles_never_the_rooms(tmp_path, lexicon):
    """Q opens the stations panel (QR code, address, code, stations) on the console; every
    key below is checked by the fixture: the room view and its texts never change with it.
    The console's pixels hold a QR code that scans to the join link; the room's none."""

    from display.console import draw_console
    from kiosk.console import console_view
    from kiosk.stations.hub import Hub

    machine, clock = start(tmp_path, lexicon)
    hub = Hub(Session(Journal.open(tmp_path / "p.partie", station="postes"), lexicon),
              tmp_path / "photos")
    link = hub.open("127.0.0.1", 8765, "127.0.0.1")["lien"]
    for name, token in (("Anne", "a" * 40), ("Marc", "m" * 40)):
        hub.join(name, token, secret=hub.session.network["cle"])
    hub.set_block(hub.station_for("a" * 40), {"de": 1, "a": 2})
    go_to_correction(machine, clock)
    machine.session.sync()
    pygame.font.init()
    console, room = pygame.Surface((1366, 768)), pygame.Surface((1280, 720))

    from two_screens import scan  # what a phone's camera reads

    view = console_view(machine)
    assert view.stations.startswith("postes : 2 · coup 1 : 0 / 3 corrigés")  # the footer
    machine.key("q")
    view = console_view(machine)
    assert machine.mode == "postes" and view.overlay.kind == "postes"
    texts = draw_console(view, console)
    assert any(t.startswith("Anne · tables 1 à 2 · il y a ") for t in texts)
    assert any(t.startswith("Marc · toutes · ") for t in texts)
    assert f"code {machine.session.network['code']}" in texts
    assert scan(console) == link  # a phone's camera gets the join link with the secret
    render(room_view(machine), room)
    assert scan(room) == ""  # the projector never shows it
    machine.key("down")  # Marc
    machine.key("delete")
    assert "Retirer le poste de Marc ?" in console_view(machine).overlay.title
    machine.key("o")
    assert machine.message.startswith("poste de Marc retiré")
    assert [line for line in console_view(machine).overlay.lines if "Marc" in line] == []
    machine.key("escape")
    assert machine.mode is None
    # a phone confirms a bulletin: the console shows it at its next look at the journal
    top = machine.session.coup.top
    fields = {name: {"value": value, "confidence": 0.99} for name, value in
              (("table", 2), ("word", top.word), ("ref", str(top.ref)), ("score", top.score))}
    seq = machine.add_reading({"coup": 1, "photo": None, "status": "ok", "message": "lu",
                               "fields": fields})
    hub.sync()
    hub.act(hub.station_for("a" * 40), seq, {"id": "action-anne-0001", "action": "confirmer",
                                             "version": hub.session.pending[seq].changed})
    before = console_view(machine)
    machine.session.sync()  # what the kiosk's loop does every half second
    after = console_view(machine)
    assert after != before and "coup 1 : 1 / 3 corrigés" in after.stations
    assert machine.session.confirmed_by[(1, 2)] == "p1"
    hub.session.journal.close()
