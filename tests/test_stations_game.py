"""A club game: the juge-arbitre's keys drive the kiosk, the room and the console are drawn,
arbiters photograph and correct on phones (real chromium against the real station server);
the same game corrected at the console by keys gives the same results.

``KIOSK_STATIONS_COUPS`` coups: 3 with 2 phones in ``make test`` (about 20 s), the issue's
12 coups with 3 phones in ``make test-long`` (which CI runs too)."""

import hashlib
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest
from stations_support import Browser, new_game, render, to_correction, wait_for

from display.console import draw_console
from engine.export import results_csv
from kiosk.console import console_view
from kiosk.demo import Autopilot, Written
from kiosk.screens import compose
from kiosk.stations.launch import StationsProcess
from kiosk.stations.panel import stations_view
from kiosk.views import room_view

COUPS = int(os.environ.get("KIOSK_STATIONS_COUPS", "3"))
SEED = 23
BLOCKS = {"Alice": (1, 2), "Bastien": (3, 4), "Chloé": (5, 6)} if COUPS >= 12 else \
    {"Alice": (1, 3), "Bastien": (4, 6)}
MISTAKES = {2: "score", 3: "reference", 4: "non_formable"}



def plan(machine, autopilot, number):
    """What the players who did not play the top wrote (deterministic): two lower moves,
    spread over the three blocks, and a sanctioned mistake on coups 2 to 4."""
    s = machine.session
    moves, tops = s.moves(number)
    top = s.game.coups[number - 1].top
    lower = [m for m in moves if m.score < top.score]
    written = {}
    for k, table in enumerate((((number - 1) % 6) + 1, ((number + 2) % 6) + 1)):
        if lower:
            move = lower[(number * 7 + k * 3) % min(20, len(lower))]
            written[table] = Written(table, move.word, str(move.ref), move.score)
    if number in MISTAKES:
        table = ((number + 4) % 6) + 1
        wrong = autopilot._mistake(number, table, top, moves, MISTAKES[number])
        if wrong is not None:
            written[table] = wrong
    return written


def press(browser, element):
    """A thumb on the button: brought to the middle of the screen first (the bar above the
    page changes height with the coup's title), then clicked."""
    browser.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def form_word(word):
    """How an arbiter types a joker on the phone: MAISON(S)."""
    return "".join(f"({c.upper()})" if c.islower() else c for c in word)


def correct_on_phone(browser, machine, number, table, truth, jpeg):
    """The arbiter finds the reading of this paper's photo (the picture on the card), fixes
    what the reader got wrong, confirms."""
    s = machine.session
    digest = hashlib.sha256(jpeg).hexdigest()

    def the_card():
        s.sync()
        seq = next((u["lecture"] for u in s.uploads.values() if u["sha256"] == digest), None)
        if seq is None:
            return None
        cards = browser.all(f'#lectures .lecture[data-seq="{seq}"]')
        return (cards[0], seq) if cards else None

    card, seq = wait_for(the_card, timeout=90)
    reading = s.pending[seq]
    if reading.neighbour:  # « coup précédent/suivant ? »: it is this coup's bulletin
        press(browser, card.find_element("css selector", ".garder"))
        wait_for(lambda: (s.sync(), not s.pending[seq].neighbour)[1], timeout=30)
        reading = s.pending[seq]
        card = wait_for(lambda: (lambda c: c[0] if c and c[0].find_element(
            "css selector", ".actions").is_displayed() else None)(
                browser.all(f'#lectures .lecture[data-seq="{seq}"]')))
    read = {k: (reading.fields.get(k) or {}).get("value") for k in ("table", "word", "ref",
                                                                    "score")}
    if read == truth.fields():
        press(browser, card.find_element("css selector", ".confirmer"))
    else:
        press(browser, card.find_element("css selector", ".modifier"))
        form = card.find_element("css selector", ".edition")
        for field, value in (("table", truth.table), ("word", form_word(truth.word)),
                             ("ref", truth.ref), ("score", truth.score)):
            box = form.find_element("name", field)
            box.clear()
            box.send_keys(str(value))
        press(browser, form.find_element("css selector", "button[type=submit]"))
    try:
        wait_for(lambda: (s.sync(), s.results.history(table, number))[1], timeout=30)
    except AssertionError:
        script = ("const c = document.querySelector('[data-seq=\"' + arguments[0] + '\"]');"
                  "return [actions, sending, uploading, polling, seq, c && c.outerHTML];")
        page = browser.driver.execute_script(script, seq)
        raise AssertionError(f"coup {number} table {table}: {browser.message()!r} "
                             f"{browser.driver.get_log('browser')} {page} "
                             f"{[(e.seq, e.kind) for e in s.journal.events()[-3:]]}") from None


def correct_at_console(machine, number, written):
    """The same bulletins typed at the console: N, the form (Tab between fields, ? before a
    joker's letter), Enter to save it, Enter to confirm."""
    for table, truth in sorted(written.items()):
        machine.key("n")
        for i, value in enumerate((truth.table, truth.word, truth.ref, truth.score)):
            if i:
                machine.key("tab")
            for ch in str(value):
                if ch.islower():
                    machine.key("?", "?")
                machine.key(ch.lower(), ch.upper())
        machine.key("return")
        if not machine.session.results.history(table, number):
            machine.key("return")
        assert machine.session.results.history(table, number), machine.message


def play(machine, clock, each_coup):
    surface = pygame.Surface((640, 360))
    for number in range(1, COUPS + 1):
        to_correction(machine, clock)
        assert machine.session.coup.number == number
        room_view(machine)
        each_coup(number)
        machine.key("o")  # top to the players who played it
        compose(machine, surface)
        waiting = [(r.seq, r.coup, r.station, {k: v.get("value") for k, v in r.fields.items()})
                   for r in machine.pending()]
        machine.key("space")
        assert machine.step != "correction", (number, machine.message, waiting)
    assert machine.step == "fin", machine.message


@pytest.mark.long
def test_a_club_game_corrected_on_phones_equals_the_console(tmp_path, lexicon):
    pygame.init()
    config = {"seed": SEED, "max_coups": COUPS}
    phones, clock = new_game(tmp_path / "club.partie", lexicon, n_players=6, **config)
    server = StationsProcess.start(tmp_path / "club.partie", str(lexicon.source), "127.0.0.1", 0)
    browsers = {}
    plans = {}
    renderer = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn"))
    try:
        for name, (first, last) in BLOCKS.items():
            b = browsers[name] = Browser(360, 800)
            b.driver.get(server.url)
            wait_for(lambda b=b: b.css("#rejoindre").is_displayed())
            b.css("#nom").send_keys(name)
            b.css("#form-rejoindre button").click()
            wait_for(lambda b=b: b.text("#partie") != "Poste d'arbitrage")
            b.css("#bloc-de").send_keys(str(first))
            b.css("#bloc-a").send_keys(str(last))
            b.css("#form-bloc button").click()
            wait_for(lambda b=b, f=first: f"tables {f} à" in b.text("#bloc-texte"))
        autopilot = Autopilot(phones, tmp_path / "demo")

        def on_phones(number):
            written = plans[number] = plan(phones, autopilot, number)
            owner = {t: n for n, (a, z) in BLOCKS.items() for t in range(a, z + 1)}
            for b in browsers.values():  # the arbiters see the new coup before they shoot
                wait_for(lambda b=b: b.driver.execute_script(
                    "return state && state.coup_defaut") == number, timeout=30)
            files = {}
            tables = sorted(written)
            jpegs = renderer.map(render, tables, [written[t].word for t in tables],
                                 [written[t].ref for t in tables],
                                 [written[t].score for t in tables], [number] * len(tables))
            for table, jpeg in zip(tables, jpegs, strict=True):
                files[table] = tmp_path / f"coup{number:02d}-table{table}.jpg"
                files[table].write_bytes(jpeg)
                browsers[owner[table]].css("#photo").send_keys(str(files[table]))
            for table, truth in sorted(written.items()):
                correct_on_phone(browsers[owner[table]], phones, number, table, truth,
                                 files[table].read_bytes())

        play(phones, clock, on_phones)
        phones.session.sync()
        view = stations_view(phones.session)
        assert sorted(line.name for line in view.lines) == sorted(BLOCKS)
        assert {line.block for line in view.lines} == {f"tables {a} à {z}"
                                                       for a, z in BLOCKS.values()}
        phones.key("q")  # the panel on the console
        texts = draw_console(console_view(phones), pygame.Surface((1366, 768)))
        assert {t.split(" · ")[0] for t in texts if " · tables " in t} == {*BLOCKS, "poste"}
        phones.key("escape")
        on_phone = [e for e in phones.session.journal.events() if e.kind == "bulletin"]
        assert len(on_phone) == sum(len(p) for p in plans.values())
        assert all(e.data.get("poste") for e in on_phone), "every bulletin came from a phone"
        assert not phones.session.refused
    finally:
        for b in browsers.values():
            b.close()
        server.stop()
        renderer.shutdown()

    console, clock_b = new_game(tmp_path / "console.partie", lexicon, n_players=6, **config)
    play(console, clock_b, lambda number: correct_at_console(console, number, plans[number]))

    a, b = phones.session.results, console.session.results
    assert [c.top.word for c in phones.session.game.coups] == \
        [c.top.word for c in console.session.game.coups]
    for table in a.players:
        for number in range(1, COUPS + 1):
            da, db = a.decision(table, number), b.decision(table, number)
            assert (da.outcome, da.score) == (db.outcome, db.score), (table, number)
    assert results_csv(a) == results_csv(b)
    assert {d.outcome.value for t in a.players for n in range(1, COUPS + 1)
            for d in [a.decision(t, n)]} >= {"ok", "avertissement"}
    phones.session.journal.close()
    console.session.journal.close()
