"""``{% load homebrew_journal %}``: the homebrew journal's stored codes by their translated names
(templates/homebrew/registry/_log_entry.html, the reaction prompt). Tables keyed by code
(homebrew.labels), never by matching free text; an unknown code shows as stored. No query."""

from __future__ import annotations

from django import template

from campaigns.models import RollGrade
from homebrew import labels

register = template.Library()


def _named(table, code) -> str:
    name = table.get(code) if isinstance(code, str) else None
    return str(name) if name is not None else str(code if code is not None else "")


@register.filter
def hb_grade(code):
    return _named(dict(RollGrade.choices), code)


@register.filter
def hb_characteristic(code):
    return _named(labels.CHARACTERISTICS, code)


@register.filter
def hb_posture(code):
    return _named(labels.POSTURES, code)


@register.filter
def hb_rest(code):
    return _named(labels.RESTS, code)


@register.filter
def hb_reaction(code):
    """A reaction's answer: "parry", "dodge", "none", "parry:<ally id>" (a parry for an ally)."""
    base = str(code or "").partition(":")[0]
    return _named(labels.REACTIONS, base)


@register.filter
def hb_health(code):
    return _named(labels.HEALTH, code)


@register.filter
def hb_fumble(code):
    return _named(labels.FUMBLES, code)


@register.filter
def hb_why_not(refused, name):
    """Why neither parry nor dodge was possible, from an attack's ``refused`` ({"parry": code,
    "dodge": code}), said of the target ``name``: one reason when both share it, else each
    reaction's ("parry: ...; dodge: ..."); "" when the attack stored none (older entries)."""
    reasons = {r: _reason(code, name) for r, code in hb_refused_items(refused)}
    if not reasons:
        return ""
    if len(set(reasons.values())) == 1:
        return next(iter(reasons.values()))
    return "; ".join(f"{_named(labels.REACTIONS, r)}: {why}" for r, why in reasons.items())


@register.filter
def hb_refused_items(refused):
    """An attack's ``refused`` as (reaction, code) pairs, parry first (the journal's JSON
    keeps no key order)."""
    if not isinstance(refused, dict):
        return []
    return [(r, refused[r]) for r in ("parry", "dodge") if refused.get(r)]


@register.filter
def hb_why_refused(code, name):
    """Why one reaction is not offered (a refusal code), said of ``name``."""
    return _reason(code, name)


def _reason(code, name) -> str:
    text = labels.WHY_NOT.get(code)
    return str(text) % {"name": name} if text is not None else str(code)
