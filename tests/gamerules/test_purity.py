"""gamerules imports no Django and none of the apps (also checked by `make lint`'s import-linter
contract in .importlinter)."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import gamerules

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("django", "rest_framework", "celery", "accounts", "campaigns", "characters", "combat",
             "config", "factions", "magic")


def test_importing_every_gamerules_module_loads_no_django_and_no_app():
    modules = [m.name for m in pkgutil.walk_packages(gamerules.__path__, "gamerules.")]
    assert "gamerules.homebrew.attack" in modules and "gamerules.ew1.attacks" in modules
    code = (f"import importlib, sys\nfor m in {modules!r}: importlib.import_module(m)\n"
            f"print(sorted({{n.split('.')[0] for n in sys.modules}} & set({FORBIDDEN!r})))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True, timeout=120)
    assert out.stdout.strip() == "[]"
