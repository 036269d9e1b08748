"""Named rule errors: a stable ``code``, an HTTP ``status``, and a message template with params.

As Django's ``ValidationError(message, code, params)``: an error is raised with the key of its
message and the values the message needs, never with finished English text::

    raise NotEnoughPA(cost=2, pa=0.5)              # the class's own message (key = its code)
    raise NotFound("no_such_character")             # one of the class family's messages
    raise ActionRefused(code="turn_over")           # a finer API code, with its own message

- ``code``: stable, what the API returns (the class's ``code`` unless the raise gives one).
- ``key``: which message (the positional argument, else the code).
- ``params``: the values of the message's ``%(name)s`` placeholders (the API returns them).
- ``status``: the HTTP status the API answers (400, 403, 404, 409, 429; 503 for the database
  gone, campaigns.errors.ServiceUnavailable), a class attribute.
- ``message`` / ``str(exc)``: the English text (tests and logs read it).

The English templates are tables (``messages``, key -> template) on the base class of each family
of errors, beside the classes: this module, ``gamerules/<system>/errors.py``, and each app's
errors module. A class finds a key in its own table or in the table of a class it inherits from.
Templates are wrapped in ``gettext_noop`` (a no-op here: this package imports nothing from
Django) so that ``makemessages`` finds them; the pages and the API translate a template into the
reader's language and fill it with ``params`` (``campaigns.messages.error_message``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar


def gettext_noop(message: str) -> str:
    """Marks ``message`` as a template to translate (for ``makemessages``); returns it as is."""
    return message


MESSAGES: dict[str, str] = {
    "rule_error": gettext_noop("This action is not allowed by the rules."),
    "invalid_parameter": gettext_noop("Invalid rule parameters: %(details)s."),
    "parameter_conflict": gettext_noop("These rule parameters contradict each other."),
}


class RuleError(Exception):
    code: str = "rule_error"  # the class's code; an instance may carry a finer one
    status: ClassVar[int] = 400
    messages: ClassVar[Mapping[str, str]] = MESSAGES

    def __init__(self, key: str | None = None, /, *, code: str | None = None,
                 **params: Any) -> None:
        if code:
            self.code = code
        self.key = key or self.code
        self.params = params
        self.template = self.template_for(self.key)
        self.message = self.render()
        super().__init__(self.message)

    def render(self, translate: Callable[[str], str] = str) -> str:
        """The message: ``translate(template) % params`` (``translate`` gives the template in
        the reader's language; by default the English one)."""
        return translate(self.template) % self.params

    @classmethod
    def template_for(cls, key: str) -> str:
        """The English template of ``key`` in this class's tables (its own, then its bases').
        Raises LookupError for a key no table has: a raise site without its message."""
        for klass in cls.__mro__:
            table = klass.__dict__.get("messages")
            if table is not None and key in table:
                return str(table[key])
        raise LookupError(f"{cls.__name__} has no message {key!r}: add it to its table.")

    @classmethod
    def own_keys(cls) -> frozenset[str]:
        """The keys of the table this class declares (empty if it inherits its table)."""
        return frozenset(cls.__dict__.get("messages", {}))


class ParameterError(RuleError):
    """A campaign rule parameter is unknown or out of range. ``errors`` maps names to messages
    (in English: the game master reads them in the admin)."""

    code = "invalid_parameter"

    def __init__(self, errors: dict[str, str]):
        super().__init__(details="; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors


class ParameterConflict(RuleError):
    """Rule parameters that read each other and, together, leave the rules unplayable (a
    creation budget no characteristics within their caps can spend, a second threshold below
    the first). ``names`` the parameters concerned, the first the one the admin marks; the
    message and its params as any rule error. Returned by ``RuleParameters.conflicts`` (each
    system's subclass holds its own messages), raised by nothing: the admin shows them."""

    code = "parameter_conflict"

    def __init__(self, key: str, /, *, names: tuple[str, ...], **params: Any) -> None:
        super().__init__(key, **params)
        self.names = names
