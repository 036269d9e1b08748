"""``{% load systems %}``: what the shared templates ask the rule-system registry.

``{% with system=campaign|rule_system %}`` gives the campaign's RuleSystemSpec (None for a system
not built); the shared template then includes ``system.templates.<part>`` (checking it is not
empty). ``{{ system|sheet_of:c }}`` is a character's sheet; ``{% for system, group in
characters|by_system %}`` splits a list of characters by rule system, in order.
"""

from django import template

from campaigns import rule_systems

register = template.Library()


@register.filter
def rule_system(campaign_or_code):
    """The spec of a Campaign (or of a rule system's code), or None."""
    code = getattr(campaign_or_code, "rule_system", campaign_or_code)
    return rule_systems.get(code) if code else None


@register.filter
def sheet_of(system, character):
    return system.sheet_of(character) if system else None


@register.filter
def by_system(characters) -> list:
    """[(spec, [character, ...]), ...] in the order the systems first appear (campaign loaded)."""
    groups: dict[str, list] = {}
    for character in characters:
        groups.setdefault(character.campaign.rule_system, []).append(character)
    return [(rule_systems.get(code), group) for code, group in groups.items()]


@register.filter
def gm_links(campaign) -> list:
    """The game master's campaign-wide steps of the campaign's system (``RuleSystemSpec.
    gm_links``): ``[(label, url), ...]``, none for a system without them."""
    spec = rule_systems.get(getattr(campaign, "rule_system", ""))
    return list(spec.gm_links(campaign)) if spec is not None and spec.gm_links else []
