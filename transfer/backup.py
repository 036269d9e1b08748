"""The whole install out and back (``manage.py backup <file>`` / ``restore <file>``,
docs/export.md): on SQLite through sqlite3's online backup API (a consistent copy while the
site runs, page by page); on PostgreSQL through ``pg_dump --format=custom`` and ``pg_restore
--clean`` when they are on PATH, else the commands to run are returned."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess  # nosec B404
from pathlib import Path

from transfer.errors import BackupRefused


def _sqlite(connection) -> sqlite3.Connection:
    connection.ensure_connection()
    return connection.connection


def _pg_args(settings: dict) -> tuple[list[str], dict[str, str]]:
    args = ["--dbname", settings["NAME"]]
    if settings.get("HOST"):
        args += ["--host", str(settings["HOST"])]
    if settings.get("PORT"):
        args += ["--port", str(settings["PORT"])]
    if settings.get("USER"):
        args += ["--username", str(settings["USER"])]
    env = {**os.environ}
    if settings.get("PASSWORD"):
        env["PGPASSWORD"] = str(settings["PASSWORD"])
    return args, env


def _run(tool: str, args: list[str], env: dict[str, str], *, run: bool) -> str:
    """Runs ``tool`` (pg_dump, pg_restore) when it is on PATH and ``run``; returns the command
    line (password left out: it travels in PGPASSWORD)."""
    line = " ".join([tool, *args])
    found = shutil.which(tool)
    if not run or found is None:
        return line
    done = subprocess.run([found, *args], env=env, capture_output=True, text=True,  # nosec B603
                          check=False)
    if done.returncode:
        raise BackupRefused(details=f"{tool} failed: {done.stderr.strip()[:500]}")
    return line


def database_backup(*, connection, path: str | os.PathLike, run: bool = True) -> str:
    """Writes a backup of ``connection``'s database to ``path``. Returns what was done (the
    PostgreSQL command line, run or to run). Raises BackupRefused (another engine, a tool
    failing)."""
    vendor = connection.vendor
    if vendor == "sqlite":
        target = sqlite3.connect(os.fspath(path))
        try:
            _sqlite(connection).backup(target)
        finally:
            target.close()
        return f"sqlite3 online backup to {path}"
    if vendor == "postgresql":
        args, env = _pg_args(connection.settings_dict)
        return _run("pg_dump", ["--format=custom", "--no-owner", "--file", os.fspath(path),
                                *args], env, run=run)
    raise BackupRefused(details=f"no backup for the {vendor} engine")


def database_restore(*, connection, path: str | os.PathLike, run: bool = True) -> str:
    """Replaces ``connection``'s database by the backup at ``path`` (every table: stop the
    site's processes first). Raises BackupRefused (no such file, not a backup)."""
    if not Path(path).is_file():
        raise BackupRefused(details=f"no file {path}")
    vendor = connection.vendor
    if vendor == "sqlite":
        with open(path, "rb") as handle:
            if handle.read(16) != b"SQLite format 3\x00":
                raise BackupRefused(details=f"{path} is not an SQLite database")
        source = sqlite3.connect(os.fspath(path))
        try:
            source.backup(_sqlite(connection))
        finally:
            source.close()
        return f"sqlite3 restored from {path}"
    if vendor == "postgresql":
        args, env = _pg_args(connection.settings_dict)
        return _run("pg_restore", ["--clean", "--if-exists", "--no-owner", *args,
                                   os.fspath(path)], env, run=run)
    raise BackupRefused(details=f"no restore for the {vendor} engine")
