"""Campaign rule parameters: every system's numbers, each replaceable per campaign.

A system declares its parameters as a frozen dataclass that inherits ``RuleParameters`` and
declares each field with ``param(default, low, high, help)``. The campaign stores only the
overrides (a JSON object); ``from_overrides`` validates them against each field's type and
inclusive bounds, and ``describe`` lists every parameter for the admin and the rules documents.

Types: ``int``, ``Decimal`` (given as a string, an int or a float) and ``bool`` (given as a
JSON boolean only). A bool is never taken for an int or a Decimal. A time-zone name
(``time_zone_param``) is a string zoneinfo knows, with no bounds.

Each system also gives every parameter a short name people read (``labels``: name -> English
label wrapped in ``gettext_noop``; the admin translates it, and its help text, also wrapped),
sorts them by rule chapter (``groups``: the admin's fieldsets, ``grouped``), and may say which
combinations leave its rules unplayable (``conflicts``: parameters that read each other, e.g. a creation
budget no set of characteristics within their caps can spend). ``from_overrides`` does not
refuse a conflict (a stored campaign keeps working); what sets parameters (the admin) does.
"""

from __future__ import annotations

from dataclasses import MISSING, Field, field, fields
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any, ClassVar, TypeVar
from collections.abc import Mapping, Sequence
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from gamerules.errors import ParameterConflict, ParameterError, gettext_noop

T = TypeVar("T", int, Decimal, bool)

OTHER_GROUP = gettext_noop("Other rules")  # the title of the parameters no group names
P = TypeVar("P", bound="RuleParameters")


def param(default: T, low: T, high: T, help_text: str) -> T:
    """A parameter field: ``default`` within the inclusive bounds [``low``, ``high``], with the
    sentence the admin and the docs show."""
    if not low <= default <= high:
        raise ValueError(f"default {default!r} outside {low!r}-{high!r}")
    return field(default=default, metadata={"low": low, "high": high, "help": help_text})


def time_zone_param(default: str, help_text: str) -> str:
    """A time-zone name parameter (IANA, checked against zoneinfo): no bounds; ``describe``
    gives it the kind "zone"."""
    if not is_time_zone(default):
        raise ValueError(f"unknown time zone {default!r}")
    result: str = field(default=default, metadata={"low": None, "high": None, "help": help_text,
                                                   "kind": "zone"})
    return result


@lru_cache(maxsize=1)
def _zone_names() -> frozenset[str]:
    # The zone files on this machine, less "localtime": a link to whatever zone the machine is
    # set to, so a campaign's game day would start at a different hour on each machine.
    return frozenset(available_timezones() - {"localtime"})


def is_time_zone(name: Any) -> bool:
    """Whether ``name`` is an IANA time-zone name zoneinfo knows (``UTC``, ``Europe/Paris``),
    the same on every machine (not ``localtime``, the machine's own zone)."""
    if not isinstance(name, str) or not name or name != name.strip() or \
            name not in _zone_names():
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):  # ValueError: "../x", absolute paths
        return False
    return True


class RuleParameters:
    """Base of a system's parameters (a frozen dataclass made with ``param`` fields).

    ``labels`` maps each field's name to its English label (the subclass's table; a test
    checks that every field has one)."""

    labels: ClassVar[Mapping[str, str]] = {}
    # Declared, not set: what @dataclass gives each subclass, for ``fields`` (typeshed's
    # DataclassInstance).
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
    groups: ClassVar[Sequence[tuple[str, Sequence[str]]]] = ()

    @classmethod
    def grouped(cls) -> list[tuple[str, list[str]]]:
        """The parameters' names by rule chapter: each of ``groups`` (an English title wrapped
        in ``gettext_noop``, the names in declaration order), then the names no group holds
        under the title "Other rules". Raises ValueError on a name that is no parameter or
        that two groups hold."""
        declared = [f.name for f in fields(cls)]
        seen: set[str] = set()
        result: list[tuple[str, list[str]]] = []
        for title, names in cls.groups:
            for name in names:
                if name not in declared:
                    raise ValueError(f"group {title!r}: {name!r} is no parameter of {cls.__name__}")
                if name in seen:
                    raise ValueError(f"{name!r} is in two groups of {cls.__name__}")
                seen.add(name)
            result.append((title, [n for n in declared if n in names]))
        rest = [n for n in declared if n not in seen]
        if rest:
            result.append((OTHER_GROUP, rest))
        return result

    @classmethod
    def from_overrides(cls: type[P], overrides: Mapping[str, Any] | None) -> P:
        """Defaults with ``overrides`` applied. Raises ParameterError naming each bad key
        ("unknown parameter", "expected a int", "must be between LOW and HIGH")."""
        if overrides is not None and not isinstance(overrides, Mapping):  # a stored JSON list
            raise ParameterError({"*": "expected a mapping of parameter names to values"})
        known = {f.name: f for f in fields(cls)}
        errors: dict[str, str] = {}
        values: dict[str, Any] = {}
        for name, raw in dict(overrides or {}).items():
            f = known.get(name)
            if f is None:
                errors[name] = "unknown parameter"
                continue
            if f.metadata.get("kind") == "zone":
                if is_time_zone(raw):
                    values[name] = raw
                else:
                    errors[name] = "expected a time zone name (IANA, e.g. Europe/Paris)"
                continue
            kind = type(_default(f))
            try:
                value = coerce(raw, kind)
            except (TypeError, ValueError, InvalidOperation):
                errors[name] = f"expected a {kind.__name__}"
                continue
            low, high = f.metadata["low"], f.metadata["high"]
            if not low <= value <= high:
                errors[name] = f"must be between {low} and {high}"
                continue
            values[name] = value
        if errors:
            raise ParameterError(errors)
        return cls(**values)

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        """One row per parameter, in declaration order: name, label (English; the name itself
        when the table lacks it), kind ("number", "bool" or "zone"), default, low, high (None
        for a zone), help."""
        return [
            {"name": f.name, "label": cls.labels.get(f.name, f.name), "kind": _kind(f),
             "default": _default(f), "low": f.metadata["low"], "high": f.metadata["high"],
             "help": f.metadata["help"]}
            for f in fields(cls)
        ]

    def conflicts(self) -> Sequence[ParameterConflict]:
        """The combinations of these values that leave the rules unplayable (each names the
        parameters that read each other, the first the one to change); none by default."""
        return []

    def overrides(self) -> dict[str, Any]:
        """The fields that differ from the defaults (what a campaign stores)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != _default(f)}


def _kind(f: Field[Any]) -> str:
    kind: str = f.metadata.get("kind") or ("bool" if isinstance(_default(f), bool) else "number")
    return kind


def _default(f: Field[Any]) -> Any:
    if f.default is MISSING:
        raise TypeError(f"parameter {f.name} has no default: declare it with param()")
    return f.default


def coerce(raw: Any, kind: type) -> Any:
    """``raw`` as a ``kind`` (int, Decimal or bool). Raises TypeError or ValueError."""
    if kind is bool:
        if not isinstance(raw, bool):
            raise TypeError
        return raw
    if isinstance(raw, bool):
        raise TypeError
    if kind is Decimal:
        value = Decimal(str(raw))
        if not value.is_finite():  # NaN would make the range check raise InvalidOperation
            raise ValueError
        return value
    if isinstance(raw, float) and not raw.is_integer():
        raise ValueError
    if isinstance(raw, Decimal) and (not raw.is_finite() or raw != raw.to_integral_value()):
        raise ValueError  # int() would silently truncate 2.5 to 2
    if isinstance(raw, str) and not raw.strip().lstrip("-").isdigit():
        raise ValueError
    return int(raw)
