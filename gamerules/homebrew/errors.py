"""Why a homebrew action is refused. Each ``code`` is stable (the API returns it); ``params``
holds the numbers a translated message needs."""

from __future__ import annotations

from typing import Any

from gamerules.errors import RuleError


class HomebrewError(RuleError):
    code = "homebrew_refused"

    def __init__(self, message: str, *, code: str | None = None,
                 params: dict[str, Any] | None = None):
        super().__init__(message, code=code)
        self.params = params or {}


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
