"""Template helpers of the Eclipse Phase actions on the encounter page (eclipse.play_selectors)."""

from django import template

from eclipse.play_selectors import mishaps, turn_options, zones

register = template.Library()


@register.simple_tag
def eclipse_turn(view, me):
    """eclipse.play_selectors.TurnOptions of ``me`` in ``view``'s encounter."""
    return turn_options(view=view, me=me)


@register.filter
def percent(value):
    """A Fraction as a percentage with one decimal."""
    return f"{float(value) * 100:.1f}"


@register.simple_tag
def eclipse_gm(view):
    """The GM's steps out of turn: the lasting suppressive zones, the mishaps to pick."""
    return {"zones": zones(view), "mishaps": mishaps(view)}


@register.simple_tag
def eclipse_environment(view):
    """The encounter's gravity (eclipse.environment.Gravity) and its stored ambush: one query
    per page, cached on the encounter."""
    from eclipse import environment

    setting = environment.setting_of(view.encounter)
    return {"gravity": environment.gravity(view.encounter),
            "ambush": environment.ambush_seen(setting.ambush if setting is not None else {},
                                              view.seen)}


@register.filter
def ep_area(weapon, params):
    """gamerules.eclipse_phase.explosives.Area of ``weapon`` (the map's preview), or None."""
    from gamerules.eclipse_phase.explosives import area_of

    return area_of(weapon, params)
