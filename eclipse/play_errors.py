"""Why an Eclipse Phase action on the shared encounter is refused (eclipse.acting and the modules
of the actions: eclipse.declare, eclipse.attack, eclipse.zones, eclipse.blasts, eclipse.actions,
eclipse.turn_end), with the English templates (the French is in
locale/fr/LC_MESSAGES/django.po). The pure rules' refusals are gamerules.eclipse_phase.errors;
the encounter's own (out of turn, another player's combatant) are encounters.errors."""

from __future__ import annotations

from gamerules.errors import RuleError, gettext_noop

MESSAGES: dict[str, str] = {
    "ep_play_refused": gettext_noop("This cannot be done in the encounter now."),
    "ep_not_a_target": gettext_noop("Choose another combatant with an Eclipse Phase sheet."),
    "ep_no_sheet": gettext_noop("%(name)s has no Eclipse Phase sheet."),
    "ep_cannot_act": gettext_noop("%(name)s cannot act (%(state)s)."),
    "ep_weapon_unusable": gettext_noop("%(weapon)s is %(state)s."),
    "ep_not_carried": gettext_noop("This combatant carries no such weapon."),
    "ep_needs_ranged": gettext_noop("%(weapon)s is not a ranged weapon."),
    "ep_not_knocked_down": gettext_noop("%(name)s is standing already."),
    "ep_not_held": gettext_noop("%(name)s is not held."),
    "ep_bad_choice": gettext_noop("Unknown choice %(value)r."),
    "ep_turn_end_done": gettext_noop("The end of this action turn was applied already."),
    "ep_gm_only": gettext_noop("Only the campaign's game master can do that."),
}


class PlayError(RuleError):
    code = "ep_play_refused"
    messages = MESSAGES
    status = 400


class NotATarget(PlayError):
    code = "ep_not_a_target"


class NoSheet(PlayError):
    code = "ep_no_sheet"
    status = 409


class CannotAct(PlayError):
    code = "ep_cannot_act"
    status = 409


class WeaponUnusable(PlayError):
    code = "ep_weapon_unusable"
    status = 409


class NotCarried(PlayError):
    code = "ep_not_carried"
    status = 404


class BadChoice(PlayError):
    code = "ep_bad_choice"


class TurnEndDone(PlayError):
    code = "ep_turn_end_done"
    status = 409


class GameMasterOnly(PlayError):
    code = "ep_gm_only"
    status = 403
