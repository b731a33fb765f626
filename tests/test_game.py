"""The game: self-play to the end, save/replay, and refusal of corrupt or inconsistent files."""

import json

import pytest

from engine.game import Game, GameError, GameFileError
from engine.movegen import generate_moves
from engine.selfplay import self_play
from engine.tiles import TOTAL_TILES


@pytest.fixture(scope="module")
def game(lexicon):
    return self_play(3, lexicon)


def test_self_play_reaches_a_rule_end(game):
    assert game.finished
    assert game.end_reason.startswith(("toutes les lettres", "il ne reste que", "aucun coup"))
    assert 15 <= len(game.coups) <= 30
    on_board = game.board.tile_count()
    assert on_board + game.bag_count + len(game.reliquat) == TOTAL_TILES
    assert game.total_score == sum(c.top.score for c in game.coups)


def test_each_top_is_the_best_move_of_its_coup(game, lexicon):
    for coup in game.coups[:8]:
        moves = generate_moves(game.board_before(coup.number), coup.tirage, lexicon)
        assert coup.top.score == moves[0].score
        assert coup.top.word in {m.word for m in moves if str(m.ref) == str(coup.top.ref)}


def test_reliquat_is_what_the_top_left(game):
    for before, after in zip(game.coups, game.coups[1:], strict=False):
        if not after.rejections:
            assert sorted(after.reliquat) == sorted(before.leftover())
            assert len(before.leftover()) == len(before.tirage) - len(before.top.placed)


def test_same_seed_same_game(game, lexicon):
    again = self_play(3, lexicon)
    assert again.to_dict() == game.to_dict()


def test_save_and_load_replays_exactly(game, tmp_path):
    path = tmp_path / "partie.json"
    game.save(path)
    loaded = Game.load(path)
    assert loaded.to_dict() == game.to_dict()
    assert loaded.board == game.board
    assert loaded.board_before(5) == game.board_before(5)
    assert [c.top.placed for c in loaded.coups] == [c.top.placed for c in game.coups]


def _tampered(game, tmp_path, change):
    data = json.loads(json.dumps(game.to_dict()))
    change(data)
    path = tmp_path / "x.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda d: d["coups"][2]["top"].update(score=d["coups"][2]["top"]["score"] + 1), "vaut"),
        (lambda d: d["coups"][0].update(new_letters="KKKKKKK"), "pas assez de lettre K dans le sac"),
        (lambda d: d["coups"][3].update(reliquat="ZZ"), "reliquat"),
        (lambda d: d["coups"][4]["top"].update(ref="A1"), "top"),
        (lambda d: d["coups"][1].update(number=7), "numéro"),
        (lambda d: d.update(version=99), "version"),
        (lambda d: d.update(format="autre"), "pas un fichier de partie"),
        (lambda d: d["coups"][0].pop("top"), "sans top"),
        (lambda d: d.pop("seed"), "incohérent"),
    ],
)
def test_inconsistent_game_files_are_refused(game, tmp_path, change, message):
    path = _tampered(game, tmp_path, change)
    with pytest.raises(GameFileError, match=message):
        Game.load(path)


@pytest.mark.parametrize("content", [b"", b"{not json", b"\x00\x01\x02", b"[]", "é".encode("latin-1")])
def test_unreadable_game_files_are_refused(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(GameFileError):
        Game.load(path)
    with pytest.raises(GameFileError, match="introuvable"):
        Game.load(tmp_path / "absent.json")


def test_play_refuses_a_top_not_in_the_tirage(lexicon):
    game = Game(seed=5)
    game.draw()
    other = Game(seed=6)
    other.draw()
    foreign = [m for m in generate_moves(other.board, other.current.tirage, lexicon)
               if not set(m.tiles_used) <= set(game.current.tirage)]
    with pytest.raises(GameError, match="formable"):
        game.play(foreign[0])
    assert game.board.is_empty()


def test_end_when_only_consonants_are_left():
    game = Game(seed=1)
    game.bag.clear()
    game.bag.update("BCDFGHY?")
    coup = game.draw()
    assert game.finished and "consonnes" in game.end_reason and coup not in game.coups


def test_rejected_tirage_goes_back_whole(lexicon):
    game = Game(seed=11)
    game.draw()
    game.reject()
    assert game.bag_count == TOTAL_TILES
    coup = game.draw()
    assert coup.rejections[0] != coup.tirage
    assert "juge-arbitre" in coup.rejection_reasons[0]


@pytest.mark.parametrize("seconds,blitz,warning", [(180, False, 30), (150, False, 30),
                                                   (120, False, 30), (60, False, 20), (180, True, 20)])
def test_warning_call_is_thirty_seconds_twenty_in_blitz(seconds, blitz, warning):
    from engine.game import GameSettings

    assert GameSettings(seconds_per_coup=seconds, blitz=blitz).warning_seconds == warning
