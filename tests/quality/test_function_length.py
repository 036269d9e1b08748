"""No function in the apps is longer than ``MAX_LINES`` (issue 20, item 6: "no function in the
apps over about 60 lines"). Read with ``ast`` from the source files, nothing imported.

The apps: every top-level package of the repository (a folder with an ``__init__.py``) but
``tests/`` and ``bench/``, their ``migrations/`` left out (generated). A function's length is
its lines from the ``def`` line to its last line, its docstring included, its decorators not:
what a reader scrolls through. A nested function counts inside its own function and alone."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

MAX_LINES = 60
ROOT = Path(__file__).resolve().parents[2]
LEFT_OUT = {"tests", "bench"}


def app_packages() -> list[Path]:
    return sorted(p for p in ROOT.iterdir()
                  if p.is_dir() and (p / "__init__.py").exists() and p.name not in LEFT_OUT)


def source_files(package: Path) -> list[Path]:
    return sorted(f for f in package.rglob("*.py") if "migrations" not in f.parts)


def function_lengths(path: Path) -> list[tuple[str, int, int]]:
    """(qualified name, line of the ``def``, length in lines) of every function in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[str, int, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                found.append((name, child.lineno, child.end_lineno - child.lineno + 1))
                visit(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def test_the_apps_are_found():
    names = {p.name for p in app_packages()}
    assert {"gamerules", "campaigns", "eclipse", "encounters", "homebrew", "ew1"} <= names
    assert not names & LEFT_OUT


def test_a_function_of_61_lines_is_measured_as_61(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(59))
    source = tmp_path / "long.py"
    source.write_text(f'def long():\n    """Doc."""\n{body}\n\n\nclass K:\n    def short(self):\n'
                      "        return 1\n", encoding="utf-8")
    assert function_lengths(source) == [("long", 1, 61), ("K.short", 65, 2)]


@pytest.mark.parametrize("package", app_packages(), ids=lambda p: p.name)
def test_no_function_is_longer_than_max_lines(package):
    too_long = [f"{path.relative_to(ROOT)}:{line} {name} ({length} lines)"
                for path in source_files(package)
                for name, line, length in function_lengths(path) if length > MAX_LINES]
    assert not too_long, f"over {MAX_LINES} lines: " + "; ".join(too_long)
