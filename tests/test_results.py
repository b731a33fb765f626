"""Players, recorded coups, warnings, solos, totals and ranking (RULES.md, end-of-game scoring)."""

import copy
import json
from pathlib import Path

import pytest

from engine.board import Board
from engine.bulletin import Bulletin
from engine.correction import Decision, Outcome, correct
from engine.results import GameResults, Player, ResultsError, ResultsSettings

DATA = Path(__file__).parent / "data" / "arbitrage"


def decision(score: int, outcome: str = "ok", **extra) -> Decision:
    return Decision(Outcome(outcome), score, None, (outcome,), **extra)


def game(players: int, tops: list[int], settings: ResultsSettings | None = None) -> GameResults:
    results = GameResults(settings or ResultsSettings())
    for t in range(1, players + 1):
        results.add_player(Player(t, f"Joueur {t}"))
    for i, score in enumerate(tops):
        results.add_top(f"MOT{i}", "H4", score)
    return results


def replay(path: Path) -> GameResults:
    """A game written as codes: T top, 42 ok, A30 avertissement, P25 pénalité, 0 zéro."""
    data = json.loads(path.read_text(encoding="utf-8"))
    results = GameResults(ResultsSettings(**data["settings"]))
    for p in data["players"]:
        results.add_player(Player(p["table"], p["name"], p.get("licence"), p.get("club")))
    for top in data["tops"]:
        results.add_top(top["word"], top["ref"], top["score"])
    for coup, codes in data["coups"].items():
        for table, code in enumerate(codes, start=1):
            if code == "T":
                results.record_top(table, int(coup))
            elif code[0] == "A":
                results.record(table, int(coup), decision(int(code[1:]), "avertissement"))
            elif code[0] == "P":
                results.record(table, int(coup), decision(int(code[1:]), "penalite"))
            elif code == "0":
                results.record(table, int(coup), decision(0, "zero"))
            else:
                results.record(table, int(coup), decision(int(code)))
    return results


# -- warnings over a game (5.7)


@pytest.mark.parametrize(
    "warnings,blitz,penalty",
    [
        (0, False, 0),
        (3, False, 0),
        (4, False, 5),
        (5, False, 10),
        (7, False, 20),
        (5, True, 0),
        (6, True, 5),
        (8, True, 15),
    ],
)
def test_warning_threshold_4th_or_6th_in_blitz(warnings, blitz, penalty):
    results = game(2, [20] * 8, ResultsSettings(blitz_or_original=blitz))
    for coup in range(1, 9):
        outcome = "avertissement" if coup <= warnings else "ok"
        results.record(1, coup, decision(20, outcome))
        results.record(2, coup, decision(20))
    assert results.warnings(1) == warnings
    assert results.warning_penalty(1) == penalty
    assert results.total(1) == 160 - penalty
    assert results.total(2) == 160


def test_penalty_deducted_once_per_penalite():
    results = game(2, [30, 30])
    results.record(1, 1, decision(30, "penalite"))
    results.record(1, 2, decision(28, "penalite"))
    results.record(2, 1, decision(30))
    results.record(2, 2, decision(30))
    assert results.penalties(1) == 10
    assert results.total(1) == 30 + 28 - 10


# -- solos (3.5)


@pytest.mark.parametrize("players,bonus", [(15, 0), (16, 10), (17, 10)])
def test_solo_bonus_at_15_16_17_players(players, bonus):
    results = game(players, [50, 40])
    for t in range(1, players + 1):
        results.record(t, 1, decision(50 if t == 3 else 30))
        results.record(t, 2, decision(40))
    solos = results.solos()
    assert [(s.coup, s.table, s.score, s.bonus) for s in solos] == [(1, 3, 50, bonus)]
    assert results.total(3) == 90 + bonus
    assert results.total(1) == 70


def test_solo_below_16_is_a_setting():
    results = game(15, [50], ResultsSettings(solo_bonus_below_min=10))
    for t in range(1, 16):
        results.record(t, 1, decision(50 if t == 1 else 20))
    assert results.total(1) == 60


def test_no_solo_when_two_share_the_best_score():
    results = game(16, [50])
    for t in range(1, 17):
        results.record(t, 1, decision(50 if t in (2, 9) else 20))
    assert results.solos() == []


def test_solo_counts_the_score_net_of_a_penalite():
    results = game(16, [50])
    for t in range(1, 17):
        results.record(t, 1, decision(50 if t == 1 else 47, "penalite" if t == 1 else "ok"))
    assert results.solos() == []  # 45 net is below the others' 47


# -- ranking


def test_ranking_ties_share_a_rank():
    results = game(5, [40, 40])
    scores = {1: (40, 20), 2: (40, 40), 3: (30, 30), 4: (40, 40), 5: (20, 40)}
    for t, (a, b) in scores.items():
        results.record(t, 1, decision(a))
        results.record(t, 2, decision(b))
    ranking = results.ranking()
    assert [(s.rank, s.player.table, s.total) for s in ranking] == [
        (1, 2, 80),
        (1, 4, 80),
        (3, 1, 60),
        (3, 3, 60),
        (3, 5, 60),
    ]
    assert ranking[0].difference == 0 and ranking[0].percent == 100.0
    assert ranking[2].difference == -20 and ranking[2].percent == 75.0


def test_missing_bulletin_is_a_zero():
    results = game(2, [30])
    results.record(1, 1, decision(30))
    assert results.decision(2, 1).outcome is Outcome.ZERO
    assert results.total(2) == 0
    assert results.decision(2, 1).reasons == ("absence de bulletin",)


# -- a whole game from a file


def test_whole_game_20_players_replayed_to_known_totals():
    path = DATA / "game20.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    results = replay(path)
    assert results.tops_total == 200
    assert {str(t): results.total(t) for t in results.players} == data["expected_totals"]
    assert [[s.coup, s.table] for s in results.solos()] == data["expected_solos"]
    ranking = results.ranking()
    assert ranking[0].player.name == "Hervé Lefèvre" and ranking[0].total == 210
    assert ranking[1].rank == 2 and ranking[1].total == 190
    assert [s.rank for s in ranking if s.total == 188] == [4] * 5
    # saved and reloaded, nothing changes
    again = GameResults.from_dict(json.loads(json.dumps(results.to_dict())))
    assert [(s.rank, s.player.table, s.total) for s in again.ranking()] == [
        (s.rank, s.player.table, s.total) for s in ranking
    ]


# -- the arbiter's changes keep the original


def test_arbiter_change_is_appended_not_overwritten():
    results = game(2, [30])
    results.record(1, 1, decision(25, "avertissement"))
    results.amend(1, 1, score=30, outcome="ok", reason="score vérifié sur la grille")
    history = results.history(1, 1)
    assert [e.source for e in history] == ["correction", "arbitre"]
    assert history[0].decision.score == 25 and history[0].decision.outcome is Outcome.AVERTISSEMENT
    assert results.decision(1, 1).score == 30 and results.warnings(1) == 0


def test_arbiter_change_needs_a_reason():
    results = game(1, [30])
    results.record(1, 1, decision(25))
    with pytest.raises(ResultsError, match="motivée"):
        results.amend(1, 1, score=30, reason=" ")
    assert len(results.history(1, 1)) == 1


def test_top_shortcut_credits_the_top():
    results = game(2, [64])
    results.record_top(2, 1)
    assert results.decision(2, 1).score == 64
    assert results.decision(2, 1).outcome is Outcome.OK
    assert results.history(2, 1)[0].source == "top"


def test_top_from_the_engine_move():
    from engine.board import Ref
    from engine.move import Move

    results = game(1, [])
    coup = results.add_top_move(Move(Ref.parse("H4"), "MAISON", (), 18))
    assert coup == 1 and results.tops[0].ref == "H4" and results.tops_total == 18
    results.record_top(1, 1)
    assert results.total(1) == 18 and results.decision(1, 1).ref == "H4"


# -- 5.7: the same invalid word replayed before being told


def test_same_invalid_word_replayed_gets_the_average_of_the_others():
    results = game(4, [30, 40])
    for t in range(1, 5):
        results.players[t] = Player(t, f"J{t}", arbiter="A" if t <= 3 else "B")
    results.record(1, 1, decision(0, "zero", invalid_word="ZOUC", cap=30))
    assert results.invalid_words_not_told(1) == {"ZOUC"}
    results.record(1, 2, decision(0, "zero", invalid_word="ZOUC", cap=35, replayed_invalid=True))
    results.record(2, 2, decision(40))
    results.record(3, 2, decision(0, "zero"))
    results.record(4, 2, decision(40))  # another arbiter: not in the average
    assert results.coup_score(1, 2) == 20  # (40 + 0) / 2
    results.notify(1, 1)
    assert results.invalid_words_not_told(1) == {"ZOUC"}  # coup 2 not told yet
    results.notify(1, 2)
    assert results.invalid_words_not_told(1) == set()


def test_replayed_average_never_more_than_the_solution_earns():
    results = game(3, [50])
    results.record(1, 1, decision(0, "zero", invalid_word="ZOUC", cap=12, replayed_invalid=True))
    results.record(2, 1, decision(50))
    results.record(3, 1, decision(50))
    assert results.coup_score(1, 1) == 12


# -- hostile input: each gives its reason, nothing recorded is lost or altered


@pytest.fixture
def played():
    results = game(3, [18, 30])
    results.record(1, 1, decision(18))
    results.record(2, 1, decision(16, "avertissement"))
    results.record_top(3, 1)
    return results


def snapshot(results):
    return copy.deepcopy(results.to_dict())


def test_hostile_bulletin_for_a_coup_not_played_yet(played):
    before = snapshot(played)
    with pytest.raises(ResultsError, match="coup 3 pas encore joué"):
        played.record_bulletin(
            Bulletin.from_dict({"table": 1, "coup": 3, "word": "MAISON"}), decision(10)
        )
    assert snapshot(played) == before


def test_hostile_table_not_in_the_game(played):
    before = snapshot(played)
    with pytest.raises(ResultsError, match="table 99 inconnue"):
        played.record(99, 2, decision(10))
    with pytest.raises(ResultsError, match="table absent ou illisible"):
        played.record_bulletin(Bulletin.from_dict({"table": "l2", "coup": 2}), decision(10))
    assert snapshot(played) == before


def test_hostile_second_bulletin_for_the_same_coup(played):
    before = snapshot(played)
    with pytest.raises(ResultsError, match="déjà enregistré"):
        played.record(1, 1, decision(50))
    assert snapshot(played) == before


def _grid_with_maison() -> Board:
    board = Board()
    for i, ch in enumerate("MAISON"):
        board[(7, 3 + i)] = ch
    return board


LEXICON = {"MAISON", "MAISONS", "SOT", "TU", "ET", "SU"}


@pytest.mark.parametrize(
    "bulletin,outcome,reason",
    [
        (
            {"table": 1, "coup": 2, "word": "MAISONS", "ref": "H4", "score": 1234},
            "avertissement",
            "score erroné (1234 au lieu de 8)",
        ),
        (
            {"table": 1, "coup": 2, "word": "MAISONS", "ref": "H16", "score": 8},
            "penalite",
            "référence illisible (H16)",
        ),
        (
            {"table": 1, "coup": 2, "word": "MAISONS", "ref": "Q4", "score": None},
            "zero",
            "référence illisible (Q4) et score absent : mot non localisable",
        ),
        (
            {"table": 1, "coup": 2, "word": "", "ref": "H4", "score": 8},
            "zero",
            "mot absent ou illisible",
        ),
        (
            {"table": 1, "coup": 2, "word": "MAIS0NS", "ref": "H4", "score": 8},
            "zero",
            "mot absent ou illisible (mot illisible : « MAIS0NS »)",
        ),
        (
            {"table": 1, "coup": 2, "word": "MAISONS", "ref": "H4", "score": 123456},
            "avertissement",
            "score illisible",
        ),
        ({"table": 1, "coup": 2, "word": "MAISONS", "ref": "H4"}, "avertissement", "score absent"),
        (
            {"table": 1, "coup": 2, "word": "MAISONS" * 700, "ref": "H4", "score": 8},
            "zero",
            "mot absent ou illisible (mot trop long : 4900 lettres, la grille en a 15)",
        ),
    ],
)
def test_hostile_bulletins_are_corrected_with_their_reason(played, bulletin, outcome, reason):
    before = snapshot(played)
    parsed = Bulletin.from_dict(bulletin)
    result = correct(_grid_with_maison(), "STUEAER", LEXICON, parsed)
    assert result.outcome.value == outcome
    assert reason in result.reasons
    played.record_bulletin(parsed, result)
    after = snapshot(played)
    assert len(after["entries"]) == len(before["entries"]) + 1
    assert all(entry in after["entries"] for entry in before["entries"])
    assert played.decision(1, 2).outcome.value == outcome


def test_hostile_json_that_is_not_a_bulletin():
    parsed = Bulletin.from_dict(["MAISON", 12])
    assert parsed.unreadable
    result = correct(_grid_with_maison(), "STUEAER", LEXICON, parsed)
    assert result.outcome is Outcome.ZERO and result.reasons == ("bulletin illisible",)


def test_bulletin_parsing_is_tolerant():
    parsed = Bulletin.from_dict(
        {
            "table": " 12 ",
            "word": "Maïs-on~Xs",
            "ref": " h 4 ",
            "raccord": "a, i",
            "score": "70 pts",
            "sens": "Horizontal",
        }
    )
    assert parsed.table == 12 and parsed.word == "Maisons" and parsed.crossed_letters == 1
    assert parsed.raccord == ("A", "I") and parsed.score == 70 and parsed.sens == "h"
    assert parsed.problems == ()
    bad = Bulletin.from_dict({"table": True, "score": "7O", "sens": "diagonal"})
    assert bad.table is None and bad.score is None and bad.sens is None
    assert len(bad.problems) == 3


def test_submit_corrects_and_records_with_the_memory_of_5_7():
    results = game(3, [18, 8, 8])
    for t in (1, 2, 3):
        results.players[t] = Player(t, f"J{t}", arbiter="A")
    board = _grid_with_maison()
    bad = {"table": 1, "word": "MAISONT", "ref": "H4", "score": 8}
    first = results.submit(Bulletin.from_dict({**bad, "coup": 2}), board, "STUEAER", LEXICON)
    assert first.decision.outcome is Outcome.ZERO and not first.decision.replayed_invalid
    results.submit(
        Bulletin.from_dict({"table": 2, "coup": 3, "word": "MAISONS", "ref": "H4", "score": 8}),
        board,
        "STUEAER",
        LEXICON,
    )
    again = results.submit(Bulletin.from_dict({**bad, "coup": 3}), board, "STUEAER", LEXICON)
    assert again.decision.replayed_invalid
    assert results.coup_score(1, 3) == 4  # (8 + 0) / 2, never more than MAISONT's 8
    # refused before anything is corrected: nothing changes
    before = snapshot(results)
    with pytest.raises(ResultsError, match="déjà enregistré"):
        results.submit(Bulletin.from_dict({**bad, "coup": 3}), board, "STUEAER", LEXICON)
    with pytest.raises(ResultsError, match="coup 4 pas encore joué"):
        results.submit(Bulletin.from_dict({**bad, "coup": 4}), board, "STUEAER", LEXICON)
    assert snapshot(results) == before
    # saved and reloaded, the explanation stays
    again_loaded = GameResults.from_dict(json.loads(json.dumps(results.to_dict())))
    assert again_loaded.decision(1, 3).replayed_invalid
    assert again_loaded.decision(1, 3).candidates == results.decision(1, 3).candidates
    assert again_loaded.coup_score(1, 3) == 4


def test_whole_game_20_players_bulletins_corrected_to_known_totals():
    """Three coups, 20 players' bulletins corrected and recorded; every decision counted by hand."""
    from engine.board import Ref
    from engine.lexicon import Lexicon
    from engine.movegen import generate_moves
    from engine.placement import fit_word, realise

    data = json.loads((DATA / "game20_bulletins.json").read_text(encoding="utf-8"))
    lexicon = Lexicon.from_words(data["lexicon"])
    results = GameResults()
    for p in data["players"]:
        results.add_player(Player(p["table"], p["name"], arbiter=p["arbiter"]))
    board = Board()
    for number, coup in enumerate(data["coups"], start=1):
        top = coup["top"]
        assert generate_moves(board, coup["tirage"], lexicon)[0].score == top["score"]
        results.add_top(top["word"], top["ref"], top["score"])
        for table, item in coup["players"].items():
            bulletin = Bulletin.from_dict({**item["bulletin"], "table": int(table), "coup": number})
            entry = results.submit(bulletin, board, coup["tirage"], lexicon)
            expected = (item["expect"][0], item["expect"][1])
            assert (entry.decision.outcome.value, entry.decision.score) == expected, (
                number,
                table,
                entry.decision.reasons,
            )
        fit = fit_word(board, Ref.parse(top["ref"]), top["word"])
        for r, c, tile in realise(board, fit, frozenset()).placed:
            board[(r, c)] = tile
    replay_check = data["replayed_average"]
    assert results.decision(replay_check["table"], replay_check["coup"]).replayed_invalid
    assert results.coup_score(replay_check["table"], replay_check["coup"]) == replay_check["score"]
    assert [[s.coup, s.table] for s in results.solos()] == data["expected_solos"]
    assert {str(t): results.total(t) for t in results.players} == data["expected_totals"]
    ranking = results.ranking()
    assert (ranking[0].player.table, ranking[0].total, ranking[0].percent) == (1, 82, 113.89)
    assert [s.rank for s in ranking[1:3]] == [2, 3]  # 67, then the 66s share rank 3
    assert {s.rank for s in ranking if s.total == 66} == {3}
