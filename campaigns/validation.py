"""The game master's refusals in words: rule errors turned into form errors, and the checks
every system's admin shares (a row of one rule system's campaign, of one campaign).

A model's ``clean()`` or a form's ``clean()`` calls the rules (gamerules/ or a system's
services), which raise or return ``RuleError``s; ``refusal`` turns them into Django's
``ValidationError`` with the message in the reader's language (campaigns.messages) and the
error's code, on the field it concerns ("*": the whole form). Nothing here holds a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ObjectDoesNotExist, ValidationError

from campaigns.errors import WrongCampaign
from campaigns.messages import error_message
from gamerules import dice
from gamerules.errors import RuleError


def validate_dice(value: str) -> None:
    """A model field's validator: ``value`` is dice notation we accept, else a ValidationError
    saying what is wrong in the writer's terms (gamerules.dice's keys), code ``invalid_dice``."""
    try:
        dice.validate(value)
    except dice.DiceNotationError as exc:
        raise ValidationError(error_message(exc), code=exc.code) from None


def refusal(problems: RuleError | Mapping[str, RuleError], field: str | None = None
            ) -> ValidationError:
    """A ValidationError of one rule error (on ``field``, None: the whole form) or of a mapping
    field -> rule error ("*" for the whole form), each in the active language with its code."""
    if isinstance(problems, RuleError):
        problems = {field or "*": problems}
    return ValidationError({
        NON_FIELD_ERRORS if name == "*" else name: ValidationError(error_message(exc),
                                                                   code=exc.code)
        for name, exc in problems.items()})


def related(row: Any, name: str) -> Any:
    """``row.<name>``, or None when unset or not saved yet (an admin inline's unsaved parent)."""
    if getattr(row, f"{name}_id", None) is None:
        return None
    try:
        return getattr(row, name)
    except ObjectDoesNotExist:
        return None


def _system_name(code: str) -> Any:
    from campaigns import rule_systems
    spec = rule_systems.get(code)
    return spec.name if spec is not None else code


def campaign_problem(campaign, rule_system: str) -> RuleError | None:
    """Why ``campaign`` cannot take a row of ``rule_system`` (None: it can)."""
    if campaign is None or campaign.rule_system == rule_system:
        return None
    return WrongCampaign("campaign_wrong_system", name=campaign.name,
                         system=_system_name(campaign.rule_system),
                         expected=_system_name(rule_system))


def character_problem(character, rule_system: str) -> RuleError | None:
    """Why ``character`` cannot take a row of ``rule_system`` (None: it can). Reads its
    campaign."""
    if character is None or character.campaign.rule_system == rule_system:
        return None
    return WrongCampaign("character_wrong_system", name=character.name,
                         system=_system_name(character.campaign.rule_system),
                         expected=_system_name(rule_system))


def play_mode_problem(campaign, play_mode: str) -> RuleError | None:
    """Why ``campaign`` does not play ``play_mode`` (campaigns.rule_systems.ENCOUNTER: its
    system runs turn-based encounters) (None: it does, or its system is not registered: the
    campaign's own check says so)."""
    from campaigns import rule_systems
    spec = rule_systems.get(campaign.rule_system) if campaign is not None else None
    if spec is None or spec.play_mode == play_mode:
        return None
    return WrongCampaign("no_encounters", name=campaign.name, system=spec.name)


def same_campaign_problem(thing, campaign_id: int | None) -> RuleError | None:
    """Why ``thing`` (a template, a character... with ``campaign``; a null campaign is every
    campaign's) cannot be used in the campaign ``campaign_id`` (None: it can)."""
    if thing is None or campaign_id is None or thing.campaign_id in (None, campaign_id):
        return None
    return WrongCampaign("other_campaign", name=str(thing), campaign=thing.campaign.name)


def require(**problems: RuleError | None) -> None:
    """Raise the ValidationError of the problems found, by field ("all" for the whole form);
    nothing when every one is None."""
    found = {("*" if name == "all" else name): p for name, p in problems.items() if p is not None}
    if found:
        raise refusal(found)
