"""Named rule errors: each carries a stable ``code`` for the API and a message for the player."""


class RuleError(Exception):
    code = "rule_error"

    def __init__(self, message: str, *, code: str | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code


class ParameterError(RuleError):
    """A campaign rule parameter is unknown or out of range. ``errors`` maps names to messages."""

    code = "invalid_parameter"

    def __init__(self, errors: dict[str, str]):
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors
