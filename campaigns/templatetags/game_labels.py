"""``{% load game_labels %}``: ``{{ code|skill_label }}``, ``{{ r.label|roll_label }}``,
``{{ d.2|direction_label }}`` show a stored code by its translated name (see campaigns.labels)."""

from django import template

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
