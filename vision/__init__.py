"""Reading photographed bulletins: page, fields, characters, decoding against the game.

For the kiosk::

    from vision import BulletinContent, render_bulletin, read_bulletin, CoupContext, correct_reading

    # a virtual player's bulletin, photographed (JPEG bytes) with its ground truth
    jpeg, truth = render_bulletin(BulletinContent(table=12, word="MAISONs", ref="H4", score=70),
                                  style="test_vif", seed=3)

    # read it against the legal moves of coup 5 of a saved game; the table number is read
    # among the tables that may still hand in a bulletin (registered, no result yet)
    context = CoupContext.from_game("partie.json", 5, tables=[3, 12, 17])   # once per coup
    reading = context.read(jpeg)    # = read_bulletin(jpeg, candidates, board, tables=...)
    reading.status          # "ok", "a_verifier", "illisible", "bulletin_non_trouve", ...
    reading.bulletin()      # {"table": 12, "word": "MAISONs", "ref": "H4", "raccord": None,
                            #  "score": 70, "sens": "h"}  (engine.bulletin JSON shape)
    reading.to_dict()       # the JSON line of ``python -m vision lire --json``
    correct_reading(reading, context)   # engine.correction decision, as a dict

    # a photo of several bulletins side by side: one reading each, in reading order
    for one in read_all(jpeg, candidates, board, tables=[3, 12, 17]):
        one.sheet, one.sheets, one.status   # rank, count, status (« bulletin_coupe »: cut off)
        one.page                            # the straightened bulletin (None: none found)

Stages, one module each: ``load`` → ``page`` → ``fields`` → ``recognise`` (+ ``tess``)
→ ``decode`` → ``reader``; ``learn`` keeps arbiter-confirmed crops for ``train``.
"""

from .coup import CoupContext, correct_reading
from .reader import BulletinReading, read_all, read_bulletin
from .synth import BulletinContent, render_bulletin, render_table

__all__ = [
    "BulletinContent",
    "BulletinReading",
    "CoupContext",
    "correct_reading",
    "read_all",
    "read_bulletin",
    "render_bulletin",
    "render_table",
]
