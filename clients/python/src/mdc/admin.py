"""Records of the service itself: developers (admin) and health."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from mdc.enums import Role, ServingStatus
from mdc.record import Record


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class Developer(Record):
    """A developer (collector bot, strategy or person) as admins see it."""

    MESSAGE = "mdc.v1.Developer"

    id: str
    username: str
    role: Role
    created_time: datetime
    #: When its token last authenticated a request; None if never.
    last_seen_time: datetime | None
    #: The bearer token: only in the answer that issued it.
    token: str | None


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class Health(Record):
    """The service's health."""

    MESSAGE = "mdc.v1.HealthCheckResponse"

    status: ServingStatus
    #: "ok" when the database answers.
    database: str
    version: str
