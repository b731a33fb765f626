"""Eliot XML « format 2 »: kiosk → Eliot → kiosk gives the same results; hostile files are
refused in French with the turn; the XML is parsed without DTD or entities; encodings."""

import re
from pathlib import Path

import pytest
from exportgame import play_game

from engine.eliot import EliotError, import_eliot, parse_eliot, write_eliot
from engine.game import Game
from engine.pretirage import build_source, parse_text
from engine.results import GameResults, Player
from kiosk.cli import main
from kiosk.journal import Journal
from kiosk.session import Session


@pytest.fixture(scope="module")
def played(tmp_path_factory, lexicon):
    """A generated 10-coup game of 18 players, its Eliot file and its results."""
    folder = tmp_path_factory.mktemp("eliot")
    session = play_game(folder / "g.partie", lexicon, coups=10, seed=9)
    xml = write_eliot(session.game, session.results, dictionary="liste", word_count=len(lexicon))
    results, game = session.results, session.game
    session.journal.close()
    return folder, xml, results, game


def scores(results: GameResults) -> list[tuple]:
    """What must survive a round trip: ranks, names, totals, every coup, every sanction."""
    return [(s.rank, s.player.table, s.player.name, s.total, s.warnings, s.penalties,
             s.solo_bonus, tuple(results.coup_score(s.player.table, c)
                                 for c in range(1, results.coups_played + 1)))
            for s in results.ranking()]


def test_written_file_is_eliot_format_2(played):
    _, xml, results, game = played
    assert xml.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<EliotGame format="2">')
    assert "<Mode>arbitration</Mode>" in xml and "<TableNb>18</TableNb>" in xml
    turns = xml.split("<Turn>")[1:]
    assert len(turns) == results.coups_played
    plain = next(c for c in game.coups if c.reliquat and c.new_letters and not c.rejections)
    turn = turns[plain.number - 1]
    assert f"<GameRack>{plain.reliquat}+{plain.new_letters}</GameRack>" in turn
    assert f'<GameMove points="{plain.top.score}" type="valid" word="{plain.top.word}" ' \
           f'coord="{plain.top.ref}" />' in turn
    redrawn = next(c for c in game.coups if c.rejections)  # rejected, then drawn again: « - »
    assert re.search(r"<GameRack>-?[A-Z?+]+</GameRack>\s*<GameRack>-" + re.escape(redrawn.tirage),
                     turns[redrawn.number - 1])
    assert "<Warning playerId=" in xml and 'type="none"' in xml and 'type="invalid"' in xml
    assert "&lt;script&gt;" in xml  # names escaped
    parsed = parse_eliot(xml)
    assert [p.table for p in parsed.players] == list(range(1, 19))


def test_round_trip_kiosk_eliot_kiosk_same_results(played, lexicon):
    folder, xml, results, _ = played
    (folder / "partie.xml").write_text(xml, encoding="utf-8")
    assert main(["importer", str(folder / "partie.xml"), "--fichier", str(folder / "i.partie")]) == 0
    session = Session(Journal.open(folder / "i.partie"), lexicon)
    assert scores(session.results) == scores(results)
    assert session.step == "fin" and session.results.tops == results.tops
    again = write_eliot(session.game, session.results, dictionary="liste", word_count=len(lexicon))
    session.journal.close()
    assert again == xml  # and back to Eliot: the same file
    assert main(["export", "--partie", str(folder / "i.partie"), "--sortie", str(folder / "o"),
                 "--eliot"]) == 0
    assert (folder / "o" / "partie-eliot.xml").read_text(encoding="utf-8").count("<Turn>") == 10


def test_rejections_and_jokers_survive_the_trip(lexicon):
    """A pre-drawn game with a rejected reliquat: « - » mark, the bag replayed the same."""
    text = Path(__file__).parent / "data" / "pretirage" / "rejets.txt"
    source = build_source(parse_text(text.read_text(encoding="utf-8")), lexicon)
    game = Game.from_dict(source)
    results = GameResults()
    for t in (1, 2):
        results.add_player(Player(t, f"Joueur {t}"))
    for coup in game.played():
        results.add_top_move(coup.top)
        results.record_top(1, coup.number)
    xml = write_eliot(game, results)
    assert re.search(r"<GameRack>[A-Z?+]+</GameRack>\s*<GameRack>-[A-Z?]{7}</GameRack>", xml)
    assert any(c.islower() for c in re.findall(r'GameMove[^>]*word="([^"]+)"', xml)[-1] + "".join(
        re.findall(r'GameMove[^>]*word="([^"]+)"', xml)))  # a joker, in lower case
    imported = import_eliot(xml, lexicon)
    assert imported.source["coups"] == source["coups"]
    assert [(t, c) for t, c, _, _ in imported.decisions] == [(1, c.number) for c in game.played()]


def eliot_turns(xml: str, turn: int, old: str, new: str) -> str:
    """``xml`` with ``old`` replaced by ``new`` inside turn ``turn`` only."""
    parts = xml.split("<Turn>")
    assert old in parts[turn], old
    parts[turn] = parts[turn].replace(old, new, 1)
    return "<Turn>".join(parts)


def test_hostile_files_refused_in_french_with_the_turn(played, lexicon):
    _, xml, _, game = played
    with pytest.raises(EliotError, match="format de partie Eliot « 1 » non pris en charge"):
        import_eliot(xml.replace('format="2"', 'format="1"'), lexicon)
    with pytest.raises(EliotError, match="mode « freegame »"):
        import_eliot(xml.replace("arbitration</Mode>", "freegame</Mode>"), lexicon)
    with pytest.raises(EliotError, match="ce n'est pas une partie Eliot"):
        import_eliot("<Partie/>", lexicon)
    with pytest.raises(EliotError, match="XML illisible, ligne 1"):
        import_eliot("<EliotGame format='2'><Game>", lexicon)
    top = game.coups[2].top
    illegal = eliot_turns(xml, 3, f'type="valid" word="{top.word}" coord="{top.ref}" />\n',
                          f'type="valid" word="{top.word}Z" coord="{top.ref}" />\n')
    with pytest.raises(EliotError, match=r"tour 3 : .*n'est pas dans la liste de mots utilisée"):
        import_eliot(illegal, lexicon)
    plain = next(c for c in game.coups if c.reliquat and c.new_letters and not c.rejections)
    rack = f"<GameRack>{plain.reliquat}+{plain.new_letters}</GameRack>"
    not_in_bag = eliot_turns(xml, plain.number, rack, f"<GameRack>{plain.reliquat}+KKWW</GameRack>")
    with pytest.raises(EliotError, match=f"tour {plain.number} : tirage .* (absente du sac|pas assez de)"):
        import_eliot(not_in_bag, lexicon)
    assert "tour 2" in _error(eliot_turns(xml, 2, 'playerId="3"', 'playerId="99"'), lexicon)
    penalty = eliot_turns(xml, 4, "<GameMove", '<Penalty playerId="0" points="-12" />\n<GameMove')
    assert "tour 4 : pénalité de 12 points" in _error(penalty, lexicon)


def _error(xml: str, lexicon) -> str:
    with pytest.raises(EliotError) as info:
        import_eliot(xml, lexicon)
    return str(info.value)


BOMB = """<?xml version="1.0"?>
<!DOCTYPE EliotGame [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>
<EliotGame format="2"><Game><Mode>duplicate</Mode><Player id="0"><Name>&c;</Name></Player></Game>
</EliotGame>"""
EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE EliotGame [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<EliotGame format="2"><Game><Mode>duplicate</Mode><Player id="0"><Name>&x;</Name></Player></Game>
</EliotGame>"""


@pytest.mark.parametrize("text", [BOMB, EXTERNAL])
def test_dtd_and_entities_are_refused(text):
    with pytest.raises(EliotError, match="DTD ou des entités"):
        parse_eliot(text)


def test_encodings_declared_by_the_file(played):
    _, xml, _, _ = played
    latin = xml.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"').replace("Bœuf", "Boeuf") \
        .replace("Œillet", "OEillet")
    names = [p.name for p in parse_eliot(latin.encode("iso-8859-1")).players]
    assert "Hervé Lefèvre" in names and "Thérèse Boeuf" in names
    windows = xml.replace('encoding="UTF-8"', 'encoding="windows-1252"').encode("cp1252")
    assert b"B\x9cuf" in windows
    assert "Thérèse Bœuf" in [p.name for p in parse_eliot(windows).players]
    assert "Thérèse Bœuf" in [p.name for p in parse_eliot(b"\xef\xbb\xbf" + xml.encode()).players]


def test_kiosk_importer_says_why_in_french(tmp_path, played, lexicon, capsys, monkeypatch):
    monkeypatch.setenv("KIOSK_PARTIES", str(tmp_path / "parties"))
    _, xml, _, _ = played
    bad = tmp_path / "bad.xml"
    bad.write_text(xml.replace('format="2"', 'format="3"'), encoding="utf-8")
    assert main(["importer", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "erreur : partie Eliot refusée : bad.xml : format de partie Eliot « 3 »" in err
    assert "Traceback" not in err
    assert main(["importer", str(tmp_path / "absente.xml")]) == 2
    assert "partie Eliot introuvable" in capsys.readouterr().err
    assert not (tmp_path / "parties").exists() or not list((tmp_path / "parties").iterdir())
