"""Views of a real saved game (``python -m engine play``) and the snapshot command."""

import os
import subprocess
import sys
from types import SimpleNamespace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from display import theme
from display.__main__ import main as display_main
from display.from_game import annonce_view, coup_view, fin_view, rank_lines, rejet_view, view_for
from display.render import render
from display.replay import moments
from display.view import Countdown, Screen
from engine.game import Game

SEED = 4  # a game whose coups 4 and 7 had a tirage rejected


@pytest.fixture(scope="module")
def game_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("partie") / "partie.json"
    command = [sys.executable, "-m", "engine", "play", "--seed", str(SEED), "--out", str(path)]
    subprocess.run(command, check=True, capture_output=True, timeout=60)
    return path


@pytest.fixture(scope="module")
def game(game_file):
    pygame.display.init()
    pygame.font.init()
    return Game.load(game_file)


def tops_total(game, upto):
    return sum(c.top.score for c in game.coups if c.number <= upto and c.top)


def test_coup_view_reads_the_game(game):
    n = 8
    view = coup_view(game, n, Countdown(42))
    coup = game.coups[n - 1]
    assert view.board == game.board_before(n)
    assert (view.reliquat, view.new_letters) == (coup.reliquat, coup.new_letters)
    assert view.bag_left == coup.bag_left and view.coup == n
    assert view.total == tops_total(game, n - 1)
    assert view.last_top.word == game.coups[n - 2].top.word
    assert [t.coup for t in view.past_tops] == list(range(1, n))


def test_annonce_view_highlights_the_top(game):
    n = 8
    view = annonce_view(game, n)
    top = game.coups[n - 1].top
    assert view.board == game.board_after(n) and view.total == tops_total(game, n)
    assert set(view.last_top.squares) == {(r, c) for r, c, _ in top.placed}
    surface = pygame.Surface((1920, 1080))
    info = render(view, surface)
    row, col, tile = top.placed[0]
    cell = info.layout.cell_rect(row, col)
    face = theme.JOKER_TILE if tile.islower() else theme.ANNOUNCE_TILE
    point = (cell.x + int(0.88 * cell.w), cell.y + int(0.3 * cell.h))
    assert tuple(surface.get_at(point))[:3] == face
    assert any(text == f"{top.score} points" for text, _ in info.texts)


def test_rejet_view_shows_the_rejected_letters_and_the_reason(game):
    coup = game.coups[3]
    assert coup.rejections, "the seed should give a rejected tirage at coup 4"
    view = rejet_view(game, 4)
    assert view.screen is Screen.REJET and view.tirage == coup.rejections[-1]
    assert view.message.startswith("Tirage non valable")
    surface = pygame.Surface((1280, 720))
    info = render(view, surface)
    tirage = info.layout.tirage
    grey = sum(tuple(surface.get_at((x, tirage.centery)))[:3] == theme.REJECTED_TILE
               for x in range(tirage.left, tirage.right))
    assert grey > 0.3 * tirage.width
    with pytest.raises(ValueError):
        rejet_view(game, 1)


def test_fin_view_and_ranking(game):
    standings = [SimpleNamespace(rank=1, player=SimpleNamespace(name="Alice", table=3),
                                 total=game.total_score - 40, percent=95.1)]
    view = fin_view(game, standings)
    assert view.total == game.total_score
    assert view.board == game.board_after(game.coups[-1].number)
    assert rank_lines(standings)[0].name == "Alice"
    assert view.ranking[0].score == game.total_score - 40
    info = render(view, pygame.Surface((1024, 768)))
    assert any(text == "Alice" for text, _ in info.texts)


def test_moments_walk_the_whole_game(game):
    views = list(moments(game))
    assert views[0].screen is Screen.ACCUEIL and views[-1].screen is Screen.FIN
    rejected = sum(bool(c.rejections) for c in game.coups)
    played = sum(c.top is not None for c in game.coups)
    assert len(views) == 2 + rejected + len(game.coups) + played


def test_snapshot_command_writes_the_png(game, game_file, tmp_path, capsys):
    n = 12
    out = tmp_path / "coup12.png"
    assert display_main(["snapshot", "--game", str(game_file), "--coup", str(n),
                         "--size", "1920x1080", "--out", str(out)]) == 0
    image = pygame.image.load(str(out))
    assert image.get_size() == (1920, 1080)
    info = render(view_for(game, n, Screen.COUP), pygame.Surface((1920, 1080)))
    board = game.board_before(n)
    for row in range(15):
        for col in range(15):
            tile = board.cells[row][col]
            if tile is None:
                continue
            cell = info.layout.cell_rect(row, col)
            colour = tuple(image.get_at((cell.x + int(0.88 * cell.w), cell.y + int(0.3 * cell.h))))
            expected = theme.JOKER_TILE if tile.islower() else theme.TILE
            assert colour[:3] in (expected, theme.HIGHLIGHT), (row, col, tile)
    assert "coup 12" in capsys.readouterr().out


def test_snapshot_renders_the_room_at_four_sizes_and_the_console_at_two(game_file, tmp_path,
                                                                        capsys):
    out = tmp_path / "images"
    assert display_main(["snapshot", "--game", str(game_file), "--coup", "8", "--dossier",
                         str(out)]) == 0
    sizes = {p.name: pygame.image.load(str(p)).get_size() for p in out.glob("*.png")}
    assert sizes == {"salle-coup-1024x768.png": (1024, 768), "salle-coup-1280x720.png": (1280, 720),
                     "salle-coup-1920x1080.png": (1920, 1080),
                     "salle-coup-3840x2160.png": (3840, 2160),
                     "console-1920x1080.png": (1920, 1080), "console-1366x768.png": (1366, 768)}
    said = capsys.readouterr().out
    assert "console du juge-arbitre, chrono du coup 8" in said and "salle, coup, coup 8" in said


def test_snapshot_refuses_a_missing_game_in_french(tmp_path, capsys):
    assert display_main(["snapshot", "--game", str(tmp_path / "absente.json"), "--out",
                         str(tmp_path / "x.png")]) == 2
    assert "introuvable" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        display_main(["snapshot", "--game", "x.json", "--size", "grand", "--out", "x.png"])
    assert info.value.code == 2 and "taille non valable" in capsys.readouterr().err


def test_replay_walks_every_moment_on_space(game, monkeypatch):
    from display import replay as replay_module
    from display.window import DisplayEvent, RoomDisplay

    monkeypatch.setattr(RoomDisplay, "pump_events", lambda self: [DisplayEvent("key", "space")])
    shown = []
    assert replay_module.replay(game, window_size=(640, 480), log=shown) == 0
    assert [v.screen for v in shown] == [v.screen for v in moments(game)]


def test_replay_stops_on_quit(game, monkeypatch):
    from display import replay as replay_module
    from display.window import DisplayEvent, RoomDisplay

    monkeypatch.setattr(RoomDisplay, "pump_events", lambda self: [DisplayEvent("quit")])
    closed = []
    real_close = RoomDisplay.close
    monkeypatch.setattr(RoomDisplay, "close", lambda self: (closed.append(self),
                                                            real_close(self)))
    shown = []
    assert replay_module.replay(game, window_size=(640, 480), log=shown) == 0
    assert len(shown) == 1 and len(closed) == 1 and closed[0].window is None


def test_replay_counts_down_in_real_time(game, monkeypatch):
    from display import replay as replay_module
    from display.window import RoomDisplay

    two = list(moments(game))[:2]
    monkeypatch.setattr(replay_module, "moments", lambda g: iter(two))
    ticks = []
    real_tick = RoomDisplay.tick

    def spy(self, remaining, paused=False):
        ticks.append(remaining)
        return real_tick(self, remaining, paused)

    monkeypatch.setattr(RoomDisplay, "tick", spy)
    assert replay_module.replay(game, window_size=(640, 480), seconds=0.3) == 0
    assert ticks and ticks == sorted(ticks, reverse=True) and ticks[-1] <= 0 < ticks[0] <= 0.3
