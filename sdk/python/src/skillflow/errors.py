"""Errors the SDK raises.

An API answer outside 2xx becomes a :class:`SkillflowApiError` (or the subclass for its status)
carrying the error envelope ``{"error": {"code", "message", "details"}}``; a failure before any
usable answer (connection refused, a timeout, a body that is not JSON or not the documented
shape) becomes a :class:`SkillflowClientError`. The token never appears in a message.
"""

from __future__ import annotations

from typing import Any, Literal

ClientErrorCode = Literal[
    "CONNECTION_FAILED", "TIMEOUT", "INVALID_RESPONSE", "WAIT_TIMEOUT", "CHAT_KEY_FILE_INVALID"
]


class SkillflowError(Exception):
    """Base of every error the SDK raises."""

    code: str
    message: str

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class SkillflowClientError(SkillflowError):
    """No usable answer from the API: ``code`` is one of :data:`ClientErrorCode`."""


class SkillflowApiError(SkillflowError):
    """The API answered with an error envelope (or an unexpected non-2xx status)."""

    status: int
    details: dict[str, Any]
    retry_after: float | None

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        details: dict[str, Any] | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(code, message)
        self.status = status
        self.details = details if details is not None else {}
        #: Seconds the API asked to wait (its ``Retry-After``), when it sent one.
        self.retry_after = retry_after

    @property
    def issues(self) -> list[dict[str, Any]]:
        """The failing fields of a validation error (``details.issues``); empty when none."""
        raw = self.details.get("issues")
        if not isinstance(raw, list):
            return []
        return [i for i in raw if isinstance(i, dict) and isinstance(i.get("path"), str)]

    def __str__(self) -> str:
        return f"{self.code} (HTTP {self.status}): {self.message}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(status={self.status}, code={self.code!r}, message={self.message!r})"


class BadRequestError(SkillflowApiError):
    """400: the request is invalid (``INVALID_PARAMETER``, ``INVALID_DEFINITION``, ...)."""


class AuthenticationError(SkillflowApiError):
    """401: no token, or an unknown or revoked one."""


class PermissionDeniedError(SkillflowApiError):
    """403: the key lacks the scope (``details.required_scope``) or the tier."""


class NotFoundError(SkillflowApiError):
    """404: no such resource for this caller."""


class ConflictError(SkillflowApiError):
    """409: the resource is in a state that does not allow this (e.g. ``EMBED_PENDING``)."""


class UnprocessableEntityError(SkillflowApiError):
    """422: the definition compiled but cannot be saved as asked."""


class RateLimitError(SkillflowApiError):
    """429: a rate limit or allowance is exhausted; ``retry_after`` says for how long."""


class InternalServerError(SkillflowApiError):
    """5xx other than 503."""


class ServiceUnavailableError(SkillflowApiError):
    """503: the service or an upstream is unavailable for now; see ``retry_after``."""


_BY_STATUS: dict[int, type[SkillflowApiError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: RateLimitError,
    503: ServiceUnavailableError,
}


def api_error(status: int, body: Any, retry_after: float | None) -> SkillflowApiError:
    """Builds the error of a non-2xx answer; tolerates bodies that are not envelopes."""
    cls = _BY_STATUS.get(status, InternalServerError if status >= 500 else SkillflowApiError)
    env = body.get("error") if isinstance(body, dict) else None
    if isinstance(env, dict) and isinstance(env.get("code"), str) and isinstance(env.get("message"), str):
        details = env.get("details")
        return cls(
            status, env["code"], env["message"], details if isinstance(details, dict) else {}, retry_after
        )
    return cls(
        status,
        "UNEXPECTED_RESPONSE",
        f"The API answered HTTP {status} without an error envelope.",
        {},
        retry_after,
    )
