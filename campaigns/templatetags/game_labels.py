"""``{% load game_labels %}``: ``{{ code|skill_label }}``, ``{{ r.label|roll_label }}``,
``{{ d.2|direction_label }}`` show a stored code by its translated name (see campaigns.labels)."""

import html

from django import template
from django.utils import formats
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from campaigns.labels import label, modifier_name
from campaigns.messages import error_message

register = template.Library()


@register.filter
def skill_label(code):
    return label("skill", code)


@register.filter
def roll_label(code):
    return label("roll", code)


@register.filter
def modifier_label(modifier):
    """A journal's modifier ({"label", "value", "source"}) by its name (campaigns.labels)."""
    return modifier_name(modifier)


@register.filter
def direction_label(code):
    return label("direction", code)


@register.filter
def reduction_label(code):
    return label("reduction", code)


@register.filter
def refusal_text(exc):
    """A refusal (a RuleError) as the player reads it, in the active language ("" for None)."""
    return error_message(exc) if exc else ""


def _e(value) -> str:
    """``value`` escaped as ``{{ value }}`` escapes it (conditional_escape without its
    lazy-string wrapper)."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


def _shown(value) -> str:
    """``value`` as ``{{ value }}`` writes it, escaped (an int as is, anything else
    localized)."""
    return str(value) if type(value) is int else _e(formats.localize(value))


def _modifier(m) -> str:
    """`` · <name> <+value>`` of one stored modifier of a roll."""
    value = m.get("value", "") if isinstance(m, dict) else ""
    # A value that is no number reads as the template read it: no sign, "" when missing.
    sign = "+" if isinstance(value, int | float) and value >= 0 else ""
    return f" · {_e(modifier_name(m))} {sign}{_shown(value)}"


@register.simple_tag
def rolls_html(a):
    """The rolls of journal entry ``a`` (folded, one line each: label, dice, faces, total,
    target, grade, modifiers), "" without any: combat/_rolls.html, which every log includes
    per entry. Built here rather than in the template: an encounter's initiative entry holds
    a roll per combatant (issue 21, item 9)."""
    rolls = a.rolls.all()
    if not rolls:
        return ""
    lines = []
    for r in rolls:
        target = "" if r.target_score is None else f" / {_shown(r.target_score)}"
        grade = (f' <span class="grade grade-{_e(r.grade)}" data-testid="grade">'
                 f"{_e(r.get_grade_display())}</span>") if r.grade else ""
        faces = ", ".join(_e(f) for f in r.faces) if isinstance(r.faces, list) else _e(r.faces)
        lines.append(f"<li>{_e(label('roll', r.label))}: {_e(r.expression)} → {faces} = "
                     f"{_shown(r.total)}{target}{grade}"
                     + "".join(_modifier(m) for m in r.modifiers or ()) + "</li>")
    rolls_word = gettext("rolls")
    return mark_safe(  # every value escaped (_e, _shown)
        f'<details data-action="{_shown(a.pk)}"><summary>{rolls_word}</summary><ul>'
        + "".join(lines) + "</ul></details>")
