"""The base of every error a service raises for a well-formed request that is not possible now (409)
or breaks a rule (422). A leaf: it imports no app, so every layer can raise it; ``config.api`` turns
any of them into the one error body."""


class ServiceError(Exception):
    """What a service raises when a well-formed request is not possible now (409) or breaks a rule
    (422). Each app subclasses it; the API turns any of them into one error body."""

    status = 409

    def __init__(
        self,
        message,
        *,
        code: str,
        field: str | None = None,
        rule: str = "",
        params: dict | None = None,
        extra: dict | None = None,
    ):
        super().__init__(str(message))
        self.message = message
        self.code = code
        self.field = field
        self.rule = rule
        self.params = params or {}
        self.extra = extra or {}

    def body(self) -> dict:
        """``code``, ``field``, ``rule`` and ``params`` (those that are set), plus any extra."""
        fields = {"code": self.code, "field": self.field, "rule": self.rule, "params": self.params}
        return {**{k: v for k, v in fields.items() if v}, **self.extra}
