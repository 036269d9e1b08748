"""docs/deploy.md stays true to the code (issue 9, item 9): every setting read from the
environment and every Procfile variable is documented, and the Procfile's process types are
the ones the document and the deployment test run."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "deploy.md").read_text()


def test_every_environment_variable_is_documented():
    read = set()
    for path in (ROOT / "config" / "settings").glob("*.py"):
        read |= set(re.findall(r'env(?:\.\w+)?\(\s*"([A-Z][A-Z0-9_]+)"', path.read_text()))
    read |= set(re.findall(r"\$\{([A-Z][A-Z0-9_]+)", (ROOT / "Procfile").read_text()))
    assert {"SECRET_KEY", "DATABASE_URL", "REDIS_URL", "STATIC_ROOT", "WEB_CONCURRENCY"} <= read
    missing = sorted(name for name in read if f"`{name}`" not in DOC)
    assert not missing, f"not in docs/deploy.md: {missing}"


def test_the_procfile_has_web_worker_one_beat_and_release():
    kinds = dict(line.split(":", 1) for line in (ROOT / "Procfile").read_text().splitlines()
                 if line and not line.startswith("#"))
    assert set(kinds) == {"web", "worker", "beat", "release"}
    assert "gunicorn config.asgi:application" in kinds["web"] and "$PORT" in kinds["web"]
    assert "--worker-class uvicorn_worker.UvicornWorker" in kinds["web"]
    assert "celery -A config worker" in kinds["worker"]
    assert "celery -A config beat" in kinds["beat"]
    for step in ("migrate --noinput", "collectstatic --noinput", "check --deploy"):
        assert step in kinds["release"]
    for topic in ("collectstatic", "exactly one", "/healthz", "pg_dump", "nginx", "systemd",
                  "inspect ping", "Server push", "uvicorn_worker.UvicornWorker"):
        assert topic in DOC, topic
