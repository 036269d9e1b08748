"""docs/rules/eternal-war-one-ii.md prints tables generated from the code: keep them in step.

When a parameter or the XP curve changes, regenerate the "Level thresholds" table from
``xp_thresholds()`` and the "Parameters" table from ``EW1Parameters.describe()``.
"""

import re
from pathlib import Path

import pytest

from gamerules.ew1.params import EW1Parameters
from gamerules.ew1.progression import xp_thresholds

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "eternal-war-one-ii.md"


@pytest.fixture(scope="module")
def doc():
    return DOC.read_text(encoding="utf-8")


def section(doc, title):
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", doc, re.M | re.S)
    assert match, f"missing section {title!r}"
    return match.group(1)


def test_doc_threshold_table_is_xp_thresholds(doc):
    printed = {}
    for line in section(doc, "Level thresholds").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not cells or not cells[0].isdigit():
            continue
        for level, xp in zip(cells[::2], cells[1::2]):
            if level:
                printed[int(level)] = int(xp.replace(",", ""))
    assert printed == dict(enumerate(xp_thresholds()))


def test_doc_parameter_table_lists_every_parameter(doc):
    table = section(doc, "Parameters")
    for row in EW1Parameters.describe():
        bounds = "IANA time zone" if row["kind"] == "zone" else f"{row['low']}–{row['high']}"
        line = f"| `{row['name']}` | {row['default']} | {bounds} | {row['help']} |"
        assert line in table, f"parameter row out of date: {row['name']}"


# Issue 8: each silent difference is decided and recorded with the seed's own words and the
# parameter that holds its number.
RECORDED = {
    "4.": ["Esquive : 5 XP", "2 XP si l'attaque est esquivée", "`dodge_xp`"],
    "5.": ["des compétences ou le temps de repos", "compétences spéciales", "Not built"],
    "6.": ["protégé jusqu'à sa première action", "using an item"],
    "7.": ["(pour les armes) ou l'armure (pour les protections)", "miscellaneous"],
    "8.": ["Bouclier : Réduit les dégâts de 1d4+1 / 24h", "Protection : Réduit les dégâts de "
           "2d4+2", "`shield_duration_hours`"],
    "9.": ["`1d20 5`", "`1d205`", "`invalid_dice`"],
    "15.": ["Creatures"],
    "16.": ["`friendly_fire`"],
}


@pytest.mark.parametrize("item", RECORDED)
def test_each_silent_difference_is_recorded_with_the_seeds_words(doc, item):
    decided = section(doc, "Silent differences decided")
    match = re.search(rf"^ ?{re.escape(item)} (.*?)(?=^ ?\d+\. |\Z)", decided, re.M | re.S)
    assert match, f"item {item} is not recorded"
    text = " ".join(match.group(1).split())
    for words in RECORDED[item]:
        assert words in text, f"item {item} does not say {words!r}"


def test_creatures_and_friendly_fire_have_their_sections(doc):
    creatures = " ".join(section(doc, "Creatures").split())
    for words in ("nearest prey", "fewest PV, then the lowest id", "`move_cost_pa`",
                  "`brawl_cost_pa`", "`view_radius`", "gain no XP"):
        assert words in creatures
    friendly = " ".join(section(doc, "Friendly fire").split())
    for words in ("`friendly_fire`", "on by default", "disabled with the reason",
                  "code `friendly_fire`"):
        assert words in friendly
