"""Result statuses of a bulletin reading, with the French message shown to the arbiter."""

from __future__ import annotations

OK = "ok"
A_VERIFIER = "a_verifier"
ILLISIBLE = "illisible"
NON_TROUVE = "bulletin_non_trouve"
PLUSIEURS = "plusieurs_bulletins"
COUPE = "bulletin_coupe"
VIERGE = "bulletin_vierge"
FLOUE = "photo_floue"
SOMBRE = "photo_sombre"
CACHE = "cases_cachees"

MESSAGES = {
    OK: "bulletin lu",
    A_VERIFIER: "bulletin lu, à vérifier par l'arbitre",
    ILLISIBLE: "photo illisible (fichier vide, tronqué, trop petit ou pas une image)",
    NON_TROUVE: "bulletin non trouvé sur la photo",
    PLUSIEURS: "plusieurs bulletins sur la photo",
    COUPE: "un bulletin coupé au bord de la photo : reprenez-le en entier",
    VIERGE: "bulletin vierge",
    FLOUE: "photo trop floue : reprenez-la",
    SOMBRE: "photo trop sombre : reprenez-la avec plus de lumière",
    CACHE: "un doigt ou un objet cache des cases : reprenez la photo",
}


class VisionError(Exception):
    """A reading that cannot go on; carries the status for the result object."""

    def __init__(self, status: str, detail: str = "") -> None:
        self.status = status
        self.detail = detail
        super().__init__(f"{MESSAGES.get(status, status)}{' : ' + detail if detail else ''}")
