"""Errors raised by the hand engine. Each carries a machine ``code``, the ``rule`` it enforces (a RULES.md
number such as ``"R5.3"``, or ``""``), ``params`` for a translated message, and an English message.

The engine never changes a hand when it raises one of these: callers may show the message and carry on.
"""


class RuleError(ValueError):
    """An action, card entry or setting that the rules do not allow. The base of every error the pure
    rules raise (the engine, the clock, payouts, ICM, balancing), so the Django layer translates them
    all one way. ``default_rule`` is the rule a subclass enforces unless told otherwise."""

    default_rule = ""

    def __init__(self, code: str, message: str, rule: str = "", params: dict | None = None):
        rule = rule or self.default_rule
        if rule and f"({rule})" not in message:
            message = f"{message} ({rule})"
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.params = dict(params or {})
        self.message = message

    def to_dict(self) -> dict:
        return {"code": self.code, "rule": self.rule, "params": self.params, "message": self.message}


class ConfigError(RuleError):
    """A hand configuration (table, stakes, positions) that cannot be dealt."""
