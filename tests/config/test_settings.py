"""Settings come from the environment; production values pass Django's deployment checks."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "x7!kq2" * 12,
    "ALLOWED_HOSTS": "percentile.example.org",
    "DATABASE_URL": "postgres://percentile:secret@db.example.invalid:5432/percentile",
    "REDIS_URL": "redis://cache.example.invalid:6379/0",
}


def _run(code: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    # Only the machine's environment: not what the test run or other tests set.
    base = {k: v for k, v in os.environ.items()
            if k not in ("DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS",
                         "DJANGO_ALLOW_ASYNC_UNSAFE", "PERCENTILE_REQUIRE_SERVICES")}
    base["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**base, **env},
                          capture_output=True, text=True, timeout=120)


def test_check_deploy_reports_nothing_with_production_values():
    result = _run("import django, sys; from django.core.management import call_command;"
                  "django.setup(); call_command('check', '--deploy', '--fail-level', 'DEBUG')",
                  PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout + result.stderr


def test_production_settings_read_the_environment():
    result = _run("import django; django.setup(); from django.conf import settings as s;"
                  "print(s.DATABASES['default']['ENGINE'], s.DATABASES['default']['HOST'],"
                  " s.CACHES['default']['BACKEND'], s.CELERY_BROKER_URL, s.DEBUG,"
                  " s.ALLOWED_HOSTS, s.SESSION_ENGINE)", PRODUCTION)
    assert result.returncode == 0, result.stderr
    out = result.stdout.split()
    assert out[0] == "django.db.backends.postgresql"
    assert out[1] == "db.example.invalid"
    assert out[2] == "config.cache.RedisCache"
    assert out[3] == "redis://cache.example.invalid:6379/0"
    assert out[4] == "False"
    assert "percentile.example.org" in result.stdout
    assert out[-1] == "django.contrib.sessions.backends.db"


def test_embedded_defaults_need_no_server():
    result = _run("import django; django.setup(); from django.conf import settings as s;"
                  "print(s.DATABASES['default']['ENGINE'], s.DATABASES['default']['NAME'],"
                  " s.CACHES['default']['BACKEND'], s.CELERY_BROKER_URL)", {"DEBUG": "1"})
    assert result.returncode == 0, result.stderr
    engine, name, cache, broker = result.stdout.split()
    assert engine == "django.db.backends.sqlite3"
    assert name.endswith("var/percentile.sqlite3")
    # Shared state stays out of process memory even without Redis.
    assert cache == "django.core.cache.backends.db.DatabaseCache"
    assert broker == "filesystem://"


SETUP = "import django; django.setup(); print('started')"


@pytest.mark.parametrize("key", [None, "", "percentile-insecure-development-key-change-me-in-production",
                                 "change-me-to-a-long-random-string-of-at-least-fifty-characters"],
                         ids=["unset", "empty", "development-default", "env-example"])
@pytest.mark.parametrize("command", ["setup", "check-deploy"])
def test_without_debug_a_published_or_missing_secret_key_refuses_to_start(key, command):
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}
    if key is not None:
        env["SECRET_KEY"] = key
    code = SETUP if command == "setup" else (
        "import sys; from django.core.management import execute_from_command_line;"
        "execute_from_command_line(['manage.py', 'check', '--deploy'])")
    result = _run(code, env)
    assert result.returncode != 0
    assert "started" not in result.stdout
    assert "ImproperlyConfigured" in result.stderr and "SECRET_KEY" in result.stderr


def test_debug_runs_on_the_development_key():
    """``make run`` (DEBUG=1) needs no secret key."""
    result = _run("import django; django.setup(); from django.conf import settings as s;"
                  "print(s.SECRET_KEY)", {"DEBUG": "1"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "percentile-insecure-development-key-change-me-in-production"


def test_a_real_secret_key_starts_without_debug():
    result = _run(SETUP, PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "started" in result.stdout
