"""Errors of the eclipse app's services, with their English templates (gamerules.errors explains
the model: a stable ``code``, a message key, ``params``; the French is in
locale/fr/LC_MESSAGES/django.po). The pure rules' refusals are gamerules.eclipse_phase.errors."""

from __future__ import annotations

from gamerules.errors import RuleError, gettext_noop

MESSAGES: dict[str, str] = {
    "eclipse_service_refused": gettext_noop("This cannot be done now."),
    "not_eclipse": gettext_noop("This campaign does not play the Eclipse Phase rules."),
    "no_such_template": gettext_noop("No such morph, weapon or armour in this campaign."),
    "no_such_weapon_carried": gettext_noop("This character carries no such weapon."),
    "no_such_armour_worn": gettext_noop("This character wears no such armour."),
    "armour_worn_already": gettext_noop("%(name)s is worn already."),
    "no_sleeve": gettext_noop("%(name)s has no morph: resleeve first."),
    "gm_only": gettext_noop("Only the campaign's game master can do that."),
    "amount_range": gettext_noop("Give a whole number from %(low)s to %(high)s."),
    "not_a_recovery": gettext_noop("Choose rest or psychosurgery (%(method)r)."),
    "moxie_full": gettext_noop("Moxie is full (%(max)s)."),
    "stress_value_bad": gettext_noop(
        "Give the stress value as a number or dice, e.g. 5 or 1d10+2 (%(value)r)."),
    "gravity_range": gettext_noop("Give a gravity from 0 to %(high)s g (%(value)r)."),
    "ambush_not_setup": gettext_noop("The ambush is rolled before the encounter starts."),
    "ambush_no_target": gettext_noop("Mark the surprised combatants first."),
    "ambush_bad_ambusher": gettext_noop("The ambusher must be a combatant with a sheet, not surprised."),
    "not_in_encounter_now": gettext_noop(
        "%(name)s is fighting in a running encounter: resleeve after it."),
}


class EclipseServiceError(RuleError):
    code = "eclipse_service_refused"
    messages = MESSAGES


class NotEclipse(EclipseServiceError):
    code = "not_eclipse"


class NoSuchTemplate(EclipseServiceError):
    code = "no_such_template"
    status = 404


class NotCarried(EclipseServiceError):
    code = "no_such_weapon_carried"
    status = 404


class NoSleeve(EclipseServiceError):
    code = "no_sleeve"
    status = 409


class GameMasterOnly(EclipseServiceError):
    code = "gm_only"
    status = 403


class InEncounter(EclipseServiceError):
    code = "not_in_encounter_now"
    status = 409
