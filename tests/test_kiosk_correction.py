"""The correction station, point by point (issue 13): keys through the state machine, the real
journal, the real reader on generated photos, the screen drawn headless and its pixels checked."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import numpy as np
import pygame
import pytest

from kiosk.cli import CliError, assign_arbiters, main
from kiosk.correction_screen import LOW, Metrics, draw_arbiter, wrap
from kiosk.journal import Journal
from kiosk.machine import Machine
from kiosk.reading import bulletin_image, collecting_coup, read_photo
from kiosk.screens import _prompt
from kiosk.session import Config, Session
from kiosk.views import arbiter_rows
from vision.synth import BulletinContent, render_bulletin, render_table


class Clock:
    def __init__(self):
        self.now = 500.0

    def __call__(self):
        return self.now



def start(tmp_path, lexicon, tables=(1, 2, 3), arbiters=None, **config):
    journal = Journal.create(tmp_path / "p.partie", {"lexicon_sha256": lexicon.sha256})
    session = Session(journal, lexicon)
    players = [{"table": t, "name": f"Joueur {t}", "arbiter": (arbiters or {}).get(t)}
               for t in tables]
    session.record("partie", Config(**{"seed": 11, "seconds": 180, "warning": 30,
                                       "players": players, **config}).to_dict())
    clock = Clock()
    return Machine(session, clock), clock


def to_chrono(machine):
    for _ in range(3):  # tirage, annonce, chrono
        machine.key("space")
    assert machine.step == "chrono"


def to_correction(machine, clock):
    """From the chrono's start (or before it) to the correction step of that coup."""
    if machine.step != "chrono":
        to_chrono(machine)
    clock.now += 181
    machine.tick()
    machine.key("space")  # the top
    machine.key("space")  # correction
    assert machine.step == "correction"


def next_coup(machine):
    machine.key("space")
    if machine.step == "correction":  # a warning first (work left): Space again
        machine.key("space")


def type_text(machine, text):
    """Characters as the window sends them; a circled letter (lower case) is ? then the letter."""
    for ch in text:
        if ch.islower():
            machine.key("/", "?")
        machine.key(ch.lower() if ch.isalpha() else ch, ch)


def reading(coup, table, word, ref, score, confidence=0.99, **more):
    fields = {"table": {"value": table, "confidence": confidence},
              "word": {"value": word, "confidence": confidence},
              "ref": {"value": ref, "confidence": confidence},
              "score": {"value": score, "confidence": confidence}}
    return {"coup": coup, "photo": more.pop("photo", f"t{table}.jpg"), "status": "ok",
            "message": "bulletin lu", "fields": fields, **more}


def photo(folder, name, table, word, ref, score, seed=1):
    jpeg, _ = render_bulletin(BulletinContent(table, word, str(ref), score), seed=seed)
    path = folder / name
    path.write_bytes(jpeg)
    return path


def events(machine, kind=None):
    found = machine.session.journal.events()
    return [e for e in found if kind is None or e.kind == kind]


def test_lire_a_photo_of_several_bulletins_gives_one_reading_each(tmp_path, lexicon, monkeypatch,
                                                                 capsys):
    monkeypatch.setenv("KIOSK_PARTIES", str(tmp_path))
    machine, clock = start(tmp_path, lexicon)
    to_correction(machine, clock)
    s = machine.session
    top = s.coup.top
    folder = tmp_path / "photos"
    folder.mkdir()
    jpeg, _ = render_table([BulletinContent(t, top.word, str(top.ref), top.score)
                            for t in (1, 2, 2)], seed=4)
    (folder / "table.jpg").write_bytes(jpeg)
    assert main(["lire", str(folder), "--partie", str(tmp_path / "p.partie")]) == 0
    out = capsys.readouterr().out
    assert "1 photo(s) lue(s) (3 bulletins) pour le coup 1" in out
    assert all(f"table.jpg (bulletin {k}/3) : " in out for k in (1, 2, 3))
    s.sync()
    waiting = sorted(s.pending.values(), key=lambda r: r.seq)
    assert [r.sheet for r in waiting] == [(1, 3), (2, 3), (3, 3)]
    assert [r.fields["table"]["value"] for r in waiting] == [1, 2, 2]
    assert all(r.bulletin_dict()["word"] == top.word for r in waiting)
    notes = {row.seq: " ; ".join(row.notes) for row in arbiter_rows(machine) if row.seq}
    assert "bulletin 2 sur 3 de la même photo" in notes[waiting[1].seq]
    assert "en double" not in notes[waiting[1].seq]  # the first of table 2
    assert "un autre bulletin de la table 2 attend : en double ?" in notes[waiting[2].seq]
    image = bulletin_image(waiting[2].photo, 3)  # the correction screen: that bulletin
    assert not isinstance(image, str) and image.rgb is not None and not image.problem
    assert main(["lire", str(folder), "--partie", str(tmp_path / "p.partie")]) == 0
    assert "0 photo(s) lue(s) pour le coup 1" in capsys.readouterr().out  # read once


# -- point 1 -------------------------------------------------------------------------------------
def test_point1_lire_reads_against_the_coup_being_collected_and_asks_coup_precedent(
        tmp_path, lexicon, monkeypatch, capsys):
    monkeypatch.setenv("KIOSK_PARTIES", str(tmp_path))
    machine, clock = start(tmp_path, lexicon)
    path = str(tmp_path / "p.partie")
    to_correction(machine, clock)
    s = machine.session
    first = s.coup.top
    # coup 1: the top to tables 2 and 3 (T on their lines); table 1's bulletin comes late
    assert [(r.kind, r.table) for r in arbiter_rows(machine)] == [("sans", 1), ("sans", 2),
                                                                  ("sans", 3)]
    machine.key("down")
    machine.key("t")
    machine.key("down")
    machine.key("t")
    assert s.missing_tables(1) == [1]
    next_coup(machine)
    assert s.coup.number == 2 and s.step == "tirage"
    assert collecting_coup(s) == 1  # the next chrono has not started: still coup 1's bulletins
    machine.key("space")  # announced, chrono not yet started
    assert s.step == "annonce" and collecting_coup(s) == 1
    machine.key("space")  # chrono of coup 2: its bulletins are read from now on
    assert collecting_coup(s) == 2
    folder = tmp_path / "photos"
    folder.mkdir()
    moves, tops = s.moves(2)  # the board before the coup and the tirage: every legal move
    best = tops[0]
    photo(folder, "a-table2.jpg", 2, best.word, best.ref, best.score, seed=3)
    photo(folder, "b-table1.jpg", 1, first.word, first.ref, first.score, seed=4)  # coup 1's
    assert main(["lire", str(folder), "--partie", path, "--poste", "p2"]) == 0
    out = capsys.readouterr().out
    assert "2 photo(s) lue(s) pour le coup 2" in out
    assert "b-table1.jpg : coup précédent ?" in out and "a-table2.jpg : coup précédent" not in out
    s.sync()
    late, right = sorted(s.pending.values(), key=lambda r: r.photo)[::-1]
    assert right.coup == 2 and right.neighbour is None
    assert right.bulletin_dict()["word"] == best.word
    # never filed under another coup by the reader: it waits, listed under coup 2
    assert late.coup == 2 and late.neighbour["coup"] == 1
    to_correction(machine, clock)
    rows = arbiter_rows(machine)
    assert any("coup précédent ?" in " ".join(r.notes) for r in rows if r.seq == late.seq)
    machine.cursor = [r.seq for r in machine.pending()].index(late.seq)
    machine.key("return")  # Enter asks which coup first, records nothing
    assert machine.mode == "voisin" and "coup 1" in " ".join(_prompt(machine))
    assert not events(machine, "classement")
    machine.key("p")  # filed under coup 1, with what was read against coup 1's moves
    assert [e.data for e in events(machine, "classement")] == [{"lecture": late.seq, "coup": 1}]
    filed = s.pending[late.seq]
    assert filed.coup == 1 and filed.bulletin_dict()["word"] == first.word
    machine.key("return")
    decision = s.results.decision(1, 1)
    assert decision.outcome.value == "ok" and decision.score == first.score
    # read again from the start: the photos already read are skipped, whatever their coup
    assert main(["lire", str(folder), "--partie", path, "--poste", "p2"]) == 0
    assert "0 photo(s) lue(s)" in capsys.readouterr().out
    # before any chrono: a clear French refusal
    (tmp_path / "x").mkdir()
    other, _ = start(tmp_path / "x", lexicon)
    other.key("space")
    other.session.journal.close()
    assert main(["lire", str(folder), "--partie", str(tmp_path / "x" / "p.partie")]) == 2
    assert "aucun chrono encore lancé" in capsys.readouterr().err


def test_a_photo_filed_under_the_coup_before_asks_coup_suivant(tmp_path, lexicon):
    """The race at a coup change: a phone still showing coup 1 photographs a coup 2 bulletin
    (the juge-arbitre has just started coup 2's chrono). Read against coup 1, it fits coup 2:
    « coup suivant ? », never filed by the reader alone; S files it under coup 2."""
    machine, clock = start(tmp_path, lexicon)
    to_correction(machine, clock)
    s = machine.session
    machine.key("o")  # the top to everybody: coup 1 is done
    next_coup(machine)
    to_chrono(machine)  # coup 2's chrono: its tirage is out
    best = s.moves(2)[1][0]
    path = photo(tmp_path, "table2-coup2.jpg", 2, best.word, best.ref, best.score, seed=9)
    data = read_photo(path, s, 1)  # filed under the coup the phone showed
    assert data["coup"] == 1 and data["voisin"]["coup"] == 2, data.get("message")
    assert data["message"].startswith("coup suivant ?") and data["status"] == "a_verifier"
    # a coup 2 bulletin filed under coup 2 fits there: no question
    assert "voisin" not in read_photo(path, s, 2)
    seq = machine.add_reading(data)
    to_correction(machine, clock)
    late = s.pending[seq]
    assert late.coup == 1 and late.neighbour["coup"] == 2
    rows = arbiter_rows(machine)
    assert any("coup suivant ?" in " ".join(r.notes) for r in rows if r.seq == seq)
    machine.cursor = [r.seq for r in machine.pending()].index(seq)
    machine.key("return")
    assert machine.mode == "voisin"
    prompt = " ".join(_prompt(machine))
    assert "Coup suivant ?" in prompt and "S : le classer au coup 2" in prompt
    machine.key("p")  # not the key for the coup after: nothing filed
    assert not events(machine, "classement") and "coup suivant ?" in machine.message
    machine.key("return")
    machine.key("s")
    assert [e.data for e in events(machine, "classement")] == [{"lecture": seq, "coup": 2}]
    filed = s.pending[seq]
    assert filed.coup == 2 and filed.bulletin_dict()["word"] == best.word
    machine.cursor = [r.seq for r in machine.pending()].index(seq)
    machine.key("return")
    assert s.results.decision(2, 2).score == best.score, machine.message


# -- point 2 -------------------------------------------------------------------------------------
def test_point2_photo_beside_the_reading_doubtful_boxes_zoom_and_raw_photo(tmp_path, lexicon):
    machine, clock = start(tmp_path, lexicon)
    to_correction(machine, clock)
    s = machine.session
    top = s.coup.top
    path = photo(tmp_path, "table2.jpg", 2, top.word, top.ref, top.score, seed=5)
    data = read_photo(path, s, 1)
    assert data["cells"]["word"] and data["cells"]["score"]
    data["fields"]["score"]["confidence"] = 0.55  # a doubtful score: its boxes are outlined
    machine.add_reading(data)
    pygame.font.init()
    for size, least in (((1366, 768), 30), ((1920, 1080), 40)):
        surface = pygame.Surface(size)
        info = draw_arbiter(machine, surface)
        placed = info.photo
        assert placed is not None and not placed.raw
        image = bulletin_image(str(path))
        # every box of the bulletin large enough to be read
        for key in data["cells"]["word"] + data["cells"]["score"] + data["cells"]["table"]:
            box = placed.box(image.boxes[key])
            assert box.width >= least and box.height >= least, (size, key, box)
        # beside the fields: the photo on the left, the fields on its right, above the list
        assert placed.shown.right < size[0] * 0.62 and placed.shown.bottom < size[1] * 0.6
        # the paper is shown (light pixels), the doubtful boxes outlined in LOW
        cx, cy = placed.shown.center
        assert sum(surface.get_at((cx, cy))[:3]) > 300
        outlined = [placed.box(image.boxes[k]) for k in data["cells"]["score"]]
        assert outlined and all(r.inflate(2, 2) in info.outlined for r in outlined)
        edge = outlined[0].inflate(2, 2)
        assert tuple(surface.get_at((edge.x, edge.centery)))[:3] == LOW
        word_box = placed.box(image.boxes[data["cells"]["word"][0]]).inflate(2, 2)
        assert word_box not in info.outlined  # a sure field is not outlined
    small = draw_arbiter(machine, pygame.Surface((1366, 768))).photo
    machine.key("z")
    zoomed = draw_arbiter(machine, pygame.Surface((1366, 768))).photo
    assert zoomed.width > 1.4 * small.width
    machine.key("v")
    surface = pygame.Surface((1366, 768))
    raw = draw_arbiter(machine, surface).photo
    assert raw.raw and raw.shown.size != zoomed.shown.size
    machine.key("down")  # another line: its straightened photo again
    assert not machine.raw_photo
    # a photo that is not there says so, in French, and the screen is still drawn
    machine.add_reading(reading(1, 3, top.word, str(top.ref), top.score,
                                photo=str(tmp_path / "absente.jpg")))
    machine.cursor = 1
    assert draw_arbiter(machine, pygame.Surface((1366, 768))).photo is None
    assert bulletin_image(str(tmp_path / "absente.jpg")).startswith("photo introuvable")


# -- point 3 -------------------------------------------------------------------------------------
def test_point3_one_form_tab_shift_tab_nothing_lost_enter_saves_all_in_one_event(tmp_path,
                                                                                lexicon):
    machine, clock = start(tmp_path, lexicon)
    to_correction(machine, clock)
    s = machine.session
    top = s.coup.top
    seq = machine.add_reading(reading(1, 7, "XX", "A1", 1, confidence=0.4))
    machine.key("e")
    assert machine.mode == "edition" and machine.form.values["table"] == "7"
    type_text(machine, "4")  # 4, Tab, H4, Enter: both kept (the reported bug)
    machine.key("tab")
    machine.key("tab")
    type_text(machine, "H4")
    machine.key("shift+tab")  # back to the word: what was typed stays
    assert machine.form.values == {"table": "4", "word": "XX", "ref": "H4", "score": "1",
                                   "raccord": ""}
    type_text(machine, "ERISTALe")  # ? then a letter: a circled letter (joker)
    assert machine.form.values["word"] == "ERISTALe"
    machine.key("tab")
    machine.key("tab")
    machine.key("backspace")  # Backspace edits the text instead of replacing it
    type_text(machine, "7")
    machine.key("tab")
    type_text(machine, "AB")
    before = len(events(machine))
    machine.key("return")
    assert len(events(machine)) == before + 1  # everything in ONE journal event
    assert events(machine)[-1].data == {"lecture": seq, "fields": {
        "table": 4, "word": "ERISTALe", "ref": "H4", "score": 7, "raccord": "AB"}}
    assert s.pending[seq].bulletin_dict() == {"table": 4, "word": "ERISTALe", "ref": "H4",
                                              "score": 7, "raccord": "AB", "coup": 1}
    # Échap: nothing written, nothing changed
    machine.key("e")
    type_text(machine, "2")
    machine.key("escape")
    assert len(events(machine)) == before + 1 and s.pending[seq].fields["table"]["value"] == 4
    # a value that cannot be saved: the form stays, the cursor on it, nothing lost
    machine.key("e")
    machine.key("tab")
    type_text(machine, "ABC")
    machine.key("/", "?")
    machine.key("return")
    assert machine.mode == "edition" and machine.form.name == "word"
    assert machine.form.values["word"] == "ABC?" and "lettre manque" in machine.message
    machine.key("escape")
    # N: a bulletin typed whole (no photo) is one "lecture" event, then Enter confirms it
    machine.key("n")
    for i, value in enumerate(("2", top.word, str(top.ref), str(top.score))):
        if i:
            machine.key("tab")
        type_text(machine, value)
    kinds = len(events(machine))
    machine.key("return")
    assert [e.kind for e in events(machine)[kinds:]] == ["lecture"]
    machine.key("return")
    assert s.results.decision(2, 1).outcome.value == "ok"
    # the form is drawn on the correction screen, the active field framed
    pygame.font.init()
    machine.key("home")
    machine.key("e")
    assert machine.mode == "edition"
    draw_arbiter(machine, pygame.Surface((1366, 768)))
    assert _prompt(machine) == []  # no dialog over the photo: the form is beside it


# -- point 4 -------------------------------------------------------------------------------------
def test_point4_decision_recomputed_from_what_the_arbiter_confirmed(tmp_path, lexicon):
    machine, clock = start(tmp_path, lexicon)
    to_correction(machine, clock)
    s = machine.session
    top = s.coup.top
    seq = machine.add_reading(reading(1, 1, top.word, str(top.ref), top.score + 1,
                                      extra={"ratures": True}, flagged=["score"]))
    row = arbiter_rows(machine)[0]
    # the reader saw crossed cells: a doubt shown to the arbiter, not a warning
    assert "présentation" not in row.reasons
    assert any("ratures" in note for note in row.notes)
    assert row.decision.startswith("avertissement") and "score erroné" in row.reasons
    machine.key("e")
    assert machine.form.name == "score"  # the form opens on the field to check
    type_text(machine, str(top.score))
    machine.key("return")
    row = arbiter_rows(machine)[0]
    assert row.decision == f"OK {top.score}" and row.reasons == "correct" and row.notes == ()
    assert not any(cell.low for cell in row.fields)  # what the arbiter typed is not doubtful
    machine.key("return")
    decision = s.results.decision(1, 1)
    assert decision.outcome.value == "ok" and decision.reasons == ("correct",)
    assert s.results.history(1, 1)[0].bulletin.hard_to_read is False
    assert seq not in s.pending


def test_a_doubtful_raccord_is_shown_to_the_arbiter_and_erased_with_the_form(tmp_path, lexicon):
    """The reader doubts a raccord letter (a stray mark beside a word placed by its
    reference): the arbiter reads why, its cells are outlined, and erasing it in the form
    gives back the OK the bulletin deserves."""
    from kiosk.views import doubtful_boxes

    machine, clock = start(tmp_path, lexicon)
    to_correction(machine, clock)
    s = machine.session
    top = s.coup.top
    data = reading(1, 1, top.word, str(top.ref), top.score,
                   extra={"raccord": "I", "raccord_douteux": True}, flagged=["raccord"])
    data["cells"] = {"raccord": ["grid:2:14"]}
    machine.add_reading(data)
    row = arbiter_rows(machine)[0]
    assert any("raccord « I » lu douteux" in note for note in row.notes)
    assert ("grid:2:14", False) in doubtful_boxes(s.pending[row.seq])
    assert "raccord_douteux" not in s.pending[row.seq].bulletin_dict()  # a doubt, not a fault
    machine.key("e")
    while machine.form.name != "raccord":
        machine.key("tab")
    machine.key("backspace")
    machine.key("return")
    row = arbiter_rows(machine)[0]
    assert row.decision == f"OK {top.score}" and row.notes == ()
    machine.key("return")
    assert s.results.decision(1, 1).outcome.value == "ok"


# -- point 5 -------------------------------------------------------------------------------------
def test_point5_players_without_a_result_listed_absent_and_top_in_one_key(tmp_path, lexicon):
    machine, clock = start(tmp_path, lexicon, tables=(1, 2, 3, 4))
    to_correction(machine, clock)
    s = machine.session
    top = s.coup.top
    machine.add_reading(reading(1, 2, top.word, str(top.ref), top.score))
    rows = arbiter_rows(machine)
    # the waiting bulletin first, then the players without a result, by table, with names
    assert [(r.kind, r.table, r.name) for r in rows] == [
        ("lecture", 2, "Joueur 2"), ("sans", 1, "Joueur 1"), ("sans", 3, "Joueur 3"),
        ("sans", 4, "Joueur 4")]
    machine.key("return")  # table 2 confirmed: listed as recorded, above the missing ones
    assert [(r.kind, r.table) for r in arbiter_rows(machine)] == [
        ("enregistre", 2), ("sans", 1), ("sans", 3), ("sans", 4)]
    assert machine.selected_missing() == 1
    machine.key("b")  # bulletin absent: a zero, per the rules
    assert s.results.decision(1, 1).outcome.value == "zero"
    assert s.results.history(1, 1)[0].source == "absence"
    assert machine.selected_missing() == 3
    machine.key("t")  # the top, one key
    assert s.results.decision(3, 1).score == top.score
    assert [e.kind for e in events(machine)][-2:] == ["absent", "top_tous"]
    rows = arbiter_rows(machine)
    assert [(r.kind, r.table) for r in rows] == [("enregistre", 1), ("enregistre", 2),
                                                 ("enregistre", 3), ("sans", 4)]
    # the screen shows the missing player's line (the last one) with its keys
    machine.key("end")
    pygame.font.init()
    info = draw_arbiter(machine, pygame.Surface((1366, 768)))
    assert info.end == len(rows) and info.counter == "4 / 4"
    assert "B : bulletin absent" in arbiter_rows(machine)[-1].reasons
    machine.key("b")
    assert not arbiter_rows(machine)[-1].kind == "sans"
    assert Session(s.journal, lexicon).results.to_dict() == s.results.to_dict()


# -- point 6 -------------------------------------------------------------------------------------
def test_point6_fixed_sizes_wrapped_reasons_scroll_bar_and_counter(tmp_path, lexicon):
    machine, clock = start(tmp_path, lexicon, tables=range(1, 41))
    to_correction(machine, clock)
    s = machine.session
    top = s.coup.top
    for table in range(1, 13):  # wrong scores and references: long reasons
        machine.add_reading(reading(1, table, top.word, "A1" if table % 2 else str(top.ref),
                                    top.score + table))
    pygame.font.init()
    sizes = set()
    for size in ((1366, 768), (1920, 1080)):
        surface = pygame.Surface(size)
        info = draw_arbiter(machine, surface)
        sizes.add((size, info.text_size))
        assert info.text_size == Metrics(size).line  # from the surface only, never shrunk
        assert info.counter == f"1 / {info.total}" and info.total == 40
        assert 0 < info.end < info.total  # more rows than the screen: a scroll bar
        assert info.thumb is not None and info.thumb.height < 0.5 * (size[1] * 0.5)
        thumb_top = info.thumb.y
        for _ in range(11):
            machine.key("down")
        machine.key("page down")
        machine.key("page down")
        info = draw_arbiter(machine, surface)
        assert info.counter == "32 / 40" and info.first <= 31 < info.end
        assert info.thumb.y > thumb_top
        machine.key("end")
        info = draw_arbiter(machine, surface)
        assert info.counter == "40 / 40" and info.end == 40
        machine.key("home")
    # a long reason is wrapped at the list's fixed size, every line within its column
    long = "; ".join(r.reasons for r in arbiter_rows(machine)[:3])
    lines = wrap(long, Metrics((1366, 768)).small, 300)
    assert len(lines) > 2 and " ".join(lines) == long


# -- point 7 -------------------------------------------------------------------------------------
def test_point7_motif_indique_and_the_average_over_the_same_arbiters_players(tmp_path, lexicon):
    arbiters = {1: "Anne", 2: "Anne", 3: "Anne", 4: "Marc", 5: "Marc"}
    machine, clock = start(tmp_path, lexicon, tables=(1, 2, 3, 4, 5), arbiters=arbiters)
    to_correction(machine, clock)
    s = machine.session
    top = s.coup.top

    def typed(table, word, ref, score):
        machine.key("n")
        for i, value in enumerate((str(table), word, ref, str(score))):
            if i:
                machine.key("tab")
            type_text(machine, value)
        machine.key("return")
        machine.key("return")

    typed(1, "XQZW", str(top.ref), 20)  # a word not in the list: zero
    assert "motif indiqué au joueur" in machine.message  # the default when a zero is confirmed
    typed(4, "XQZW", str(top.ref), 20)
    assert s.results.told == {(1, 1), (4, 1)}
    machine.cursor = [r.table for r in arbiter_rows(machine)].index(1)
    machine.key("i")  # table 1 was NOT told why
    assert s.results.told == {(4, 1)}
    assert [e.data for e in events(machine, "motif")] == [{"coup": 1, "table": 1,
                                                          "indique": False}]
    row = next(r for r in arbiter_rows(machine) if r.table == 1)
    assert row.told is False and any("NON indiqué" in n for n in row.notes)
    machine.key("o")
    next_coup(machine)
    to_correction(machine, clock)
    second = s.coup.top
    # coup 2: tables 1 and 4 replay XQZW; 2, 3 and 5 play different scores
    for table, word, score in ((1, "XQZW", 20), (4, "XQZW", 20)):
        typed(table, word, str(second.ref), score)
    typed(2, second.word, str(second.ref), second.score)
    machine.cursor = [r.kind for r in arbiter_rows(machine)].index("sans")
    assert machine.selected_missing() == 3
    machine.key("b")  # table 3: no bulletin, zero
    machine.key("t")  # table 5: the top
    results = s.results
    # table 1 was not told: the average of Anne's other players (2: top, 3: zero), 5.7
    assert results.coup_score(1, 2) == int(second.score / 2 + 0.5)
    assert results.arbiter_group(1) == [2, 3]
    # table 4 was told: a plain zero (Marc's players would have given the top)
    assert results.coup_score(4, 2) == 0
    row = next(r for r in arbiter_rows(machine) if r.table == 1)
    assert "moyenne de 2 joueur(s) du même arbitre" in " ".join(row.notes)
    # the same after a resume, from the journal alone
    again = Session(s.journal, lexicon)
    assert again.results.coup_score(1, 2) == results.coup_score(1, 2)
    assert again.results.told == results.told
    # the arbiters' blocks of tables, from the command line
    players = [{"table": t, "name": f"J{t}"} for t in range(1, 6)]
    warnings = []
    assign_arbiters(players, "Anne:1-3, Marc:4", warnings)
    assert [p.get("arbiter") for p in players] == ["Anne"] * 3 + ["Marc", None]
    assert "1 joueur(s) sans arbitre (tables 5)" in warnings[0]
    with pytest.raises(CliError, match="à la fois à Anne et à Marc"):
        assign_arbiters(players, "Anne:1-3,Marc:3-5")
    with pytest.raises(CliError, match="NOM:PREMIÈRE-DERNIÈRE"):
        assign_arbiters(players, "1-3")


# -- point 8 -------------------------------------------------------------------------------------
def test_point8_r_asks_first_on_a_valid_tirage_then_random_or_typed(tmp_path, lexicon):
    machine, clock = start(tmp_path, lexicon)
    s = machine.session
    machine.key("space")
    letters = s.coup.tirage
    assert s.game.check(s.coup).valid
    machine.key("r")
    assert machine.mode == "rejet" and letters in _prompt(machine)[0]
    machine.key("n")  # any other key: kept
    assert s.coup.tirage == letters and machine.message == "tirage gardé"
    assert not events(machine, "rejet")
    machine.key("r")
    machine.key("o")
    assert s.coup.tirage == "" and s.coup.rejections == [letters]
    assert "Espace pour un nouveau tirage aléatoire, M pour taper" in machine.message
    assert [e.kind for e in events(machine)][-2:] == ["tirage", "rejet"]  # nothing drawn yet
    machine.key("m")  # the juge-arbitre types the tirage instead (possible now)
    assert machine.mode == "manuel"
    type_text(machine, "EAZISTR")
    machine.key("return")
    assert s.coup.tirage == "EAZISTR" and events(machine, "tirage")[-1].data["mode"] == "manuel"
    # an invalid typed tirage is rejected at once (nothing to confirm), then Space: random
    machine.key("r")
    machine.key("o")
    machine.key("m")
    type_text(machine, "KWZXYJQ")
    machine.key("return")
    assert not s.game.check(s.coup).valid
    machine.key("r")
    assert machine.mode is None and s.coup.tirage == ""
    machine.key("space")
    assert s.coup.tirage and events(machine, "tirage")[-1].data["mode"] == "aleatoire"


# -- point 9 -------------------------------------------------------------------------------------
def test_point9_partie_originale_is_a_game_setting(tmp_path, lexicon, monkeypatch):
    machine, _ = start(tmp_path, lexicon, original=True)
    assert machine.config.seconds == 180 and not machine.config.blitz
    assert machine.session.results.settings.warning_threshold == 6
    (tmp_path / "n").mkdir()
    normal, _ = start(tmp_path / "n", lexicon)
    assert normal.session.results.settings.warning_threshold == 4
    # kiosk nouvelle --originale, in a window, quit at once
    from display.window import DisplayEvent, RoomDisplay

    monkeypatch.setenv("KIOSK_PARTIES", str(tmp_path / "parties"))
    monkeypatch.setattr(RoomDisplay, "pump_events",
                        lambda self: [DisplayEvent("key", "escape"), DisplayEvent("key", "o", "o")])
    (tmp_path / "j.csv").write_text("1;Anne\n2;Bruno\n3;Claire\n", encoding="utf-8")
    assert main(["nouvelle", "--fenetre", "--originale", "--graine", "3", "--joueurs",
                 str(tmp_path / "j.csv"), "--arbitres", "Anne:1-2,Marc:3",
                 "--fichier", str(tmp_path / "o.partie")]) == 0
    session = Session(Journal.open(tmp_path / "o.partie"), lexicon)
    assert session.config.original and session.results.settings.warning_threshold == 6
    assert [p.arbiter for p in session.results.players.values()] == ["Anne", "Anne", "Marc"]
    session.journal.close()


# -- done when: 40 bulletins with keys alone -------------------------------------------------------
def test_forty_bulletins_corrected_with_keys_alone(tmp_path, lexicon):
    """40 players: 30 bulletins read right (one key each), 5 with one field misread, 5 read
    not at all (retyped whole: at most 6 keys besides the characters)."""
    machine, clock = start(tmp_path, lexicon, tables=range(1, 41))
    to_correction(machine, clock)
    s = machine.session
    moves, _ = s.moves(1)
    truth = {t: moves[t % 12] for t in range(1, 41)}
    tables = {}  # reading → the table on the paper (what the arbiter sees on the photo)
    for t, move in truth.items():
        if t <= 30:
            seq = machine.add_reading(reading(1, t, move.word, str(move.ref), move.score))
        elif t <= 35:  # the score misread, and said to be doubtful
            data = reading(1, t, move.word, str(move.ref), move.score + 10)
            data["fields"]["score"]["confidence"] = 0.6
            seq = machine.add_reading(data)
        else:
            seq = machine.add_reading({"coup": 1, "photo": f"t{t}.jpg", "status": "illisible",
                                       "message": "photo illisible", "fields": {
                                           n: {"value": None, "confidence": 0.0}
                                           for n in ("table", "word", "ref", "score")}})
        tables[seq] = t
    commands = {}
    for _ in range(40):
        row = arbiter_rows(machine)[machine.cursor]
        assert row.kind == "lecture"
        table = tables[row.seq]
        move = truth[table]
        wanted = {"table": str(table), "word": move.word, "ref": str(move.ref),
                  "score": str(move.score)}
        shown = {cell.name: cell.text for cell in row.fields}
        wrong = [n for n, label in (("table", "table"), ("word", "mot"), ("ref", "référence"),
                                    ("score", "score")) if shown[label] != wanted[n]]
        pressed = 0
        if wrong:
            machine.key("e")  # the form opens on the first doubtful field
            pressed += 1
            for name in wrong:
                while machine.form.name != name:
                    machine.key("tab")
                    pressed += 1
                type_text(machine, wanted[name])
            machine.key("return")  # all saved at once
            pressed += 1
        machine.key("return")  # confirmed
        pressed += 1
        commands[table] = pressed
    assert not machine.pending() and not s.missing_tables(1)
    assert all(commands[t] == 1 for t in range(1, 31))  # one key per right bulletin
    assert all(commands[t] == 3 for t in range(31, 36))  # E (on the score), Enter, Enter
    assert all(commands[t] <= 6 for t in range(36, 41))  # E, 3 Tab, Enter, Enter
    for t, move in truth.items():  # each as the engine corrects the bulletin really written
        written = {"table": t, "word": move.word, "ref": str(move.ref), "score": move.score}
        assert s.results.decision(t, 1) == s.propose(1, written)


def test_a_word_cut_to_its_column_keeps_its_joker_circled():
    """A long word with a joker, too wide for the list's « mot » column, is cut with « … » and
    still drawn as capitals with its joker circled (never a lower-case letter)."""
    from kiosk.correction_screen import JOKER, draw_list
    from kiosk.views import ArbiterRow, FieldCell

    pygame.font.init()
    surface = pygame.Surface((640, 200))
    m = Metrics((640, 480))
    cells = (FieldCell("table", "3", None, False), FieldCell("mot", "ABEqUAIENTS", None, False),
             FieldCell("référence", "H4", None, False), FieldCell("score", "77", None, False))
    row = ArbiterRow("à confirmer", cells, "OK 77", "correct", table=3, name="Claire")
    draw_list(surface, pygame.Rect(0, 0, 640, 200), [row], 0, m)
    pixels = pygame.surfarray.array3d(surface)
    joker = (abs(pixels.astype(int) - JOKER).sum(axis=2) < 60)
    assert joker.any()  # the circle of the cut word's joker


def test_the_correction_title_shows_the_tops_joker_as_a_capital(tmp_path, lexicon):
    """« top ABoITEAU » in the title would read as a lower-case o: the joker is a capital in
    the joker colour, as everywhere on screen (rule 2.2)."""
    from display import theme

    machine, clock = start(tmp_path, lexicon, seed=1)  # coup 1's top: pROJO H8
    to_correction(machine, clock)
    assert machine.session.coup.top.word == "pROJO"
    pygame.font.init()
    surface = pygame.Surface((1366, 768))
    draw_arbiter(machine, surface)
    band = pygame.surfarray.array3d(surface)[:, : Metrics((1366, 768)).title + 8]
    assert (abs(band.astype(int) - theme.JOKER_INK).sum(axis=2) < 60).any()


def test_photo_table_read_among_the_players_still_without_a_result(tmp_path, lexicon, monkeypatch):
    """The reader gets the tables that may still hand in this coup's bulletin (issue 11)."""
    import kiosk.reading as reading

    machine, clock = start(tmp_path, lexicon)
    to_correction(machine, clock)
    s = machine.session
    top = s.coup.top
    path = photo(tmp_path, "table2.jpg", 2, top.word, top.ref, top.score, seed=5)
    real, asked = reading._reader(), []

    def recording(*args, **kwargs):
        asked.append(kwargs.get("tables"))
        return real(*args, **kwargs)

    monkeypatch.setattr(reading, "_reader", lambda: recording)
    data = read_photo(path, s, 1)
    assert asked and asked[0] == s.missing_tables(1) and 2 in asked[0]
    assert set(asked[0]) <= set(s.results.players)
    assert data["fields"]["table"]["value"] == 2


def _other_model(folder):
    """A bulletin model measured elsewhere (``python -m vision calibrer`` writes such files):
    no markers, and its table and points boxes where the project's form has the other."""
    import copy
    import json

    from vision.layout import Layout

    data = copy.deepcopy(Layout.load().data)
    data["name"] = "autre"
    data["markers"]["items"] = []
    fields = data["fields"]
    for key in ("box", "label_box"):
        fields["table"][key], fields["score"][key] = fields["score"][key], fields["table"][key]
    path = folder / "autre.json"
    path.write_text(json.dumps(data))
    return Layout.load(path), path


def test_a_game_on_another_bulletin_model_reads_its_photos_with_that_model(tmp_path, lexicon):
    """A club playing on the federation's bulletins starts its game with their model
    (``kiosk nouvelle --modele``, ``Config.bulletin``): each photo is read with it, and
    the arbiter sees the bulletin straightened by it. Read with the project's form, the
    table box holds the points. A model gone since the game began reads nothing: the
    arbiter types the bulletin, told why."""
    import numpy as np

    from vision import stress
    from vision.glyphs import TEST_STYLES
    from vision.synth import write_bulletin

    layout, path = _other_model(tmp_path)
    machine, clock = start(tmp_path, lexicon, bulletin=str(path))
    to_correction(machine, clock)
    s = machine.session
    top = s.coup.top
    rng = np.random.default_rng(3)
    paper, _ = write_bulletin(BulletinContent(2, top.word, str(top.ref), top.score), TEST_STYLES[0],
                              rng, layout=layout)
    shot = stress._table(paper, rng)  # on a wooden table, without markers
    import cv2

    jpeg = tmp_path / "table2.jpg"
    cv2.imwrite(str(jpeg), shot.photo, [cv2.IMWRITE_JPEG_QUALITY, 90])
    data = read_photo(jpeg, s, 1)
    got = {name: data["fields"][name]["value"] for name in ("table", "word", "ref", "score")}
    assert got == {"table": 2, "word": top.word, "ref": str(top.ref), "score": top.score}, data["message"]
    image = bulletin_image(str(jpeg), None, str(path))
    assert image.method in ("contour", "motifs") and image.boxes["field:table"] == layout.field_box("table")

    (tmp_path / "fd1").mkdir()
    plain, plain_clock = start(tmp_path / "fd1", lexicon)
    to_correction(plain, plain_clock)
    assert read_photo(jpeg, plain.session, 1)["fields"]["table"]["value"] != 2

    path.unlink()
    gone = read_photo(jpeg, s, 1)
    assert gone["status"] == "illisible" and "modèle de bulletin" in gone["message"]
    assert "saisie à la main" in gone["message"]


def test_the_reader_says_why_a_field_is_in_doubt_on_the_correction_screen(tmp_path, lexicon):
    """A word that is no legal move: the reader flags it and says why; the kiosk keeps the
    reason with the field and shows it beside the field's confidence, as the web page does."""
    machine, clock = start(tmp_path, lexicon)
    to_correction(machine, clock)
    s = machine.session
    top = s.coup.top
    path = photo(tmp_path, "xkcd.jpg", 2, "XKCD", top.ref, 12, seed=9)
    data = read_photo(path, s, 1)
    assert data["status"] == "a_verifier" and "word" in data["flagged"]
    assert data["fields"]["word"]["pourquoi"] == "lecture incertaine"
    assert all("pourquoi" not in f for name, f in data["fields"].items()
               if name not in data["flagged"])
    machine.add_reading(data)
    row = next(r for r in arbiter_rows(machine) if r.seq is not None)
    word = next(cell for cell in row.fields if cell.name == "mot")
    assert word.low and word.why == "lecture incertaine"


def test_the_reason_of_a_doubtful_field_is_drawn_and_kept_inside_its_pane():
    """« 41% à vérifier : case douteuse » beside the score; a long reason beside a long word
    is cut with « … » at the pane's edge, never drawn past it."""
    from types import SimpleNamespace

    from kiosk.correction_screen import draw_detail
    from kiosk.views import ArbiterRow, FieldCell

    pygame.font.init()
    idle = SimpleNamespace(mode=None, form=None)

    def drawn(why: str, word: str = "PUNIS") -> np.ndarray:
        surface = pygame.Surface((640, 200))
        cells = (FieldCell("table", "118", 0.99, False), FieldCell("mot", word, 0.5, True, why),
                 FieldCell("référence", "13B", 0.99, False), FieldCell("score", "30", 0.41, True, why))
        row = ArbiterRow("à confirmer", cells, "OK 30", "correct", table=118, kind="lecture")
        draw_detail(surface, pygame.Rect(0, 0, 420, 200), idle, row, Metrics((1024, 768)))
        return pygame.surfarray.array3d(surface)

    plain, told = drawn(""), drawn("case douteuse")
    assert (plain != told).any()  # the reason is written
    long = drawn("aucun coup légal ne l'explique", "ANTICONSTITUTION")
    assert not long[420:].any()  # nothing past the pane's right edge
