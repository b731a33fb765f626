"""The arbiter's bulletin form: every field of a bulletin typed or corrected at once.

One form holds the five fields (table, mot, référence, score, raccord), each
with its own text: Tab and Shift-Tab move between them and never lose what
was typed; Enter hands back all the values (checked) for ONE journal event;
Échap drops the form and nothing is written. Entering a field selects it:
the first character typed replaces its text, Backspace edits it instead.

In the word, ``?`` then a letter types a circled letter (a joker: lower case,
as :mod:`engine.bulletin` writes it); ``~`` then a letter, a crossed-out one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

FORM_FIELDS = ("table", "word", "ref", "score", "raccord")
FORM_NAMES = {"table": "table", "word": "mot", "ref": "référence", "score": "score",
              "raccord": "raccord"}
_WIDTH = {"table": 4, "word": 15, "ref": 3, "score": 4, "raccord": 15}


class FormError(ValueError):
    """A value that cannot be saved; ``field`` is where the cursor goes back."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.field = name


def as_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return "".join(str(v) for v in value)
    return str(value)


@dataclass
class Form:
    """The form's state; ``reading`` is the reading edited (None: a new bulletin, key N)."""

    reading: int | None
    values: dict[str, str]
    original: dict[str, str] = field(default_factory=dict)
    index: int = 0
    fresh: bool = True  # the field was just entered: the first character typed replaces it

    @classmethod
    def open(cls, reading: int | None, current: dict[str, object], start: int = 0) -> Form:
        values = {name: as_text(current.get(name)) for name in FORM_FIELDS}
        return cls(reading, values, dict(values), start)

    @property
    def name(self) -> str:
        return FORM_FIELDS[self.index]

    def move(self, step: int) -> None:
        self.index = (self.index + step) % len(FORM_FIELDS)
        self.fresh = True

    def backspace(self) -> None:
        self.fresh = False
        self.values[self.name] = self.values[self.name][:-1]

    def type(self, text: str) -> str:
        """One character typed; returns a French message when it is refused ("" if taken)."""
        name = self.name
        current = "" if self.fresh else self.values[name]
        self.fresh = False
        ch = text[:1]
        if name in ("table", "score"):
            if not ch.isdigit():
                return f"{FORM_NAMES[name]} : des chiffres seulement"
            new = current + ch
        elif name == "word":
            if ch in "?*~":
                if current.endswith(("?", "~")):
                    return "tapez la lettre après le ? (joker) ou le ~ (lettre barrée)"
                new = current + ("?" if ch in "?*" else "~")
            elif ch.isalpha():
                if current.endswith("?"):
                    new = current[:-1] + ch.lower()  # circled: a joker
                else:
                    new = current + ch.upper()
            else:
                return "mot : des lettres, ? avant une lettre pour un joker entouré"
        elif name == "ref":
            if not ch.isalnum():
                return "référence : une lettre et un nombre (H4 ou 4H)"
            new = current + ch.upper()
        else:  # raccord
            if not ch.isalpha():
                return "raccord : les lettres de la grille, sans espace"
            new = current + ch.upper()
        if len(new.replace("~", "")) > _WIDTH[name]:
            return f"{FORM_NAMES[name]} : {_WIDTH[name]} caractères au plus"
        self.values[name] = new
        return ""

    def changed(self) -> dict[str, object]:
        """The fields whose text changed, as values for the journal; raises FormError."""
        out: dict[str, object] = {}
        for name in FORM_FIELDS:
            text = self.values[name]
            if text == self.original.get(name, ""):
                continue
            out[name] = self.value(name)
        return out

    def value(self, name: str, lenient: bool = False) -> object:
        """A field's value; ``lenient``: a ? or ~ still waiting for its letter is left out."""
        text = self.values[name].strip()
        if name == "word" and text.endswith(("?", "~")):
            if not lenient:
                raise FormError(name, "mot : la lettre manque après le dernier ? ou ~")
            text = text[:-1]
        if not text:
            return None
        if name in ("table", "score"):
            if not text.isdigit():
                raise FormError(name, f"{FORM_NAMES[name]} : un nombre est attendu")
            return int(text)
        return text

    def all_values(self, lenient: bool = False) -> dict[str, object]:
        """Every field's value (for a new bulletin, or the live proposal while typing)."""
        return {name: self.value(name, lenient) for name in FORM_FIELDS}
