"""The engine's errors: each carries a stable code of the hand-record error table."""


class EngineError(ValueError):
    """A rule, record or action fault; `code` is one of the hand-record error codes."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class RulesError(EngineError):
    """An unknown preset or option, a wrong type, or an impossible combination."""

    def __init__(self, message: str):
        super().__init__("bad_record", message)


class IllegalAction(EngineError):
    """An action that the rules do not allow in this state."""
