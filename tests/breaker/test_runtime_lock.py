"""The runtime lock alone runs production (docs/deploy.md installs only requirements.txt).

Found by following docs/deploy.md on loopback: with only requirements.txt installed, beat and
every worker died at start ("No module named 'packaging'", imported by kombu's Redis transport,
which declares it in its ``redis`` extra only), and honcho then stopped the web processes too.
The tests ran in the dev virtualenv, where pytest brings packaging along, so nothing saw it."""

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Runs what the Procfile's processes import (the web app with its URLs, the Celery app with the
# Redis broker and result backend, gunicorn, honcho) in a Python where only the distributions of
# requirements.txt can be imported: the dev virtualenv's other packages are hidden, as on a server
# installed from the runtime lock. An optional import (try/except ImportError) just finds nothing.
PROBE = r"""
import importlib.abc, importlib.metadata as md, json, os, re, sys
allowed = set(json.loads(sys.argv[1]))
owners = md.packages_distributions()

class RuntimeLockOnly(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        dists = owners.get(name.split(".")[0])
        if dists and not {re.sub(r"[-_.]+", "-", d).lower() for d in dists} & allowed:
            raise ModuleNotFoundError(f"No module named {name!r} (not in requirements.txt)")
        return None

sys.meta_path.insert(0, RuntimeLockOnly())
os.environ["DEBUG"] = "1"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
import config.wsgi, config.urls, config.celery
import kombu.transport.redis, celery.backends.redis
import gunicorn.app.wsgiapp, honcho.command
from django.urls import get_resolver
get_resolver().url_patterns
print("imported")
"""


def _name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_production_imports_need_only_the_runtime_lock():
    locked = sorted({_name(m[1]) for m in re.finditer(r"^([A-Za-z0-9_.\-]+)==", (
        ROOT / "requirements.txt").read_text(), re.M)})
    probe = subprocess.run([sys.executable, "-c", PROBE, json.dumps(locked)], cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
    assert probe.returncode == 0, probe.stderr[-2000:]
    assert probe.stdout.split()[-1] == "imported"
