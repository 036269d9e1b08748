"""Eclipse Phase's state at a glance on the shared encounter (encounters.glance, issue 21 item
2): each combatant's damage against DUR (the death rating in its words), wounds, stress
against lucidity (traumas in its words), Moxie, the ammunition of its readied weapon, and its
conditions: stunned, prone (knocked down), unconscious, bleeding, dead or destroyed, beyond
lucidity or insane, its readied weapon jammed or damaged. Its word for a player reading an
enemy "described" (gamerules.encounter.glance.level_of: damage of DUR, a wound counts as
hurt, unconscious, dead or destroyed are down, the campaign's ``badly_wounded_percent``).

**Choice, the readied weapon**: no weapon is stored as drawn; the readied one is the first
carried weapon (in the order carried) that is not destroyed and whose skill the character may
roll, the one the turn's form offers first; its ammunition shows when it has a magazine, to
its player and the GM only (``own_only``): an ally reads it on their shared TACNet
(eclipse.tacnet), as before; an enemy never.

Queries: the sheets and their current sleeves come with the combatants (the view selects
``eclipse__sleeve``: hooks.register_view_related); the carried weapons with their templates
are read in one query for every sheet (none when the turn's form read them already). The
pure values are built without the armour (``eclipse.encounter._contender``'s way), which
nothing here reads.
"""

from __future__ import annotations

from typing import Any

from django.db.models import prefetch_related_objects
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from eclipse.defence import params_of
from eclipse.models import WeaponState
from eclipse.selectors import NO_MORPH, ego_of, health_of, mind_of, morph_of, weapons_prefetch
from encounters import glance
from gamerules.eclipse_phase import health as rules_health
from gamerules.eclipse_phase.sheet import Character as RulesCharacter
from gamerules.eclipse_phase.stress import MentalCondition, mental_condition
from gamerules.encounter.glance import level_of

VIEW_RELATED = ("eclipse__sleeve",)


def combatant_states(combatants, *, encounter) -> dict[int, glance.State]:
    """encounters.hooks.register_combatant_state: the State of each combatant with a sheet,
    by combatant id (one query at most: the weapons)."""
    params = params_of(encounter)
    rows = [(c, getattr(c.character, "eclipse", None)) for c in combatants]
    rows = [(c, s) for c, s in rows if s is not None]
    sheets: list[Any] = [s for _c, s in rows]
    if sheets:
        prefetch_related_objects(sheets, weapons_prefetch())
    return {c.pk: state_of(sheet, params) for c, sheet in rows}


def state_of(sheet, params) -> glance.State:
    """One sheet's State (its sleeve and weapons loaded)."""
    sleeve = sheet.sleeve
    morph = morph_of(sleeve) if sleeve is not None else NO_MORPH
    character = RulesCharacter(ego=ego_of(sheet), morph=morph)
    health, mind = health_of(sleeve), mind_of(sheet)
    meters: list[glance.Meter] = []
    marks: list[glance.Mark] = []
    level = level_of(0, 1)
    if sleeve is not None:
        state = rules_health.condition(health, morph, params)
        dr = morph.dr(params)
        meters.append(glance.Meter("damage", _("Damage"), health.damage, morph.durability,
                                   worse_up=True, note=_("death at %(n)s") % {"n": dr}))
        meters.append(glance.Meter("wounds", _("Wounds"), health.wounds))
        if health.stunned:
            marks.append(glance.Mark("stunned", ngettext(
                "stunned (%(n)s action turn)", "stunned (%(n)s action turns)",
                health.stunned) % {"n": health.stunned}))
        if health.knocked_down:
            marks.append(glance.Mark("prone", _("prone (knocked down)")))
        if state is rules_health.Condition.UNCONSCIOUS:
            marks.append(glance.Mark("unconscious", _("unconscious")))
        if rules_health.bleeding(health, morph, params):
            marks.append(glance.Mark("bleeding", _("bleeding")))
        if state is rules_health.Condition.DEAD:
            marks.append(glance.Mark("dead", _("dead")))
        elif state is rules_health.Condition.DESTROYED:
            marks.append(glance.Mark("dead", _("destroyed")))
        level = level_of(health.damage, morph.durability,
                         down=state is not rules_health.Condition.ACTIVE, wounds=health.wounds,
                         badly_wounded_percent=params.badly_wounded_percent)
    meters.append(glance.Meter("stress", _("Stress"), sheet.stress, character.luc(params),
                               worse_up=True,
                               note=ngettext("%(n)s trauma", "%(n)s traumas", sheet.traumas)
                               % {"n": sheet.traumas}))
    mental = mental_condition(mind, character, params)
    if mental is MentalCondition.INSANE:
        marks.append(glance.Mark("mental", _("insane")))
    elif mental is MentalCondition.BEYOND_LUCIDITY:
        marks.append(glance.Mark("mental", _("beyond lucidity")))
    meters.append(glance.Meter("moxie", _("Moxie"), sheet.moxie, sheet.moxie_max))
    readied = _readied(sheet, character, params)
    if readied is not None:
        if readied.template.magazine:
            meters.append(glance.Meter("ammo", readied.template.name, readied.loaded,
                                       readied.template.magazine, note=ngettext(
                                           "%(n)s spare magazine", "%(n)s spare magazines",
                                           readied.spares) % {"n": readied.spares},
                                       own_only=True))
        if readied.state in (WeaponState.JAMMED, WeaponState.DAMAGED):
            marks.append(glance.Mark("jammed", _("%(weapon)s: %(state)s") % {
                "weapon": readied.template.name, "state": readied.get_state_display().lower()},
                own_only=True))
    return glance.State(tuple(meters), tuple(marks), level.value,
                        bar="damage" if sleeve is not None else "")


def _readied(sheet, character, params):
    """The readied weapon (see the module's docstring), or None."""
    for w in sheet.weapons.all():
        if w.state != WeaponState.DESTROYED and character.can_use(w.template.skill, params):
            return w
    return None


def register() -> None:
    from encounters import hooks

    hooks.register_combatant_state("eclipse_phase", combatant_states)
    # the target's damage and wounds before and after a hit (the log, encounters.glance.log_for)
    hooks.register_log_state_keys("eclipse_phase", ("before", "after"))
    hooks.register_view_related("eclipse_phase", VIEW_RELATED)
