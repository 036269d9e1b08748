"""Player-facing text for rule errors, in the active language.

A rule error (``gamerules.errors.RuleError``) carries a ``code``, the English ``template`` of its
message and the ``params`` that fill it, as Django's ``ValidationError`` does. The template is
the msgid of ``locale/<lang>/LC_MESSAGES/django.po``: ``error_message(exc)`` translates it and
fills it with the params, so a French reader gets French with the same values. Nothing is
matched against English text; a template without a translation shows in English.

The templates live beside the error classes (``MESSAGES`` of gamerules/errors.py,
gamerules/<system>/errors.py and each app's errors.py, and ``PROBLEMS`` of the homebrew
characteristics rules);
tests/i18n/test_i18n.py fails for any template the French catalogue lacks.
"""

from __future__ import annotations

from django.utils.translation import gettext

from gamerules.errors import RuleError


def error_message(exc: BaseException) -> str:
    """What to show the player for ``exc``: its message in the active language (a RuleError),
    else the exception's own text."""
    if isinstance(exc, RuleError):
        return exc.render(gettext)
    return str(getattr(exc, "message", None) or exc)
