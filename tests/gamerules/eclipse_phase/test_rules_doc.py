"""docs/rules/eclipse-phase.md names every parameter in its rules and prints the parameter table
from EclipsePhaseParameters.describe(): keep them in step."""

import re
from pathlib import Path

import pytest

from gamerules.eclipse_phase.params import EclipsePhaseParameters

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "eclipse-phase.md"


def test_every_parameter_is_in_the_table_and_in_the_rules():
    text = DOC.read_text(encoding="utf-8")
    rules, table = text.split("\n## Parameters\n")
    for row in EclipsePhaseParameters.describe():
        line = f"| `{row['name']}` | {row['default']} | {row['low']}–{row['high']} | {row['help']} |"
        assert line in table, f"parameter row out of date: {row['name']}"
        assert f"`{row['name']}`" in rules, f"no rule cites {row['name']}"
    assert table.count("\n| `") == len(EclipsePhaseParameters.describe())


def test_every_rule_section_quotes_the_seed():
    text = DOC.read_text(encoding="utf-8").split("\n## Parameters\n")[0]
    for section in text.split("\n## ")[1:]:
        title = section.splitlines()[0]
        if title == "Odds":
            continue
        assert "Seed" in section and "“" in section, f"section {title!r} does not quote the seed"


SEED = Path(__file__).resolve().parents[3].parent / "shared" / "seeds" / "001_e6266c120d4801b4.txt"


def _flat(text):
    text = text.replace("\u2019", "'").replace("·", "").replace("^", "").replace("\u00a0", " ")
    text = re.sub(r"(^|\n)\s*[-*]\s*", " ", text)  # the seed's list markers
    return re.sub(r"\s+", " ", text)


@pytest.mark.skipif(not SEED.exists(), reason="the seed is not on this machine")
def test_the_quotes_are_the_seeds_words():
    """Every sentence quoted “...” (split at [...]; list items joined with ";") is in the seed."""
    seed = _flat(SEED.read_text(encoding="utf-8"))
    rules = re.sub(r"\s+", " ", DOC.read_text(encoding="utf-8").split("\n## Parameters\n")[0])
    quotes = re.findall(r"“(.*?)”", rules)
    assert len(quotes) > 30
    for quote in quotes:
        for part in quote.split("[...]"):
            for piece in re.split(r"[;]", part):
                piece = piece.strip(" .:")
                if len(piece) > 12 and not re.fullmatch(r"[\w .,+-]+\d[\w .,+-]*", piece):
                    assert piece in seed, piece
