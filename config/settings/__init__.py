"""Settings: everything comes from the environment (see .env.example), with embedded defaults
that run on one machine with no server: SQLite under var/, the database cache, and a filesystem
Celery broker."""

from .base import *  # noqa: F403
from .celery import *  # noqa: F403
