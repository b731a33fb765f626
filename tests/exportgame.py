"""A generated kiosk game for the exchange-file tests: real journal, real word list, real
corrections of varied bulletins (tops, other moves, wrong scores and references, invalid
words, missing bulletins), one arbiter change, players with hostile names."""

from __future__ import annotations

import random
from pathlib import Path

from engine.lexicon import Lexicon
from kiosk.journal import Journal
from kiosk.session import Config, Session

NAMES = ["Hervé Lefèvre", "Thérèse Bœuf", "Œillet Marie", '=HYPERLINK("http://x";"y")',
         "<script>alert(1)</script> & Cie", "-2+3", "@SOMME", "Anne Martin", "Zoé Ñuñez",
         "Jean-Loïc Gaëtan", "Ève Noël", "Bruno Petit", "Céline Durand", "Denis Leroy",
         "Élodie Moreau", "François Simon", "Gaëlle Laurent", "Inès Michel"]
EVENT = {"epreuve": "Open de Vichy « Œ »", "date": "12 mai 2025", "lieu": "Vichy",
         "juge_arbitre": "Jeanne Œillet"}


def players(count: int = 18, *, series: bool = True) -> list[dict]:
    out = []
    for t in range(1, count + 1):
        p = {"table": t, "name": NAMES[(t - 1) % len(NAMES)], "club": ["Paris", "Vichy", "+Lyon"][t % 3],
             "licence": f"{100000 + 37 * t}", "arbiter": "Arbitre A" if t <= count // 2 else "Arbitre B"}
        if series:
            p.update(serie=["1", "2", "3", "4"][t % 4], categorie=["Senior", "Vermeil", "Jeune"][t % 3])
        out.append(p)
    return out


def play_game(path: Path, lexicon: Lexicon, *, seed: int = 5, coups: int = 8, count: int = 18,
              finish: bool = True) -> Session:
    """A game of ``coups`` coups; the session stays open (close its journal when done)."""
    config = Config(seed=seed, players=players(count), event=dict(EVENT))
    journal = Journal.create(path, {"lexicon_sha256": lexicon.sha256,
                                    "lexicon_path": str(lexicon.source)},
                             first=("partie", config.to_dict()))
    session = Session(journal, lexicon)
    rng = random.Random(seed)
    for number in range(1, coups + 1):
        session.record("tirage", {"mode": "aleatoire"})
        if session.game.finished:
            break
        session.record("top", {})
        moves, tops = session.moves(number)
        top = tops[0] if number > 0 else None
        played = session.game.coups[number - 1].top
        for table in range(1, count + 1):
            r = rng.random()
            if r < 0.35:
                b = {"word": played.word, "ref": str(played.ref), "score": played.score}
            elif r < 0.6:
                m = rng.choice(moves[: min(40, len(moves))])
                b = {"word": m.word, "ref": str(m.ref), "score": m.score}
            elif r < 0.7:
                b = {"word": played.word, "ref": str(played.ref), "score": played.score + 3}
            elif r < 0.78:
                b = {"word": played.word, "ref": str(played.ref.swapped()), "score": played.score}
            elif r < 0.86:
                b = {"word": "ZQXWK", "ref": str(played.ref), "score": 40}
            elif r < 0.93 and top is not None:
                session.record("top_tous", {"coup": number, "tables": [table]})
                continue
            else:
                continue  # no bulletin
            b["table"] = table
            session.record("bulletin", {"coup": number, "bulletin": b})
        if number == 2:
            session.record("modif", {"table": 3, "coup": 2, "score": 7, "outcome": "ok",
                                     "reason": "bulletin relu : « 7 » mal lu"})
    if finish:
        session.record("fin", {"reason": "fin de la partie décidée par le juge-arbitre"})
    return session
