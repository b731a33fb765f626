"""The players list: columns by header name, and every bad line named with its reason."""

import pytest

from kiosk.players import PlayersError, read_players


def write(tmp_path, data: bytes | str, name="joueurs.csv"):
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def test_columns_by_header_name_with_arbiter_serie_and_category(tmp_path):
    path = write(tmp_path, "Catégorie;Table;Nom;Licence;Club;Série;Arbitre\n"
                           "Vermeil;3;Hélène Roux;123456;Lyon;B;Paul\n"
                           "Senior;1;Anne Moreau;;Paris;A;\n")
    players = read_players(path)
    assert players[0] == {"table": 3, "name": "Hélène Roux", "club": "Lyon", "licence": "123456",
                          "arbiter": "Paul", "serie": "B", "categorie": "Vermeil"}
    assert players[1]["arbiter"] is None and players[1]["serie"] == "A"


def test_without_header_the_four_columns_in_order(tmp_path):
    path = write(tmp_path, "1,Anne,Paris,999\n2,Bruno,,\n")
    assert [(p["table"], p["name"], p["club"], p["licence"]) for p in read_players(path)] == \
        [(1, "Anne", "Paris", "999"), (2, "Bruno", None, None)]


def test_an_unbalanced_quote_does_not_swallow_the_next_players(tmp_path):
    path = write(tmp_path, 'table;nom\n1;"Anne Moreau\n2;Bruno\n3;Claire\n')
    with pytest.raises(PlayersError) as info:
        read_players(path)
    assert "ligne 2 : guillemet non fermé" in str(info.value)
    path = write(tmp_path, 'table;nom\n1;"Moreau; Anne"\n2;Bruno\n')  # balanced: one name
    assert [p["name"] for p in read_players(path)] == ["Moreau; Anne", "Bruno"]


@pytest.mark.parametrize("name,reason", [
    ("Anne\x00Moreau", "caractère nul"),
    ("\u200b", "caractère invisible (U+200B"),
    ("Bru\u200dno", "caractère invisible (U+200D"),
    ("Anne\x1bMoreau", "caractère de contrôle (U+001B)"),
])
def test_invisible_and_control_characters_are_refused_with_the_line(tmp_path, name, reason):
    path = write(tmp_path, f"table;nom\n1;Claire\n2;{name}\n")
    with pytest.raises(PlayersError) as info:
        read_players(path)
    assert f"ligne 3 : {reason}" in str(info.value)


def test_one_windows_line_in_a_utf8_file_keeps_its_accents(tmp_path):
    path = write(tmp_path, "table;nom\n1;Hélène\n".encode() + "2;Jérôme\n".encode("cp1252"))
    assert [p["name"] for p in read_players(path)] == ["Hélène", "Jérôme"]
    path = write(tmp_path, b"table;nom\n1;Anne\n2;\x81\x8d\n")
    with pytest.raises(PlayersError, match="ligne 3 : encodage inconnu"):
        read_players(path)


def test_tables_outside_the_bulletin_box_and_doubles_are_named(tmp_path):
    path = write(tmp_path, "table;nom\n1;A\n10000;B\n0;C\n1;D\nx;E\n")
    with pytest.raises(PlayersError) as info:
        read_players(path)
    text = str(info.value)
    assert "ligne 3 : table 10000 hors limites (de 1 à 9999" in text
    assert "ligne 4 : table 0 hors limites" in text
    assert "ligne 5 : table 1 en double (déjà à la ligne 2)" in text
    assert "ligne 6 : numéro de table attendu, pas « x »" in text
    assert "4 ligne(s) à corriger" in text


def test_files_that_are_not_lists(tmp_path):
    with pytest.raises(PlayersError, match="périphérique"):
        read_players("/dev/zero")
    with pytest.raises(PlayersError, match="vide"):
        read_players(write(tmp_path, "\n\n"))
    with pytest.raises(PlayersError, match="trop gros"):
        read_players(write(tmp_path, "1;A\n" * 2_000_000))
