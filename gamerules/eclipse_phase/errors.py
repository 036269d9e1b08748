"""Why an Eclipse Phase action is refused. Each ``code`` is stable (the API returns it);
``params`` holds the numbers a translated message needs."""

from __future__ import annotations

from typing import Any

from gamerules.errors import RuleError


class EclipseError(RuleError):
    code = "eclipse_refused"

    def __init__(self, message: str, *, code: str | None = None,
                 params: dict[str, Any] | None = None):
        super().__init__(message, code=code)
        self.params = params or {}


class InvalidSheet(EclipseError):
    """An aptitude, skill, morph, ego, weapon or armour value out of its range."""

    code = "ep_invalid_sheet"


class InvalidModifier(EclipseError):
    """A difficulty beyond +/-30, or a situational modifier unknown or not for this attack."""

    code = "ep_invalid_modifier"


class NoMoxie(EclipseError):
    code = "ep_no_moxie"


class ActionsSpent(EclipseError):
    """Not enough quick or complex actions left in this action phase, or not this one's phase."""

    code = "ep_actions_spent"


class DefenceRefused(EclipseError):
    """A defence the rules do not allow (surprised without a quick action, full defence without
    the complex action)."""

    code = "ep_defence_refused"


class FiringRefused(EclipseError):
    """A firing mode the weapon lacks, too many or too spread targets, not enough rounds."""

    code = "ep_firing_refused"


class OutOfAmmo(EclipseError):
    code = "ep_out_of_ammo"


class ManoeuvreRefused(EclipseError):
    """A charge, called shot, aim, subdue, beam manoeuvre or explosive the rules do not allow."""

    code = "ep_manoeuvre_refused"


class RecoveryRefused(EclipseError):
    """Rest or psychosurgery the rules do not allow (an ego gone permanently insane, a rest
    that would remove derangements)."""

    code = "ep_recovery_refused"
