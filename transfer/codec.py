"""Field values to JSON and back (docs/export.md, "Values"), and the ids inside JSON columns.

JSON has no datetime nor decimal: a datetime is its ISO 8601 text with microseconds (Django's
JSON encoder cuts them to milliseconds, which the round trip would lose), a decimal its text, a
date ISO; ``decode`` turns them back through the field's own ``to_python``."""

from __future__ import annotations

import base64
import datetime
import decimal
import uuid
from typing import Any

from django.db import models

from encounters.visibility import CHARACTER_KEYS, ID_KEYS, ID_LIST_KEYS


def encode(field: models.Field, value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    return value


def decode(field: models.Field, value: Any) -> Any:
    """The Python value of a document's ``value`` for ``field``; raises ValidationError."""
    if value is None:
        return None
    if isinstance(field, models.JSONField):
        return value
    return field.to_python(value)


def file_out(fieldfile, *, include: bool) -> dict | None:
    """A file field's value: ``{"name", "content"}`` (base64), or None (empty, not included,
    or missing from the storage)."""
    if not fieldfile or not include:
        return None
    try:
        with fieldfile.storage.open(fieldfile.name, "rb") as handle:
            content = handle.read()
    except OSError:
        return None
    return {"name": fieldfile.name, "content": base64.b64encode(content).decode("ascii")}


def remap_json(kind: str, value: Any, *, users: dict, combatants: dict, characters: dict,
               encounters: dict | None = None) -> Any:
    """``value`` with the ids it holds remapped. ``kind`` is registry.JSON_IDS's: "users" (a list
    of user references: maps ``users``), "encounter" (the keys of encounters.visibility: an int
    under ``ID_KEYS`` or in a list under ``ID_LIST_KEYS`` is a combatant's id, under
    ``CHARACTER_KEYS`` a character's, under ``"encounter"`` an encounter's (``encounters``: the
    journal's summaries name the encounter their entry belongs to, which its page's log reads);
    an int no map knows is left as it is)."""
    encounters = encounters or {}
    if kind == "users":
        return [users[u] for u in value or () if u in users]

    def walk(node):
        if isinstance(node, dict):
            out = {}
            for key, item in node.items():
                if key in ID_KEYS and isinstance(item, int) and not isinstance(item, bool):
                    out[key] = combatants.get(item, item)
                elif key in ID_LIST_KEYS and isinstance(item, list):
                    out[key] = [combatants.get(i, i) if isinstance(i, int) else walk(i)
                                for i in item]
                elif key in CHARACTER_KEYS and isinstance(item, int):
                    out[key] = characters.get(item, item)
                elif key == "encounter" and isinstance(item, int) and not isinstance(item, bool):
                    out[key] = encounters.get(item, item)
                else:
                    out[key] = walk(item)
            return out
        if isinstance(node, list):
            return [walk(i) for i in node]
        return node

    return walk(value)
