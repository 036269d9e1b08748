"""Static files with the production storage (issue 9, item 5): after ``collectstatic`` pages
render with hashed names; without it the web process refuses to start instead of answering 500."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from config.static import static_files_check

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


@pytest.fixture
def collected(tmp_path):
    """Production static settings with ``collectstatic`` run into a temporary STATIC_ROOT."""
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=PRODUCTION_STORAGES, DEBUG=False):
        call_command("collectstatic", "--noinput", verbosity=0)
        yield tmp_path


def test_pages_render_with_hashed_static_names_after_collectstatic(collected, client, alice):
    assert (collected / "staticfiles.json").exists()
    login = client.get(reverse("login"))
    assert login.status_code == 200
    html = login.content.decode()
    # The stylesheet is linked by its hashed name, which collectstatic wrote (and compressed).
    hashed = [part.split('"')[0] for part in html.split('href="/static/')[1:]
              if part.split('"')[0].endswith(".css")]
    assert hashed and all((collected / name).exists() for name in hashed), hashed
    assert all((collected / f"{name}.gz").exists() for name in hashed)
    client.force_login(alice)
    assert client.get(reverse("characters:list")).status_code == 200


def test_the_check_passes_after_collectstatic(collected):
    static_files_check()  # no exception


def test_the_check_refuses_an_empty_static_root(tmp_path):
    with (override_settings(STATIC_ROOT=tmp_path, STORAGES=PRODUCTION_STORAGES, DEBUG=False),
          pytest.raises(Exception, match="collectstatic")):
        static_files_check()


@pytest.mark.parametrize("entry_point", ["config.asgi", "config.wsgi"])
def test_the_web_process_refuses_to_start_without_collectstatic(tmp_path, entry_point):
    """Loading the ASGI application (what gunicorn's uvicorn workers do; the WSGI one too) with
    production settings and an empty STATIC_ROOT stops with the remedy instead of serving 500s."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DEBUG="false",
               SECRET_KEY="x7!kq2" * 12, STATIC_ROOT=str(tmp_path))
    result = subprocess.run([sys.executable, "-c", f"import {entry_point}"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "collectstatic" in result.stderr
