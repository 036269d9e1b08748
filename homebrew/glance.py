"""The homebrew's state at a glance on the shared encounter (encounters.glance, issue 21 item
2): each combatant's HP and MP (or the sheet's own gauge label, "Cartridges"), its posture,
and its conditions: unconscious, dead, no more dodges this round (a failed dodge, seed
"Esquive"). Its word for a player reading an enemy "described"
(gamerules.encounter.glance.level_of: HP lost of the max HP, 0 HP or below, unconscious or
dead are down, the campaign's ``badly_wounded_percent``). The seed has no stun: the GM's
effects ("Stunned") show as the encounter's effects.

No query: the sheet comes with each combatant (the view selects it).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from encounters import glance
from gamerules.encounter.glance import level_of
from gamerules.homebrew.params import HomebrewParameters
from homebrew.models import Health, Posture
from homebrew.play import round_key


def combatant_states(combatants, *, encounter) -> dict[int, glance.State]:
    """encounters.hooks.register_combatant_state: the State of each combatant with a sheet."""
    params = encounter.campaign.parameters
    if not isinstance(params, HomebrewParameters):
        params = HomebrewParameters()
    key = round_key(encounter)
    out = {}
    for c in combatants:
        sheet = getattr(c.character, "homebrew", None)
        if sheet is not None:
            out[c.pk] = state_of(sheet, params, round_now=key)
    return out


def state_of(sheet, params: HomebrewParameters, *, round_now: str = "") -> glance.State:
    meters = (glance.Meter("hp", _("HP"), sheet.hp, sheet.hp_max, icon="health"),
              glance.Meter("mp", sheet.gauge_label, sheet.mp, sheet.mp_max))
    marks: list[glance.Mark] = []
    if sheet.posture == Posture.DEFENSIVE:
        marks.append(glance.Mark("posture", _("defensive posture"), icon="defensive"))
    else:
        marks.append(glance.Mark("posture", _("offensive posture")))
    if sheet.health == Health.UNCONSCIOUS:
        marks.append(glance.Mark("unconscious", _("unconscious")))
    elif sheet.health == Health.DEAD:
        marks.append(glance.Mark("dead", _("dead")))
    if round_now and sheet.dodge_lost_round == round_now:
        marks.append(glance.Mark("no_dodge", _("no more dodges this round")))
    level = level_of(sheet.hp_max - sheet.hp, sheet.hp_max,
                     down=sheet.hp <= 0 or sheet.health != Health.STANDING,
                     badly_wounded_percent=params.badly_wounded_percent)
    return glance.State(meters, tuple(marks), level.value, bar="hp")


def register() -> None:
    from encounters import hooks

    hooks.register_combatant_state("homebrew", combatant_states)
    # the target's HP before and after an attack (the log, encounters.glance.log_for)
    hooks.register_log_state_keys("homebrew", ("hp", "hp_before"))
