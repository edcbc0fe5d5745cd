"""Schemathesis hooks of the contract run (loaded through SCHEMATHESIS_HOOKS).

pageToken is opaque (docs/api.md section 1, "Lists"): only a token this
service issued is valid, and anything else is 400 `pageToken` by design. A
generated string is therefore never a valid token, and schemathesis would
count the 400 as a valid request rejected (positive_data_acceptance). The
parameter is dropped from the loaded document, so no phase generates it;
paging itself is covered by the Go e2e and client suites.
"""

import datetime
import os

import schemathesis

OPAQUE = {"pageToken"}

# The second run (contract.py) sets MDC_CONTRACT_MIN_ITEMS: every list a
# request sends, in its body or its query, then holds at least that many
# items (or all its maxItems allow), so the server and the gateway meet
# requests with many values, valid and not (issue 20). Only the requests'
# schemas change: the bodies' schemas are copied before (their components
# also describe answers, which keep their own).
MIN_ITEMS = int(os.environ.get("MDC_CONTRACT_MIN_ITEMS") or 0)


@schemathesis.hook
def before_load_schema(context, raw_schema):
    schemas = raw_schema.get("components", {}).get("schemas", {})
    for item in raw_schema.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            if "parameters" in operation:
                operation["parameters"] = [
                    p for p in operation["parameters"] if not (isinstance(p, dict) and p.get("name") in OPAQUE)
                ]
            if MIN_ITEMS:
                for p in operation.get("parameters", []):
                    if isinstance(p, dict) and p.get("in") == "query":
                        _enlarge(p.get("schema"))
                for media in operation.get("requestBody", {}).get("content", {}).values():
                    if "schema" in media:
                        media["schema"] = _enlarge(_inline(media["schema"], schemas))


def _inline(node, schemas, depth=0):
    """A copy of node with every $ref to a component replaced by a copy of it."""
    if depth > 40:
        return node
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            return _inline(schemas[ref.rsplit("/", 1)[1]], schemas, depth + 1)
        return {k: _inline(v, schemas, depth + 1) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, schemas, depth + 1) for v in node]
    return node


def _enlarge(node):
    """node with minItems of each list raised toward MIN_ITEMS."""
    if isinstance(node, dict):
        if node.get("type") == "array":
            most = node.get("maxItems")
            want = MIN_ITEMS if most is None else min(MIN_ITEMS, most)
            node["minItems"] = max(node.get("minItems", 0), want)
        for v in node.values():
            _enlarge(v)
    elif isinstance(node, list):
        for v in node:
            _enlarge(v)
    return node


# Rules between fields that OpenAPI 3.0 cannot state (docs/api.md section
# 9): a request generated as valid ("positive") that breaks one of them is
# repaired here into the nearest request that keeps the rule, so
# positive_data_acceptance tests what the document can promise. Requests
# generated as invalid ("negative") are left as they are.
#
# - start_datetime not after end_datetime (timelines, candles, persistence,
#   runs); a start without an end is compared with "now", so the end is set
#   to the start (an empty window);
# - an export's end_date from its start_date to 30 days after it (at most
#   31 days; docs/api.md section 11): set to the start otherwise;
# - takeProfitPercentage and stopLossPercentage of the shortlist go
#   together;
# - an order's stopLossPrice < entryPrice < takeProfitPrice;
# - the db script `purge-before` needs args.before, the others take none;
# - a compaction's `through` is a closed trading day, before today in
#   Asia/Kolkata (docs/api.md, "Data by date"): a later one is set to
#   2000-01-03;
# - a holiday request names at least one date, each date once over
#   `holidays` and `dates`, and a special session opens before it closes
#   (both times or neither);
# - at most 10 distinct run tags (the list may hold up to 100);
# - the quotes of one save name each symbol once;
# - a SUCCESS quote (of a save, NIFTY's, a shortlist entry's) carries
#   payload.last_price (docs/api.md 9.2): one is added where it lacks;
# - a run name is at most 200 bytes, a holiday name at most 100 and a
#   shortlist entry's name at most 256 (the server counts bytes of UTF-8;
#   maxLength counts characters): cut to fit;
# - names hold no control or format character (Unicode Cc, Cf): the
#   schema's pattern lists those of the Basic Multilingual Plane, the 13
#   beyond it (U+110BD, U+E0001, the tags U+E0020-E007F, ...) are dropped
#   here (gateway/internal/openapigen/controlchars.go says why).
#
# - a file import's body is NSE's file of its kind: a generated string is
#   not one (the header names the columns), so a positive case sends the
#   header alone (no rows: nothing is imported, and the answer is 200);
# - instruments are found by exactly one of symbol, isin and prefix, and a
#   symbol or ISIN must be one of the security master: a positive case
#   keeps the prefix alone (an empty answer when no name starts with it);
# - the corporate actions, and a read or export with adjustment=split or
#   all, are of an instrument of the security master: a positive case names the one
#   contract.py imports (KNOWN_SYMBOL), over a range whose start is not
#   after its end.
KNOWN_SYMBOL = "CONTRACTCO"
# - one corporate action an admin enters is valid only for an instrument of
#   the security master, with the numbers of its kind (docs/api.md 13.7):
#   a positive case enters a dividend of the known instrument (again: the
#   same action is unchanged, still 200).
KNOWN_ACTION = {"isin": "INE009A01021", "kind": "dividend", "exDate": "2021-06-01", "amount": 1.5}
FILE_HEADERS = {
    "equity_list": "SYMBOL,NAME OF COMPANY,SERIES,DATE OF LISTING,PAID UP VALUE,MARKET LOT,ISIN NUMBER,FACE VALUE\n",
    "symbol_changes": "SM_NAME_OF_COMPANY,SM_KEY_SYMBOL,SM_NEW_SYMBOL,SM_APPLICABLE_FROM\n",
    "corporate_actions": "SYMBOL,COMPANY NAME,SERIES,PURPOSE,FACE VALUE,EX-DATE,RECORD DATE\n",
}
# The adjusted reads and the parameter naming their symbol or symbols (an
# adjusted export needs `symbols`, docs/api.md 13.6).
ADJUSTED_PATHS = {
    "/v1/developer/historical-candles": "symbol",
    "/v1/developer/quote-timeline": "symbol",
    "/v1/developer/candles": "symbols",
    "/v1/developer/quotes": "symbols",
    "/v1/developer/export/quotes": "symbols",
    "/v1/developer/export/candles": "symbols",
}

RANGE_PATHS = {
    "/v1/developer/historical-candles",
    "/v1/developer/candles",
    "/v1/developer/quote-timeline",
    "/v1/developer/nifty-timeline",
    "/v1/developer/shortlists/persistence",
}


EXPORT_PATHS = {
    "/v1/developer/export/quotes",
    "/v1/developer/export/nifty",
    "/v1/developer/export/shortlists",
    "/v1/developer/export/candles",
}
MAX_EXPORT_DAYS = 31


def _fix_days(query):
    if not isinstance(query, dict):
        return
    start, end = query.get("startDate"), query.get("endDate")
    if not (isinstance(start, str) and start and isinstance(end, str) and end):
        return
    try:
        first, last = datetime.date.fromisoformat(start), datetime.date.fromisoformat(end)
    except ValueError:
        return
    if not first <= last <= first + datetime.timedelta(days=MAX_EXPORT_DAYS - 1):
        query["endDate"] = start


def _positive(case):
    meta = getattr(case, "meta", None)
    mode = getattr(getattr(meta, "generation", None), "mode", None)
    return mode is not None and str(getattr(mode, "value", mode)) == "positive"


def _fix_range(values, start, end):
    if not isinstance(values, dict):
        return
    s, e = values.get(start), values.get(end)
    if isinstance(s, str) and s:
        if not (isinstance(e, str) and e):
            values[end] = s
        elif s > e:  # same fixed-width form, same zone: text order is time order
            values[start], values[end] = e, s


def _fix_order(body):
    keys = ("stopLossPrice", "entryPrice", "takeProfitPrice")
    if not isinstance(body, dict) or not all(isinstance(body.get(k), (int, float)) for k in keys):
        return
    values = sorted(body[k] for k in keys)
    if not values[0] < values[1] < values[2]:
        low = values[0]
        # Prices go up to 1e15 (docs/api.md section 9.4).
        values = [low, low * 2, low * 3] if low * 3 <= 1e15 else [1.0, 2.0, 3.0]
    for k, v in zip(keys, values):
        body[k] = v


def _fix_quote_data(quote_data):
    if not isinstance(quote_data, dict):
        return
    status = quote_data.get("status")  # protobuf JSON takes the enum's number too
    if status != "SUCCESS" and not (type(status) is int and status == 1):
        return
    payload = quote_data.get("payload")
    if not isinstance(payload, dict):
        payload = quote_data["payload"] = {}
    if payload.get("last_price") is None:
        payload["last_price"] = 1.0


def _fix_quotes(body):
    data = body.get("data") if isinstance(body, dict) else None
    quotes = data.get("quotes") if isinstance(data, dict) else None
    if not isinstance(quotes, list):
        return
    seen, kept = set(), []
    for q in quotes:
        symbol = q.get("nseSymbol") if isinstance(q, dict) else None
        if symbol not in seen:
            seen.add(symbol)
            kept.append(q)
        if isinstance(q, dict):
            _fix_quote_data(q.get("quoteData"))
    data["quotes"] = kept


def _fix_nifty(body):
    data = body.get("data") if isinstance(body, dict) else None
    if isinstance(data, dict):
        _fix_quote_data(data.get("quoteData"))


def _fix_shortlist(body):
    data = body.get("data") if isinstance(body, dict) else None
    entries = data.get("entries") if isinstance(data, dict) else None
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and "name" in entry:
            entry["name"] = _cut(entry["name"], 256)
        if isinstance(entry, dict):
            _fix_quote_data(entry.get("quoteData"))


def _fix_db_script(body):
    if not isinstance(body, dict):
        return
    if body.get("script") == "purge-before":
        args = body.get("args") if isinstance(body.get("args"), dict) else {}
        body["args"] = {"before": args.get("before") or "2000-01-01"}
    else:
        body["args"] = {}


def _fix_compact(body):
    if not isinstance(body, dict) or not isinstance(body.get("through"), str):
        return
    try:
        through = datetime.date.fromisoformat(body["through"])
    except ValueError:
        return
    # Today in Asia/Kolkata (UTC+05:30, no daylight saving).
    today = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=5, minutes=30)).date()
    if through >= today:
        body["through"] = "2000-01-03"


def _fix_holidays(body):
    if not isinstance(body, dict):
        return
    seen = set()
    holidays = []
    for h in body.get("holidays") or []:
        if isinstance(h, dict) and h.get("date") not in seen:
            if "name" in h:
                h["name"] = _cut(h["name"], 100)
            seen.add(h.get("date"))
            opening, closing = h.get("sessionOpen"), h.get("sessionClose")
            if opening or closing:
                if opening and closing and opening != closing:
                    h["sessionOpen"], h["sessionClose"] = min(opening, closing), max(opening, closing)
                else:
                    h.pop("sessionOpen", None)
                    h.pop("sessionClose", None)
            holidays.append(h)
    dates = []
    for d in body.get("dates") or []:
        if d not in seen:
            seen.add(d)
            dates.append(d)
    if "holidays" in body:
        body["holidays"] = holidays
    if "dates" in body or not holidays:
        body["dates"] = dates or ["2001-01-01"]


# The Cf characters beyond the Basic Multilingual Plane (Unicode 15).
ASTRAL_FORMAT = {0x110BD, 0x110CD, 0xE0001, *range(0x13430, 0x13440), *range(0x1BCA0, 0x1BCA4),
                 *range(0x1D173, 0x1D17B), *range(0xE0020, 0xE0080)}


def _cut(text, limit):
    """A name as the server takes it: without astral format characters, at
    most `limit` bytes of UTF-8."""
    if isinstance(text, str):
        text = "".join(c for c in text if ord(c) not in ASTRAL_FORMAT)
    if isinstance(text, str) and len(text.encode()) > limit:
        return text.encode()[:limit].decode(errors="ignore")
    return text


def _fix_run(body):
    if not isinstance(body, dict):
        return
    if "name" in body:
        body["name"] = _cut(body["name"], 200)
    tags = body.get("tags")
    if isinstance(tags, list):
        distinct = []
        for tag in tags:
            if tag.strip() not in distinct:
                distinct.append(tag.strip())
        keep = set(distinct[:10])
        body["tags"] = [tag for tag in tags if tag.strip() in keep]


@schemathesis.serializer("text/csv")
def csv_body(ctx, value):
    """The file routes take the file as it is: a generated string as UTF-8."""
    if isinstance(value, bytes):
        return value
    return str(value).encode("utf-8", "surrogatepass")


def _fix_instruments(query):
    if not isinstance(query, dict):
        return
    # The schema's pattern names the control and format characters of the
    # Basic Multilingual Plane only (as for names, _cut).
    prefix = _cut(query.get("prefix"), 400) or "a"
    for key in ("symbol", "isin"):
        query.pop(key, None)
    query["prefix"] = prefix


@schemathesis.hook
def map_case(context, case):
    if not _positive(case):
        return case
    method, path = case.operation.method.upper(), case.operation.path
    if method == "POST" and path == "/v1/admin/instruments/import":
        kind = case.query.get("kind") if isinstance(case.query, dict) else None
        case.body = FILE_HEADERS.get(kind, FILE_HEADERS["equity_list"])
    elif method == "POST" and path == "/v1/admin/corporate-actions/import":
        case.body = FILE_HEADERS["corporate_actions"]
    elif method == "POST" and path == "/v1/admin/corporate-actions":
        case.body = dict(KNOWN_ACTION)
    elif method == "GET" and path == "/v1/developer/instruments":
        _fix_instruments(case.query)
    elif method == "GET" and path == "/v1/developer/corporate-actions" and isinstance(case.query, dict):
        case.query["symbol"] = KNOWN_SYMBOL
        # An end without a start is compared with the default start,
        # 1900-01-01: start at the end instead.
        if case.query.get("endDate") and not case.query.get("startDate"):
            case.query["startDate"] = case.query["endDate"]
        _fix_range(case.query, "startDate", "endDate")
    if method == "GET" and path in ADJUSTED_PATHS and isinstance(case.query, dict) and \
            case.query.get("adjustment") not in (None, "", "raw"):
        case.query[ADJUSTED_PATHS[path]] = KNOWN_SYMBOL
    if method == "GET" and path in RANGE_PATHS:
        _fix_range(case.query, "startDatetime", "endDatetime")
    elif method == "GET" and path in EXPORT_PATHS:
        _fix_days(case.query)
    elif method == "POST" and path == "/v1/dashboard/runs":
        _fix_range(case.body, "startDatetime", "endDatetime")
        _fix_run(case.body)
    elif method == "PATCH" and path == "/v1/dashboard/runs/{runId}":
        _fix_run(case.body)
    elif method == "GET" and path == "/v1/dashboard/shortlists" and isinstance(case.query, dict):
        if ("takeProfitPercentage" in case.query) != ("stopLossPercentage" in case.query):
            case.query.pop("takeProfitPercentage", None)
            case.query.pop("stopLossPercentage", None)
    elif method == "POST" and path == "/v1/dashboard/runs/{runId}/orders":
        _fix_order(case.body)
    elif method == "POST" and path == "/v1/developer/collector/quotes":
        _fix_quotes(case.body)
    elif method == "POST" and path == "/v1/developer/collector/shortlists":
        _fix_shortlist(case.body)
    elif method == "POST" and path == "/v1/developer/collector/nifty":
        _fix_nifty(case.body)
    elif method == "POST" and path == "/v1/admin/db-scripts":
        _fix_db_script(case.body)
    elif method == "POST" and path == "/v1/admin/data/compact":
        _fix_compact(case.body)
    elif method == "POST" and path == "/v1/admin/holidays":
        _fix_holidays(case.body)
    return case
