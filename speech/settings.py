"""What the juge-arbitre can set for the voice: voice, rate, volume, mute, output device."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

from .texts import LetterForm


@dataclass(frozen=True)
class SpeechSettings:
    voice: str = "roa/fr"  # espeak-ng voice identifier ("French (France)")
    rate: int = 150  # words per minute; espeak's 175 is too fast for a room
    volume: float = 1.0  # 0.0–1.0, applied at playback
    mute: bool = False
    output_device: str | None = None  # SDL audio device name; None = system default
    warning_seconds: int = 30  # "Trente secondes"; 20 in blitz
    letter_form: LetterForm = LetterForm.PAYS_LETTRE  # blitz: PAYS or LETTRE
    use_pyttsx3: bool = True  # False: espeak-ng command line only

    def __post_init__(self) -> None:
        if not 60 <= int(self.rate) <= 400:
            raise ValueError("débit de parole hors limites (60 à 400 mots par minute) : "
                             f"{self.rate}")
        if not 0.0 <= float(self.volume) <= 1.0:
            raise ValueError(f"volume hors limites (0 à 1) : {self.volume}")
        if self.warning_seconds <= 0:
            raise ValueError("le délai d'avertissement doit être positif")

    def with_changes(self, **changes) -> SpeechSettings:
        return replace(self, **changes)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["letter_form"] = self.letter_form.value
        return data

    @classmethod
    def from_dict(cls, data: dict) -> SpeechSettings:
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        if "letter_form" in values and not isinstance(values["letter_form"], LetterForm):
            values["letter_form"] = LetterForm(values["letter_form"])
        return cls(**values)
