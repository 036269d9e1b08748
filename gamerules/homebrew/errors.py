"""Why a homebrew action is refused. Each ``code`` is stable (the API returns it); ``MESSAGES``
holds the English template of each key, ``params`` its numbers (gamerules.errors)."""

from __future__ import annotations

from gamerules.errors import ParameterConflict, RuleError, gettext_noop

MESSAGES: dict[str, str] = {
    "homebrew_refused": gettext_noop("This action is not allowed by the homebrew rules."),
    "action_refused": gettext_noop("This action is refused."),
    "reaction_refused": gettext_noop("This reaction is not allowed now."),
    "invalid_weapon": gettext_noop(
        "A damage die is one die, from 1d2 to 1d%(max_damage_sides)s (here “%(die)s”)."),
    "invalid_amount": gettext_noop("This amount is not allowed."),
    "invalid_characteristics": gettext_noop("These characteristics do not fit the creation budgets."),
    "invalid_fumble_effect": gettext_noop(
        "Pick a critical failure effect from the list or describe one."),
    "action_used": gettext_noop("One action per turn: this turn's action is already spent."),
    "turn_over": gettext_noop("This turn is over."),
    "posture_locked": gettext_noop("The posture can be changed only at the start of one's turn."),
    "spell_cost_cannot": gettext_noop("A spell's cost cannot be negative."),
    "no_more_dodges": gettext_noop("After a failed dodge, no more dodges this round."),
    "dodge_for_ally": gettext_noop("One dodges only attacks aimed at oneself."),
    "parry_against_magic": gettext_noop("A magical attack cannot be parried."),
    "needs_defensive_posture": gettext_noop("Parry and dodge need the defensive posture."),
    "surprised": gettext_noop("A surprised character cannot react in its first turn."),
    "attack_missed": gettext_noop("There is nothing to react to: the attack missed."),
    "rest_cannot_take": gettext_noop("A rest cannot take HP or MP away."),
    "damage_cannot_negative": gettext_noop("Damage cannot be negative."),
    "fumble_effect_required": gettext_noop("Pick an effect from the list or describe one."),
    "unknown_fumble_effect": gettext_noop("Unknown critical failure effect %(effect)r."),
    "fumble_bonus": gettext_noop("A critical failure's malus cannot be a bonus."),
}


class HomebrewError(RuleError):
    code = "homebrew_refused"
    messages = MESSAGES


class ActionRefused(HomebrewError):
    """Out of turn order within the turn: a second action, a posture change after acting."""

    code = "action_refused"


class ReactionRefused(HomebrewError):
    """A parry or dodge that the rules do not allow here."""

    code = "reaction_refused"


class InvalidWeapon(HomebrewError):
    code = "invalid_weapon"


class InvalidAmount(HomebrewError):
    code = "invalid_amount"


# Rule parameters that leave no character possible (HomebrewParameters.conflicts).
PARAMETER_CONFLICTS: dict[str, str] = {
    "min_above_max": gettext_noop(
        "The lowest main characteristic (%(low)s) is above the highest (%(high)s): no character "
        "could be created."),
    "points_below_minima": gettext_noop(
        "No character could be created: %(points)s points to share, but three main "
        "characteristics of at least %(low)s need %(least)s."),
    "points_above_maxima": gettext_noop(
        "No character could be created: every one of %(points)s points must be spent, but three "
        "main characteristics capped at %(high)s hold %(most)s at most."),
}


class HomebrewParameterConflict(ParameterConflict):
    messages = PARAMETER_CONFLICTS
