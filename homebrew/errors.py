"""Errors of the homebrew app's services, with their English templates (gamerules.errors
explains the model: a stable ``code``, a message key, ``params``; the French is in
locale/fr/LC_MESSAGES/django.po)."""

from __future__ import annotations

from gamerules.errors import RuleError, gettext_noop

MESSAGES: dict[str, str] = {
    "homebrew_service_refused": gettext_noop("This cannot be done now."),
    "not_homebrew": gettext_noop("This campaign does not play the homebrew d100 rules."),
    "no_such_weapon": gettext_noop("No such weapon or spell for this character."),
    "weapon_other_campaign": gettext_noop("This weapon or spell belongs to another campaign."),
    "gear_not_offered": gettext_noop("%(name)s is not offered as starting gear in this "
                                     "campaign."),
    "too_much_gear": gettext_noop("Pick at most %(most)s weapons or spells to start with "
                                  "(%(count)s picked)."),
    "attack_resolved": gettext_noop("This attack is already resolved."),
    "not_a_reaction": gettext_noop("Choose no reaction, a parry or a dodge (%(choice)r)."),
    "reaction_not_offered": gettext_noop("%(reaction)s is not one of this attack's reactions."),
    "not_a_protector": gettext_noop("%(name)s is not near enough to parry for the target."),
    "cannot_act_down": gettext_noop("%(name)s is down and cannot act."),
    "not_a_characteristic": gettext_noop("%(name)r is not a characteristic or a sub."),
    "gm_only_modifiers": gettext_noop("Only the game master gives difficulty or assist "
                                      "modifiers."),
    "gm_only": gettext_noop("Only the campaign's game master can do that."),
    "self_attack": gettext_noop("A character cannot attack itself."),
    "other_campaign": gettext_noop("Both characters must play in the same campaign."),
    "no_characters_to_rest": gettext_noop("Choose at least one character of the campaign."),
    "not_enough_resource": gettext_noop("This needs %(cost)s %(label)s (%(left)s left)."),
    "not_a_fumble": gettext_noop("Only a critical failure takes a critical failure effect."),
    "not_a_target": gettext_noop("Choose a character of the encounter."),
    "posture_after_acting": gettext_noop("The posture changes at the start of the turn only, "
                                         "before acting."),
    "action_needs_name": gettext_noop("Name the action."),
    "posture_in_encounter": gettext_noop("%(name)s is in a running encounter: change the posture "
                                         "there, at the start of the turn."),
}


class HomebrewServiceError(RuleError):
    code = "homebrew_service_refused"
    messages = MESSAGES


class NotHomebrew(HomebrewServiceError):
    code = "not_homebrew"


class NoSuchWeapon(HomebrewServiceError):
    code = "no_such_weapon"
    status = 404


class StartingGearRefused(HomebrewServiceError):
    """A starting pick the campaign does not offer: "gear_not_offered", "too_much_gear",
    "weapon_other_campaign"."""

    code = "gear_not_offered"


class AttackResolved(HomebrewServiceError):
    """The attack was resolved already (a second answer, a late reaction)."""

    code = "attack_resolved"
    status = 409


class ReactionChoiceError(HomebrewServiceError):
    code = "reaction_not_offered"


class CannotAct(HomebrewServiceError):
    code = "cannot_act_down"
    status = 409


class GameMasterOnly(HomebrewServiceError):
    code = "gm_only"
    status = 403


class PostureAfterActing(HomebrewServiceError):
    """The posture changes at the start of the turn only (seed, "Postures")."""

    code = "posture_after_acting"
    status = 409


class PostureInEncounter(HomebrewServiceError):
    """Outside its encounter a fighting character's posture would skip the turn rule."""

    code = "posture_in_encounter"
    status = 409
