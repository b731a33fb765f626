"""Pre-drawn games: the text format a club types, Eliot files and our JSON, every tirage checked
against the bag and the rules before play (the wrong line named), then replayed by the kiosk."""

from pathlib import Path

import pytest
from test_kiosk_machine import Clock

from engine.game import Game
from engine.pretirage import PreDrawnError, build_source, parse_text, read_predrawn
from engine.selfplay import self_play
from kiosk.cli import main
from kiosk.journal import Journal
from kiosk.machine import Machine
from kiosk.session import Config, Session

DATA = Path(__file__).parent / "data" / "pretirage"



def refused(text: str, lexicon) -> str:
    with pytest.raises(PreDrawnError) as info:
        build_source(parse_text(text), lexicon)
    return str(info.value)


def test_text_with_tops_is_checked_whole(lexicon):
    source = build_source(parse_text((DATA / "rejets.txt").read_text(encoding="utf-8")), lexicon)
    game = Game.from_dict(source)
    assert [c.tirage for c in game.coups] == ["RJO?TOT", "EAIRSNL", "TTUEBAM"]
    assert game.coups[1].rejections == ["TTYMAUB"]  # reliquat and all, back to the bag
    assert [str(c.top) for c in game.coups] == ["pROJO H8 24", "LANIERS 13B 78", "EMBATTU I3 67"]


def test_text_without_tops_reliquat_written_with_plus(lexicon):
    source = build_source(parse_text((DATA / "sans-solutions.txt").read_text(encoding="utf-8")),
                          lexicon)
    assert source["sans_solutions"]
    coups = source["coups"]
    assert [(c["reliquat"], c["new_letters"]) for c in coups] == [("", "RJO?TOT"), ("", "EAIRSNL")]
    assert coups[1]["rejections"][0]["tirage"] == "TTYMAUB"


@pytest.mark.parametrize("text,message", [
    ("RJO?TOT pROJO H8 24\nTT+KKWWX",
     "ligne 2 : tirage TTKKWWX : pas assez de lettre K dans le sac : il en reste 1"),
    ("AEIOUAE", "ligne 1 : tirage AEIOUAE : tirage non valable : il faut au moins 2 voyelles et "
                "2 consonnes"),
    ("RJO?TOT pROJO H8 24\nTO+YMAUB", "ligne 2 : reliquat « TO » écrit, mais le top précédent "
                                      "laisse « TT »"),
    ("RJO?TOT PROJO H8", "ligne 1 : PROJO H8 n'est pas un coup légal avec le tirage RJO?TOT"),
    ("RJO?TOT pROJO H8 25", "ligne 1 : pROJO H8 vaut 24 points, pas 25"),
    ("RJO?TOT pROJOZ H8", "ligne 1 : le mot PROJOZ n'est pas dans la liste de mots utilisée"),
    ("RJO?TOT pROJO H8 24\nTT+YMAUB\nEAIRSNL LANIERS 13B", "ligne 2 : solution absente"),
    ("RJO?TOT\nYMAUBTT", "ligne 2 : écrivez le reliquat avec « + »"),
    ("RJO?TOT\nTTX+YMAU", "ligne 2 : reliquat « TTX » : ces lettres ne sont pas toutes dans"),
    ("RJO1TOT", "ligne 1 : caractère non valable : « 1 »"),
    ("ABCDEFGH", "ligne 1 : 8 lettres, 7 au plus"),
    ("# rien\n\n", "aucun tirage dans le fichier"),
])
def test_wrong_lines_are_named(lexicon, text, message):
    assert message in refused(text, lexicon)


def test_files_of_every_kind_and_encoding(tmp_path, lexicon):
    text = (DATA / "rejets.txt").read_text(encoding="utf-8")
    (tmp_path / "cp.txt").write_bytes(text.replace("é", "é").encode("cp1252"))  # Windows notepad
    assert len(read_predrawn(tmp_path / "cp.txt", lexicon)["coups"]) == 3
    game = self_play(4, lexicon)
    game.save(tmp_path / "partie.json")
    again = Game.from_dict(read_predrawn(tmp_path / "partie.json", lexicon))
    assert [(c.tirage, c.rejections, c.top) for c in again.coups] == \
        [(c.tirage, c.rejections, c.top) for c in game.coups]
    (tmp_path / "casse.txt").write_text("RJO?TOT\nQQQ+ZZ\n", encoding="utf-8")
    with pytest.raises(PreDrawnError, match="casse.txt, ligne 2"):
        read_predrawn(tmp_path / "casse.txt", lexicon)
    (tmp_path / "p.xml").write_text('<EliotGame format="9"/>', encoding="utf-8")
    with pytest.raises(PreDrawnError, match="p.xml : format de partie Eliot « 9 »"):
        read_predrawn(tmp_path / "p.xml", lexicon)


def test_nouvelle_refuses_a_wrong_predrawn_game_before_play(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("KIOSK_PARTIES", str(tmp_path / "parties"))
    bad = tmp_path / "simultane.txt"
    bad.write_text("RJO?TOT pROJO H8 24\nTT+KKWWX\n", encoding="utf-8")
    assert main(["nouvelle", "--tirage", "fichier", "--partie-source", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "partie pré-tirée refusée : simultane.txt, ligne 2 : tirage TTKKWWX : pas assez de " \
           "lettre K dans le sac" in err
    assert not (tmp_path / "parties").exists()


def test_the_kiosk_replays_a_predrawn_game_rejections_and_tops(tmp_path, lexicon):
    source = read_predrawn(DATA / "rejets.txt", lexicon)
    journal = Journal.create(tmp_path / "p.partie", {"lexicon_sha256": lexicon.sha256})
    session = Session(journal, lexicon)
    players = [{"table": t, "name": f"Joueur {t}"} for t in (1, 2)]
    session.record("partie", Config(seed=1, draw_mode="fichier", source=source,
                                    players=players).to_dict())
    clock = Clock()
    machine = Machine(session, clock)
    for _ in range(3):
        for _ in range(3):
            machine.key("space")
        clock.now += 181
        machine.tick()
        machine.key("space")
        machine.key("space")
        machine.key("o")  # top à tous
        machine.key("space")
    game = session.game
    assert [c.tirage for c in game.coups[:3]] == ["RJO?TOT", "EAIRSNL", "TTUEBAM"]
    assert game.coups[1].rejections == ["TTYMAUB"]
    assert [str(c.top) for c in game.coups[:3]] == ["pROJO H8 24", "LANIERS 13B 78",
                                                     "EMBATTU I3 67"]
    journal.close()
