"""Nothing shared names Eternal War One II: a grep of the shared apps (campaigns, characters,
factions, accounts, config, encounters) and of the templates outside EW1's for ``ew1``, EW1's
stat codes and its skills finds only the files listed below, each with why. The shared parts
ask the registry instead (campaigns.rule_systems); EW1's parts live in ew1/ and templates/ew1/.

ALLOWED lists what still names EW1 in a shared place, and why. An entry whose file no longer
names EW1 fails: remove it.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED_APPS = ("campaigns", "characters", "factions", "accounts", "config", "encounters")

# ew1 (the code, the app, gamerules.ew1, EW1Parameters...), "Eternal War", the six stat codes
# as words (not SQL's "FOR UPDATE"), the skills by name or as quoted codes (a bare "game" or
# "magic" is the game master or the magic app; "dodges" is the shared counter).
WORDS = re.compile(r"""ew1|eternal\s*war|\b(?:brawl|melee|ranged)\b"""
                   r"""|["'](?:dodge|throw|game|magic)["']""", re.IGNORECASE)
STATS = re.compile(r"\b(?:FOR(?! UPDATE| SHARE| NO KEY)|DEF|TAI|INT|DEX|LUK)\b")  # "for", "int": no

# Templates that are EW1's own: its partials, its board (the real-time play mode), its spells,
# its creation drafts, level-up and inventory (templates/ew1/).
EW1_TEMPLATES = ("templates/ew1/", "templates/combat/_board.html", "templates/combat/_pad.html",
                 "templates/combat/_rolls.html", "templates/combat/board.html",
                 "templates/combat/_piece_menu.html", "templates/combat/_result.html",
                 "templates/combat/_token.html", "templates/magic/")
# Another system's own templates may use its words ("dodge" is a homebrew and an Eclipse
# Phase reaction too).
OTHER_SYSTEM_TEMPLATES = ("templates/homebrew/", "templates/eclipse/")

ALLOWED = {
    "campaigns/models.py": "RuleSystem: the codes and names of the known systems (choices)",
    "config/settings/base.py": "INSTALLED_APPS lists the ew1 and magic apps",
    "config/demo.py": "config, on top, loads the demo: an EW1 campaign, with EW1 items",
}


def _shared_files() -> list[Path]:
    files = [p for app in SHARED_APPS for p in (ROOT / app).rglob("*.py")
             if "migrations" not in p.parts]
    files += [p for p in (ROOT / "templates").rglob("*.html")
              if not str(p.relative_to(ROOT)).startswith(EW1_TEMPLATES + OTHER_SYSTEM_TEMPLATES)]
    return sorted(files)


def _hits(path: Path, root: Path = ROOT) -> list[str]:
    return [f"{path.relative_to(root)}:{number}: {line.strip()}"
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
            if WORDS.search(line) or STATS.search(line)]


def test_the_shared_apps_and_templates_name_no_ew1_stat_skill_or_code():
    found = {str(p.relative_to(ROOT)): h for p in _shared_files() if (h := _hits(p))}

    unexpected = [hit for name, hits in found.items() if name not in ALLOWED
                  for hit in hits]
    assert not unexpected, "Shared code names EW1 (ask campaigns.rule_systems):\n" + "\n".join(
        unexpected)


def test_the_allow_list_is_honest():
    stale = [name for name in ALLOWED
             if (ROOT / name).exists() and not _hits(ROOT / name)]
    missing = [name for name in ALLOWED if not (ROOT / name).exists()]
    assert not stale, f"these no longer name EW1: remove them from the allow-list: {stale}"
    assert not missing, f"these allowed files are gone: remove them: {missing}"


def test_the_grep_finds_what_it_looks_for(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('x = c.ew1.level\ny = "FOR"\nz = "melee"\nq = "SELECT ... FOR UPDATE"\n'
                      'for i in range(3): int(i)\nw = "game master"\nv = c.dodges\n')
    hits = [h.split(": ", 1)[1] for h in _hits(sample, root=tmp_path)]
    assert hits == ['x = c.ew1.level', 'y = "FOR"', 'z = "melee"']
