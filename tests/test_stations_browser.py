"""The phone page in Debian's real chromium (Selenium, headless, 360 px wide), against the real
station server: join by code or by the QR link, photograph, confirm, edit, set aside, a photo
taken offline sent once back online, a revoked station."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pytest
from stations_support import Browser, photo, served_game, table_photo, wait_for

from kiosk.stations.panel import revoke


@pytest.fixture(scope="module")
def game(tmp_path_factory, lexicon):
    folder = tmp_path_factory.mktemp("telephone")
    with served_game(folder, lexicon) as (machine, _, server):
        s = machine.session
        moves, tops = s.moves(1)
        lower = [m for m in moves if m.score < tops[0].score]
        plays = {1: tops[0], 2: lower[0], 3: lower[1], 4: tops[0], 5: lower[2]}
        photos = {}
        for table, move in plays.items():
            photos[table] = folder / f"bulletin-table{table}.jpg"
            photos[table].write_bytes(photo(s, 1, table, move, seed=20))
        yield machine, server, photos, plays


@pytest.fixture
def browser():
    b = Browser(360, 800)
    yield b
    b.close()


def events(machine, *kinds):
    machine.session.sync()
    return [e for e in machine.session.journal.events() if e.kind in kinds]


def ident_of(session, name):
    return next(k for k, v in session.stations.items() if v["nom"] == name)


def card_of(browser, table):
    """The reading card of ``table``, once the photo is read and shown."""
    def find():
        for card in browser.all("#lectures .lecture"):
            if f"table {table} " in card.find_element("css selector", ".titre").text:
                return card
        return None
    return wait_for(find, timeout=60)


def test_join_by_code_photograph_confirm_edit_set_aside_offline_revoked(game, browser):
    machine, server, photos, plays = game
    s = machine.session
    driver = browser.driver
    driver.get(server.url.split("?")[0])  # a laptop: the short address, then the code
    wait_for(lambda: browser.css("#rejoindre").is_displayed())
    assert browser.css("#bloc-code").is_displayed()
    browser.css("#nom").send_keys("Lucie")
    wrong = "000000" if s.network["code"] != "000000" else "111111"
    browser.css("#code").send_keys(wrong)
    browser.css("#form-rejoindre button").click()
    assert "code non valable" in wait_for(browser.message)
    browser.css("#code").clear()
    browser.css("#code").send_keys(s.network["code"])
    browser.css("#form-rejoindre button").click()
    wait_for(lambda: "Coup 1" in browser.text("#partie"))
    assert "0 / 6 corrigés" in browser.text("#progression")
    assert driver.execute_script("return document.documentElement.scrollWidth") <= 360

    # photograph table 1's bulletin: read, shown with its fields and the decision, confirmed
    browser.css("#photo").send_keys(str(photos[1]))
    card = card_of(browser, 1)
    assert plays[1].word in card.find_element("css selector", ".champs").text.replace(" ", "") \
        or "(" in card.text
    assert card.find_element("css selector", ".decision").text.split()[0] in (
        "OK", "avertissement", "pénalité", "zéro")
    wait_for(lambda: card.find_element("css selector", ".page").is_displayed())
    card.find_element("css selector", ".confirmer").click()
    wait_for(lambda: "table 1 :" in browser.message())
    wait_for(lambda: "✓" in browser.text('#tables li[data-table="1"]'))
    assert [e.data["bulletin"]["table"] for e in events(machine, "bulletin")] == [1]

    # table 2: edited on the phone (another score), then confirmed with it
    browser.css("#photo").send_keys(str(photos[2]))
    card = card_of(browser, 2)
    card.find_element("css selector", ".modifier").click()
    form = card.find_element("css selector", ".edition")
    score = form.find_element("name", "score")
    score.clear()
    score.send_keys(str(plays[2].score + 2))
    form.find_element("css selector", "button[type=submit]").click()
    wait_for(lambda: "table 2 :" in browser.message())
    edited = events(machine, "edition")
    assert [e.data["fields"] for e in edited] == [{"score": plays[2].score + 2}]  # one event
    assert s.results.history(2, 1)[-1].bulletin.score == plays[2].score + 2

    # table 3: a photo taken twice, set aside
    browser.css("#photo").send_keys(str(photos[3]))
    card = card_of(browser, 3)
    card.find_element("css selector", ".ecarter").click()
    driver.switch_to.alert.accept()
    wait_for(lambda: "écarté" in browser.message())
    assert len(events(machine, "ecarte")) == 1

    # the Wi-Fi drops: the photo waits in the browser, then goes once the network is back
    browser.offline(True)
    browser.css("#photo").send_keys(str(photos[4]))
    wait_for(lambda: "en attente d'envoi" in browser.text("#file"))
    assert len(events(machine, "photo")) == 3
    browser.offline(False)
    card_of(browser, 4)
    assert len(events(machine, "photo")) == 4 and len(events(machine, "lecture")) == 4

    # table 6: no photo (a torn bulletin): typed on the phone, listed, then confirmed
    top = s.moves(1)[1][0]
    browser.css("#bouton-saisie").click()
    form = browser.css("#form-saisie")
    for field, value in (("table", 6), ("word", top.word), ("ref", top.ref),
                         ("score", top.score)):
        form.find_element("name", field).send_keys(str(value))
    form.find_element("css selector", "button[type=submit]").click()
    card = card_of(browser, 6)
    assert "saisi" in card.find_element("css selector", ".titre").text
    card.find_element("css selector", ".confirmer").click()
    wait_for(lambda: "table 6 :" in browser.message())
    typed = [e for e in events(machine, "lecture") if e.data["status"] == "saisie"]
    assert len(typed) == 1 and typed[0].data["poste"] == ident_of(s, "Lucie")
    assert s.results.decision(6, 1).score == top.score

    # the juge-arbitre revokes the station: the page says so and asks to join again
    ident = next(k for k, v in s.stations.items() if v["nom"] == "Lucie")
    revoke(s, ident)
    wait_for(lambda: browser.css("#rejoindre").is_displayed(), timeout=30)
    assert "retiré par le juge-arbitre" in wait_for(browser.message)
    before = s.journal.last_seq()
    browser.css("#photo").send_keys(str(photos[5])) if browser.css("#photo").is_enabled() else None
    assert s.journal.last_seq() == before


def test_join_by_the_qr_link_hides_the_secret(game, browser):
    machine, server, photos, plays = game
    browser.driver.get(server.url)
    wait_for(lambda: browser.css("#rejoindre").is_displayed())
    assert "cle=" not in browser.driver.current_url  # the secret left the address bar
    assert not browser.css("#bloc-code").is_displayed()  # the link carries the secret: no code
    browser.css("#nom").send_keys("Karim")
    browser.css("#form-rejoindre button").click()
    wait_for(lambda: "Coup 1" in browser.text("#partie"))
    browser.css("#bloc-de").send_keys("4")
    browser.css("#bloc-a").send_keys("6")
    browser.css("#form-bloc button").click()
    wait_for(lambda: "(tables 4 à 6)" in browser.text("#bloc-texte"))
    assert [li.get_attribute("data-table") for li in browser.all("#tables li")] == ["4", "5", "6"]
    machine.session.sync()
    karim = next(v for v in machine.session.stations.values() if v["nom"] == "Karim")
    assert karim["bloc"] == [4, 6]


def test_a_photo_of_two_bulletins_gives_two_cards_both_confirmed(game, browser, tmp_path):
    machine, server, photos, plays = game
    s = machine.session
    both = tmp_path / "deux-bulletins.jpg"
    both.write_bytes(table_photo([(3, plays[3]), (5, plays[5])], seed=21))
    browser.driver.get(server.url)
    wait_for(lambda: browser.css("#rejoindre").is_displayed())
    browser.css("#nom").send_keys("Noé")
    browser.css("#form-rejoindre button").click()
    wait_for(lambda: "Coup 1" in browser.text("#partie"))
    uploads = len(events(machine, "photo"))
    browser.css("#photo").send_keys(str(both))
    cards = [card_of(browser, 3), card_of(browser, 5)]
    assert [c.find_element("css selector", ".feuille").text for c in cards] == [
        "2 bulletins sur la photo (n° 1)", "2 bulletins sur la photo (n° 2)"]
    first, second = (c.get_attribute("data-id") for c in cards)
    assert first.endswith("#1") and second.endswith("#2") and first[:-2] == second[:-2]
    assert driver_width(browser) <= 360
    for table in (3, 5):
        card = card_of(browser, table)
        card.find_element("css selector", ".confirmer").click()
        wait_for(lambda t=table: f"table {t} :" in browser.message())
        wait_for(lambda t=table: "✓" in browser.text(f'#tables li[data-table="{t}"]'))
    assert len(events(machine, "photo")) == uploads + 1  # one upload, two readings
    mine = [e for e in events(machine, "lecture") if e.data.get("envoi") == first[:-2]]
    assert [e.data["feuille"] for e in mine] == [1, 2]
    confirmed = [e.data["bulletin"]["table"] for e in events(machine, "bulletin")
                 if e.data["lecture"] in {e.seq for e in mine}]
    assert confirmed == [3, 5]
    assert s.results.history(3, 1) and s.results.history(5, 1)


def driver_width(browser) -> int:
    return browser.driver.execute_script("return document.documentElement.scrollWidth")
