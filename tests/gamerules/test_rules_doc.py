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
