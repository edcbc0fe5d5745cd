"""Answer bodies for the scripted stub server: the JSON the gateway writes
for a few RPCs, as docs/api.md shows it."""

from __future__ import annotations

QUOTE = {
    "timestamp": "2025-01-02T04:45:00Z",
    "nseSymbol": "TCS",
    "quoteData": {"status": "SUCCESS", "payload": {"last_price": 3521.5}},
    "futureField": 1,  # unknown answer fields are ignored
}

RUN = {
    "id": "7",
    "name": "",
    "tags": [],
    "startTime": "2025-01-02T04:30:00Z",
    "endTime": "2025-01-02T10:00:00Z",
    "completed": False,
    "createdTime": "2025-01-02T04:30:00Z",
    "orderCount": 0,
}

HEALTHY = {"status": "SERVING", "database": "ok", "version": "test"}
