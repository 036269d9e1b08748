"""docs/rules/homebrew-d100.md names every parameter in its rules and prints the parameter table
from HomebrewParameters.describe(): keep them in step."""

from pathlib import Path

from gamerules.homebrew.params import HomebrewParameters

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "homebrew-d100.md"


def test_every_parameter_is_in_the_table_and_in_the_rules():
    text = DOC.read_text(encoding="utf-8")
    rules, table = text.split("\n## Parameters\n")
    for row in HomebrewParameters.describe():
        line = f"| `{row['name']}` | {row['default']} | {row['low']}–{row['high']} | {row['help']} |"
        assert line in table, f"parameter row out of date: {row['name']}"
        assert f"`{row['name']}`" in rules, f"no rule cites {row['name']}"


def test_every_rule_section_quotes_the_seed():
    text = DOC.read_text(encoding="utf-8").split("\n## Parameters\n")[0]
    for section in text.split("\n## ")[1:]:
        title = section.splitlines()[0]
        if title in ("Odds", "Shared d100 rules"):
            continue
        assert "Seed, “" in section, f"section {title!r} does not quote the seed"
