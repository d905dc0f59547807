"""The tournaments app's service errors: 409 when the request is not possible now, 422 when it
breaks a rule. Tables and dealing raise them too (a leaf: it imports only ``config.errors``)."""

from config.errors import ServiceError


class TournamentError(ServiceError):
    """A request that is well formed but not possible now (409) or against a rule (422)."""


class StateError(TournamentError):
    status = 409


class RuleError(TournamentError):
    status = 422
