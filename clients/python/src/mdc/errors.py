"""The one exception type of the client, and how it is read from an answer.

Every failure of a call surfaces as :class:`MdcError` (or one of its
subclasses, one per gRPC code a caller may branch on: :class:`NotFound`,
:class:`InvalidArgument`, ...): an HTTP error answer (the ``google.rpc.Status``
JSON the gateway writes, docs/api.md section 9.1), a call that got no answer
at all (connection refused, timeout), and an argument the client refused
before sending (a naive datetime, an unknown key or enum label, a value of the
wrong type: :class:`InvalidArgument` with ``status`` None and ``attempts``
0). What only the server can judge (ranges, symbols, time windows) arrives as
the server's own ``google.rpc.BadRequest`` field violations.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

import httpx
from google.protobuf import json_format
from google.rpc import error_details_pb2

# google.rpc.Code numbers by name (google/rpc/code.proto).
_CODE_NAMES = {
    0: "OK",
    1: "CANCELLED",
    2: "UNKNOWN",
    3: "INVALID_ARGUMENT",
    4: "DEADLINE_EXCEEDED",
    5: "NOT_FOUND",
    6: "ALREADY_EXISTS",
    7: "PERMISSION_DENIED",
    8: "RESOURCE_EXHAUSTED",
    9: "FAILED_PRECONDITION",
    10: "ABORTED",
    11: "OUT_OF_RANGE",
    12: "UNIMPLEMENTED",
    13: "INTERNAL",
    14: "UNAVAILABLE",
    15: "DATA_LOSS",
    16: "UNAUTHENTICATED",
}

_BAD_REQUEST = "type.googleapis.com/google.rpc.BadRequest"
_ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"


class FieldViolation(NamedTuple):
    """One bad field of a request, as the server named it (JSON path)."""

    field: str
    description: str


class MdcError(Exception):
    """A call to mdc failed.

    Attributes:
        status: the HTTP status of the answer, or None when no answer came
            (network error, timeout) or nothing was sent (an argument the
            client refused). ``http_status`` is the same value.
        code: the gRPC status name, e.g. ``"INVALID_ARGUMENT"``,
            ``"NOT_FOUND"``; ``"UNAVAILABLE"`` for a connection failure and
            ``"DEADLINE_EXCEEDED"`` for a timeout without an answer.
        message: the server's message, written for the caller.
        field_violations: each bad field from the ``google.rpc.BadRequest``
            detail, in the server's order (or the argument the client refused).
        reason: the ``google.rpc.ErrorInfo`` reason when the server sent one.
        retry_after: seconds the answer's ``Retry-After`` header asks to wait
            before sending the call again (a 429 of the rate limit, reason
            ``RATE_LIMITED``), or None.
        attempts: how many times the call was sent (retries included); 0 when
            the client refused it before sending.

    The cause of a failure without an answer (the ``httpx`` exception) is
    chained as ``__cause__``.
    """

    def __init__(
        self,
        message: str,
        *,
        http_status: int | None,
        code: str,
        field_violations: tuple[FieldViolation, ...] = (),
        reason: str | None = None,
        retry_after: float | None = None,
        attempts: int = 1,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.http_status = http_status
        self.code = code
        self.field_violations = field_violations
        self.reason = reason
        self.retry_after = retry_after
        self.attempts = attempts

    @property
    def status(self) -> int | None:
        """The HTTP status of the answer (None: no answer, or not sent)."""
        return self.http_status

    def __str__(self) -> str:
        status = f"{self.http_status} " if self.http_status is not None else ""
        text = f"{status}{self.code}: {self.message}"
        if self.attempts > 1:
            text += f" (after {self.attempts} attempts)"
        return text

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(http_status={self.http_status!r}, code={self.code!r}, "
            f"message={self.message!r}, field_violations={self.field_violations!r}, "
            f"reason={self.reason!r})"
        )

    @property
    def fields(self) -> dict[str, str]:
        """The field violations as ``{field: description}``."""
        return {v.field: v.description for v in self.field_violations}


class InvalidArgument(MdcError):
    """400: a bad argument, named in ``field_violations`` (also raised by the
    client itself, before sending, with ``status`` None)."""


class Unauthenticated(MdcError):
    """401: the token is missing, malformed, unknown or revoked."""


class PermissionDenied(MdcError):
    """403: not allowed (an admin route; a read past the backtest clock,
    reason ``FUTURE_READ``)."""


class NotFound(MdcError):
    """404: nothing stored matches (an as-of read before the first record,
    another developer's run)."""


class AlreadyExists(MdcError):
    """409: the record exists already (a username, a holiday)."""


class FailedPrecondition(MdcError):
    """412: the call cannot be made in this state (a watch under the
    backtest clock), or an optional extra of the client is not installed."""


class ResourceExhausted(MdcError):
    """429: a rate limit (reason ``RATE_LIMITED``, ``retry_after`` set) or a
    watcher that fell behind (``WATCHER_FELL_BEHIND``)."""


class Unavailable(MdcError):
    """503, or no connection: the service is down, draining or cannot reach
    its database; nothing was done. Retried by the client within its budget."""


class DeadlineExceeded(MdcError):
    """504, or no answer within the timeout."""


_CLASS_OF_CODE: dict[str, type[MdcError]] = {
    "INVALID_ARGUMENT": InvalidArgument,
    "UNAUTHENTICATED": Unauthenticated,
    "PERMISSION_DENIED": PermissionDenied,
    "NOT_FOUND": NotFound,
    "ALREADY_EXISTS": AlreadyExists,
    "FAILED_PRECONDITION": FailedPrecondition,
    "RESOURCE_EXHAUSTED": ResourceExhausted,
    "UNAVAILABLE": Unavailable,
    "DEADLINE_EXCEEDED": DeadlineExceeded,
}


def error_class(code: str) -> type[MdcError]:
    """The subclass of :class:`MdcError` that stands for ``code`` (or
    :class:`MdcError` itself for the codes without one)."""
    return _CLASS_OF_CODE.get(code, MdcError)


def invalid_argument(field: str, description: str) -> InvalidArgument:
    """An argument the client refuses before sending anything, naming the
    field as the server would (``datetime``, ``data.entries[1].price``;
    arguments with no field of the request by their own name)."""
    return InvalidArgument(
        f"{field}: {description}",
        http_status=None,
        code="INVALID_ARGUMENT",
        field_violations=(FieldViolation(field, description),),
        attempts=0,
    )


def missing_extra(feature: str, extra: str, module: str) -> FailedPrecondition:
    """An optional dependency (pandas, polars, pyarrow) that is not installed."""
    return FailedPrecondition(
        f"{feature} needs {module}, which is not installed: pip install 'mdc-client[{extra}]'",
        http_status=None,
        code="FAILED_PRECONDITION",
        reason="MISSING_EXTRA",
        attempts=0,
    )


def error_from_response(response: httpx.Response, attempts: int = 1) -> MdcError:
    """Reads an error answer: the gateway's ``google.rpc.Status`` JSON, or
    whatever a proxy in between answered (then only the HTTP status is known).
    """
    return error_from_status(
        _json_object(response),
        http_status=response.status_code,
        fallback_message=response.reason_phrase or f"HTTP {response.status_code}",
        retry_after=retry_after_of(response),
        attempts=attempts,
    )


def error_from_stream(status: object) -> MdcError:
    """The error that ended a stream after it started: the ``{"error": ...}``
    line (a ``google.rpc.Status``) of docs/api.md "Streams over HTTP". Its
    ``http_status`` is the status its code stands for (what the gateway
    answers the same error before a stream starts, e.g. 429 for
    ``RESOURCE_EXHAUSTED``, 503 for ``UNAVAILABLE``)."""
    body = status if isinstance(status, dict) else {}
    number = body.get("code")
    code = _CODE_NAMES.get(number, "UNKNOWN") if isinstance(number, int) else "UNKNOWN"
    return error_from_status(body, http_status=_HTTP_STATUS_OF_CODE.get(code, 500), fallback_message=code)


def error_from_status(
    body: dict[str, Any],
    *,
    http_status: int,
    fallback_message: str,
    retry_after: float | None = None,
    attempts: int = 1,
) -> MdcError:
    """An error from the JSON of a ``google.rpc.Status`` (code, message,
    details)."""
    number = body.get("code")
    code = _CODE_NAMES.get(number, "") if isinstance(number, int) else ""
    message = body.get("message")
    if not isinstance(message, str) or not message:
        message = fallback_message
    violations: list[FieldViolation] = []
    reason: str | None = None
    details = body.get("details")
    for detail in details if isinstance(details, list) else []:
        if not isinstance(detail, dict):
            continue
        kind = detail.get("@type")
        fields = {k: v for k, v in detail.items() if k != "@type"}
        try:
            if kind == _BAD_REQUEST:
                bad = json_format.ParseDict(fields, error_details_pb2.BadRequest(), ignore_unknown_fields=True)
                violations.extend(FieldViolation(v.field, v.description) for v in bad.field_violations)
            elif kind == _ERROR_INFO:
                info = json_format.ParseDict(fields, error_details_pb2.ErrorInfo(), ignore_unknown_fields=True)
                reason = info.reason or None
        except json_format.ParseError:
            continue  # a detail not of its type's shape (not from mdc): the status still stands
    code = code or _code_of_http_status(http_status)
    return error_class(code)(
        message,
        http_status=http_status,
        code=code,
        field_violations=tuple(violations),
        reason=reason,
        retry_after=retry_after,
        attempts=attempts,
    )


def retry_after_of(response: httpx.Response) -> float | None:
    """Seconds of the answer's ``Retry-After`` header (RFC 9110
    delay-seconds; the date form is not used by mdc), or None."""
    value = response.headers.get("Retry-After", "").strip()
    if not (value.isascii() and value.isdigit()):
        return None
    return float(value)


def error_from_transport(exc: Exception, attempts: int = 1) -> MdcError:
    """A call that got no HTTP answer. The caller chains ``exc`` as the cause."""
    if isinstance(exc, httpx.TimeoutException):
        code, what = "DEADLINE_EXCEEDED", "timed out"
    else:
        code, what = "UNAVAILABLE", "failed"
    return error_class(code)(
        f"the request {what} without an answer: {type(exc).__name__}: {exc}",
        http_status=None,
        code=code,
        attempts=attempts,
    )


def _json_object(response: httpx.Response) -> dict[str, Any]:
    try:
        body = json.loads(response.content)
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


# The HTTP status the gateway answers for each code (grpc-gateway's
# HTTPStatusFromCode, as docs/api.md section 1 lists it).
_HTTP_STATUS_OF_CODE = {
    "CANCELLED": 499,
    "UNKNOWN": 500,
    "INVALID_ARGUMENT": 400,
    "DEADLINE_EXCEEDED": 504,
    "NOT_FOUND": 404,
    "ALREADY_EXISTS": 409,
    "PERMISSION_DENIED": 403,
    "RESOURCE_EXHAUSTED": 429,
    "FAILED_PRECONDITION": 412,
    "ABORTED": 409,
    "OUT_OF_RANGE": 400,
    "UNIMPLEMENTED": 501,
    "INTERNAL": 500,
    "UNAVAILABLE": 503,
    "DATA_LOSS": 500,
    "UNAUTHENTICATED": 401,
}


def _code_of_http_status(status: int) -> str:
    """The gRPC code an HTTP status stands for, when the body did not say."""
    return {
        400: "INVALID_ARGUMENT",
        401: "UNAUTHENTICATED",
        403: "PERMISSION_DENIED",
        404: "NOT_FOUND",
        409: "ALREADY_EXISTS",
        413: "RESOURCE_EXHAUSTED",
        412: "FAILED_PRECONDITION",
        429: "RESOURCE_EXHAUSTED",
        499: "CANCELLED",
        501: "UNIMPLEMENTED",
        503: "UNAVAILABLE",
        504: "DEADLINE_EXCEEDED",
    }.get(status, "UNKNOWN")
