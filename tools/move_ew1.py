"""Move Eternal War One II out of ``characters`` into ``ew1`` (issue 10, item 2), re-runnable.

Run from the repository root: ``.venv/bin/python tools/move_ew1.py`` (``--dry-run`` lists the
files it would change). It

1. ``git mv``s the EW1 modules of ``characters`` into ``ew1`` (a module already moved is skipped),
2. rewrites every import and dotted path that named them, in Python, templates, docs and
   settings: ``from characters.X import a, b``, ``from characters import X``, ``import
   characters.X``, ``"characters.X.name"`` strings (mock.patch targets, settings paths, historical
   migrations' callables), ``characters/X.py`` mentions, and the moved models' admin URLs
   (``/admin/characters/itemtemplate/``, ``admin:characters_itemtemplate_add``) and permission
   codes (``characters.add_itemtemplate``). For the modules split by hand
   (``SPLIT``: models, services, forms, admin) only the names that left are rewritten, an
   import naming both kinds is cut in two.
3. reads the two rules that left ``Character`` off the EW1 sheet: ``x.is_protected`` becomes
   ``x.ew1.is_protected`` and ``x.reincarnation_blocked_until`` ``x.ew1.reincarnation_blocked_until``
   (the sheet's properties, calling ew1.protection and ew1.cooldowns).

After ``git merge`` of a branch written against the old places (tried with i10-registry):

- a conflicted file this branch changed only by these rewrites: take the other side
  (``git checkout --theirs -- FILE``); the run below makes the rewrites again;
- a file split by hand (characters/models.py, services.py, forms.py, admin.py): keep this
  branch's cut and carry the other side's changes to the parts that left into ew1/;
- a moved module the other side made partly shared (i10-registry's characters/selectors.py:
  characters_of, characters_now, character_get, character_sheet, recent_actions,
  open_campaigns): put those parts back in characters/<module>.py, and the run treats the
  module as split (each name is imported from where it is defined);
- then run this script, ``ruff check .`` and the tests.

Celery task *names* are not paths and stay (``KEEP``): the beat schedule and queued messages
use them, and the moved tasks pass them as ``name=``. Everything is idempotent: a second run
changes nothing, so the lead can run it again after merging branches that still import the old
places.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Modules of characters that are Eternal War One II's, moved whole.
MOVED = ["sheets", "regeneration", "daily_pa", "equipment", "progression", "creation",
         "readiness", "limits", "cooldowns", "tasks", "selectors", "errors"]

# Modules split by hand: old module -> (new module, the names that moved there). The names are
# read from the two files when both exist (defined at the top of the new module and not in the
# old one), so a merge that moves or keeps a name is followed; the lists are the fallback.
SPLIT_FALLBACK: dict[str, tuple[str, set[str]]] = {
    "characters.models": ("ew1.models", {
        "EternalWarSheet", "ItemTemplate", "ItemModifier", "ItemInstance", "CharacterDraft",
        "validate_dice", "unix_now"}),
    "characters.services": ("ew1.services", {
        "character_create", "character_create_from_values", "piece_create"}),
    "characters.forms": ("ew1.forms", {"RedistributeForm", "LevelUpForm"}),
    "characters.admin": ("ew1.admin", {
        "EternalWarSheetForm", "EternalWarSheetFormSet", "EternalWarSheetInline",
        "ItemInstanceForm", "ItemInstanceAdmin", "ItemInstanceInline", "ItemModifierInline",
        "ItemTemplateAdmin", "CHARACTERISTICS", "DEFAULTED"}),
}


def _top_level_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def _split() -> tuple[dict[str, tuple[str, set[str]]], dict[str, tuple[str, set[str]]]]:
    """SPLIT (old module -> new module, names moved) and STAYED (new module -> old module, names
    defined in the old module only: an import of them from the new one, left by an earlier run
    before a merge kept them shared, goes back)."""
    split, stayed = {}, {}
    # A moved module whose old file is back (a merge kept shared parts of it there) is split.
    again = {f"characters.{m}": (f"ew1.{m}", set()) for m in MOVED
             if (ROOT / "characters" / f"{m}.py").exists() and (ROOT / "ew1" / f"{m}.py").exists()}
    for old, (new, fallback) in {**SPLIT_FALLBACK, **again}.items():
        old_path, new_path = (ROOT / (m.replace(".", "/") + ".py") for m in (old, new))
        if old_path.exists() and new_path.exists():
            old_names, new_names = _top_level_names(old_path), _top_level_names(new_path)
            split[old] = (new, new_names - old_names)
            stayed[new] = (old, old_names - new_names)
        else:
            split[old] = (new, fallback)
    return split, stayed


SPLIT, STAYED = _split()

# Dotted strings that are names, not paths.
KEEP = {"characters.tasks.regenerate_resources", "characters.tasks.reset_daily_pa"}

SUFFIXES = {".py", ".html", ".md", ".txt", ".ini", ".toml", ".cfg", ".importlinter"}
SKIP_DIRS = {".git", ".venv", "var", "node_modules", "__pycache__", "static"}
# Files that define the rules read through the sheet, or that also read the historical
# ``reincarnation_blocked_until`` column (rewritten by hand once): no attribute rewrite.
NO_ATTRIBUTE_REWRITE = {"ew1/models.py", "ew1/protection.py", "ew1/cooldowns.py",
                        "tests/services/test_suicide_cooldown_parameter.py"}

MOVED_WHOLE = [m for m in MOVED if f"characters.{m}" not in SPLIT]
MOVED_RE = "|".join(MOVED_WHOLE)
SPLIT_RE = "|".join(m.split(".")[1] for m in SPLIT)
FROM_IMPORT = re.compile(
    r"^(?P<indent>[ \t]*)from characters\.(?P<mod>" + SPLIT_RE + r") import "
    r"(?P<names>\([^)]*\)|[^\n]*(?:\\\n[^\n]*)*)", re.M)
FROM_STAYED = re.compile(
    r"^(?P<indent>[ \t]*)from ew1\.(?P<mod>" + SPLIT_RE + r") import "
    r"(?P<names>\([^)]*\)|[^\n]*(?:\\\n[^\n]*)*)", re.M)
FROM_PACKAGE = re.compile(r"^(?P<indent>[ \t]*)from characters import (?P<names>\([^)]*\)|[^\n]+)",
                          re.M)
FROM_MOVED = re.compile(
    r"^(?P<indent>[ \t]*)from characters\.(?P<mod>" + MOVED_RE + r") import (?P<names>\([^)]*\))",
    re.M)
MOVED_DOTTED = re.compile(r"(?<![\w.])characters\.(" + MOVED_RE + r")\b(?P<rest>(?:\.\w+)*)")
SPLIT_DOTTED = re.compile(r"(?<![\w.])characters\.(" + SPLIT_RE + r")\.(\w+)")
MOVED_PATH = re.compile(r"(?<![\w/])characters/(" + MOVED_RE + r")\.py\b")
# The moved models' admin pages and permissions follow their app label.
MODELS_RE = "eternalwarsheet|itemtemplate|itemmodifier|iteminstance|characterdraft"
ADMIN_PATH = re.compile(r"/admin/characters/(" + MODELS_RE + r")\b")
ADMIN_NAME = re.compile(r"\badmin:characters_(" + MODELS_RE + r")_")
PERMISSION = re.compile(r"(?<![\w.])characters\.((?:add|change|delete|view)_(?:" + MODELS_RE + r"))\b")
# ``x.is_protected`` / ``x.reincarnation_blocked_until`` not already read through the sheet,
# and DRF ``source="is_protected"`` (the piece itself).
ATTRIBUTE = re.compile(r"(?<=[\w\])])(?<!\bew1)\.(is_protected|reincarnation_blocked_until)\b")
SOURCE = re.compile(r"""source=(["'])(is_protected|reincarnation_blocked_until)\1""")


def _names(text: str) -> list[str]:
    text = text.strip().strip("()").replace("\\\n", " ")
    text = re.sub(r"#[^\n]*", "", text)
    return [n.strip() for n in text.replace("\n", " ").split(",") if n.strip()]


def _bare(name: str) -> str:
    return name.split(" as ")[0].strip()


def _statement(indent: str, module: str, names: list[str], width: int = 100) -> str:
    line = f"{indent}from {module} import {', '.join(names)}"
    if len(line) <= width:
        return line
    head = f"{indent}from {module} import ("
    lines, current = [], head
    for i, name in enumerate(names):
        piece = name + ("," if i < len(names) - 1 else ")")
        if len(current) + len(piece) + 1 > width and current.strip() not in ("", head.strip()):
            lines.append(current.rstrip())
            current = " " * len(head) + piece
        else:
            current += ("" if current.endswith("(") else " ") + piece
    lines.append(current)
    return "\n".join(lines)


def _rewrite_from_split(match: re.Match[str]) -> str:
    indent, mod = match["indent"], "characters." + match["mod"]
    new_mod, moved = SPLIT[mod]
    return _cut(match, indent, mod, new_mod, moved)


def _rewrite_from_stayed(match: re.Match[str]) -> str:
    indent, mod = match["indent"], "ew1." + match["mod"]
    if mod not in STAYED:
        return match[0]
    old_mod, stayed = STAYED[mod]
    return _cut(match, indent, mod, old_mod, stayed)


def _cut(match: re.Match[str], indent: str, mod: str, new_mod: str, moved: set[str]) -> str:
    """The import ``match`` of ``mod`` with the names in ``moved`` imported from ``new_mod``."""
    names = _names(match["names"])
    stay = [n for n in names if _bare(n) not in moved]
    gone = [n for n in names if _bare(n) in moved]
    if not gone:
        return match[0]
    parts = [_statement(indent, mod, stay)] if stay else []
    parts.append(_statement(indent, new_mod, gone))
    return "\n".join(parts)


def _rewrite_from_package(match: re.Match[str]) -> str:
    indent = match["indent"]
    names = _names(match["names"])
    stay = [n for n in names if _bare(n) not in MOVED]
    gone = [n for n in names if _bare(n) in MOVED]
    if not gone:
        return match[0]
    parts = [_statement(indent, "characters", stay)] if stay else []
    parts.append(_statement(indent, "ew1", gone))
    return "\n".join(parts)


def _rewrite_moved_dotted(match: re.Match[str]) -> str:
    if match[0] in KEEP:
        return match[0]
    return "ew1." + match[0][len("characters."):]


def _rewrite_split_dotted(match: re.Match[str]) -> str:
    mod, name = "characters." + match[1], match[2]
    new_mod, moved = SPLIT[mod]
    return f"{new_mod}.{name}" if name in moved else match[0]


def _fix_module_imports(text: str) -> str:
    """``import characters.models`` in a file (a migration) whose dotted uses now name
    ``ew1.models``: import the new module, and keep the old one only if still used."""
    for mod, (new_mod, _) in SPLIT.items():
        if not re.search(rf"^import {re.escape(mod)}\n", text, re.M):
            continue
        uses_new = re.search(rf"(?<![\w.]){re.escape(new_mod)}\.\w", text)
        if not uses_new or re.search(rf"^import {re.escape(new_mod)}\n", text, re.M):
            continue
        still_old = re.search(rf"(?<![\w.]){re.escape(mod)}\.\w", text)
        text = re.sub(rf"^import {re.escape(mod)}\n",
                      (f"import {mod}\n" if still_old else "") + f"import {new_mod}\n", text,
                      count=1, flags=re.M)
    return text


FIRST_PARTY = {"accounts", "bench", "campaigns", "characters", "combat", "config", "ew1",
               "factions", "gamerules", "magic", "tests"}
STATEMENT_RE = (r"(?P<indent>[ \t]*)(?:from (?P<from>[\w.]+) import (?:\([^)]*\)|[^\n]*)"
                r"|import (?P<import>[\w.]+)[^\n]*)\n")
STATEMENT = re.compile(STATEMENT_RE)
RUN = re.compile(r"(?:^" + re.sub(r"\(\?P<\w+>", "(", STATEMENT_RE) + ")+", re.M)


def _sort_imports(text: str) -> str:
    """Sort, by module, each run of consecutive first-party imports (one indentation, no blank
    line between) that names ``ew1``: the rewrites leave ``from ew1...`` where ``from
    characters...`` stood."""
    out, pos = [], 0
    for run in RUN.finditer(text):
        statements = [m for m in STATEMENT.finditer(run[0])]
        if "".join(m[0] for m in statements) != run[0] or len(statements) < 2:
            continue
        modules = [m["from"] or m["import"] for m in statements]
        if (len({m["indent"] for m in statements}) != 1
                or any(mod.split(".")[0] not in FIRST_PARTY for mod in modules)
                or not any(mod.split(".")[0] == "ew1" for mod in modules)):
            continue
        ordered = sorted(statements, key=lambda m: (m["from"] is None, m["from"] or m["import"]))
        out.append(text[pos:run.start()])
        out.append("".join(m[0] for m in ordered))
        pos = run.end()
    out.append(text[pos:])
    return "".join(out)


def rewrite(text: str, rel: str) -> str:
    if rel.endswith(".py"):
        text = FROM_IMPORT.sub(_rewrite_from_split, text)
        text = FROM_STAYED.sub(_rewrite_from_stayed, text)
        text = FROM_PACKAGE.sub(_rewrite_from_package, text)
        text = FROM_MOVED.sub(lambda m: _statement(m["indent"], "ew1." + m["mod"],
                                                   _names(m["names"])), text)
    text = MOVED_DOTTED.sub(_rewrite_moved_dotted, text)
    text = SPLIT_DOTTED.sub(_rewrite_split_dotted, text)
    text = MOVED_PATH.sub(lambda m: f"ew1/{m[1]}.py", text)
    text = ADMIN_PATH.sub(lambda m: f"/admin/ew1/{m[1]}", text)
    text = ADMIN_NAME.sub(lambda m: f"admin:ew1_{m[1]}_", text)
    text = PERMISSION.sub(lambda m: f"ew1.{m[1]}", text)
    if rel.endswith(".py"):
        text = _fix_module_imports(text)
        if "/migrations/" not in rel:
            text = _sort_imports(text)
    if (rel not in NO_ATTRIBUTE_REWRITE and "/migrations/" not in rel
            and rel.endswith((".py", ".html"))):
        text = ATTRIBUTE.sub(lambda m: f".ew1.{m[1]}", text)
        text = SOURCE.sub(lambda m: f"source={m[1]}ew1.{m[2]}{m[1]}", text)
    return text


def git_moves(dry_run: bool) -> list[str]:
    done = []
    for name in MOVED:
        src, dst = ROOT / "characters" / f"{name}.py", ROOT / "ew1" / f"{name}.py"
        if src.exists() and not dst.exists():
            done.append(f"git mv {src.relative_to(ROOT)} {dst.relative_to(ROOT)}")
            if not dry_run:
                subprocess.run(["git", "mv", str(src), str(dst)], cwd=ROOT, check=True)
    return done


def files():
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT)
        if any(part in SKIP_DIRS for part in rel.parts) or not path.is_file():
            continue
        if rel.as_posix() == "tools/move_ew1.py":
            continue
        if path.suffix in SUFFIXES or path.name in {"Makefile", ".importlinter"}:
            yield path, rel.as_posix()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args(argv)
    for line in git_moves(args.dry_run):
        print(line)
    for path, rel in files():
        text = path.read_text(encoding="utf-8")
        new = rewrite(text, rel)
        if new != text:
            print(f"rewrote {rel}")
            if not args.dry_run:
                path.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
