"""REST mapping of an RPC, read from its ``google.api.http`` rule.

The gateway serves each RPC at the route its ``google.api.http`` option
names. :class:`Route` reads that option from the generated descriptor and
turns a request message into the HTTP request the gateway expects, by the
rules of ``google/api/http.proto`` as grpc-gateway applies them:

- ``{field}`` variables of the path template take the field's value;
- ``body: "*"``: every other field goes into the JSON body;
- ``body: "field"``: that field is the body, the rest goes into the query
  (a ``bytes`` field is a file, sent as its bytes: the gateway's file routes);
- no body (GET, DELETE): every field not in the path goes into the query.

JSON is ``google.protobuf.json_format`` with the contract's JSON names (the
``json_name`` of each field: camelCase, and snake_case for the quote payload).
Two rules of the gateway that protobuf cannot express are read from the
descriptors too (docs/api.md section 9):

- a list marked ``(google.api.field_behavior) = REQUIRED`` must be present in
  the body JSON even when empty (an empty shortlist is a real observation),
  so an empty one is written as ``[]``;
- for a ``body: "field"`` route with an ``update_mask``, the gateway derives
  the mask from the JSON keys present, so the body holds exactly the masked
  fields, default values included (``"completed": false`` must be sent to
  change ``completed`` to false) and the mask itself is not sent.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import quote

from google.api import annotations_pb2, field_behavior_pb2, http_pb2
from google.protobuf import descriptor, json_format, message

# The extensions, typed loosely by googleapis-common-protos' stubs.
_HTTP_RULE: Any = annotations_pb2.http
_FIELD_BEHAVIOR: Any = field_behavior_pb2.field_behavior

# {field.path} or {field.path=pattern} in a path template.
_VARIABLE = re.compile(r"\{([^}=]+)(?:=([^}]*))?\}")

_FIELD_MASK = "google.protobuf.FieldMask"
#: The body of a route whose body is a ``bytes`` field: a file.
FILE_CONTENT_TYPE = "text/csv"
# Well-known types whose JSON form is a scalar (a string), not an object.
_SCALAR_JSON_TYPES = {
    "google.protobuf.Timestamp",
    "google.protobuf.Duration",
    _FIELD_MASK,
    "google.protobuf.DoubleValue",
    "google.protobuf.FloatValue",
    "google.protobuf.Int64Value",
    "google.protobuf.UInt64Value",
    "google.protobuf.Int32Value",
    "google.protobuf.UInt32Value",
    "google.protobuf.BoolValue",
    "google.protobuf.StringValue",
    "google.protobuf.BytesValue",
}


@dataclass(frozen=True)
class HttpRequest:
    """What to send: verb, path (without the base URL), query and body: JSON,
    or the bytes of a file route's body field, sent as they are."""

    verb: str
    path: str
    query: list[tuple[str, str]]
    body: Any  # JSON value, bytes (a file), or None for no body

    @property
    def content_type(self) -> str:
        """JSON, or text/csv for a file: the gateway's file routes (a
        ``bytes`` body field, docs/api.md section 13.2) take NSE's CSV as is."""
        return FILE_CONTENT_TYPE if isinstance(self.body, bytes) else "application/json"

    def body_bytes(self) -> bytes | None:
        """The body as compact UTF-8 JSON (or a file's bytes), or None."""
        if self.body is None or isinstance(self.body, bytes):
            return self.body
        return json.dumps(self.body, ensure_ascii=False, separators=(",", ":")).encode()


@dataclass(frozen=True)
class Route:
    """The HTTP binding of one RPC (its primary ``google.api.http`` rule)."""

    verb: str
    template: str
    body: str  # "", "*" or a field name

    @classmethod
    def of(cls, method: descriptor.MethodDescriptor) -> Route:
        """Reads the rule of ``method``.

        Raises:
            ValueError: the method has no ``google.api.http`` rule.
        """
        options = method.GetOptions()
        if not options.HasExtension(_HTTP_RULE):
            raise ValueError(f"{method.full_name} has no google.api.http rule: it has no REST route")
        rule: http_pb2.HttpRule = options.Extensions[_HTTP_RULE]
        kind = rule.WhichOneof("pattern")
        if kind == "custom":
            return cls(rule.custom.kind.upper(), rule.custom.path, rule.body)
        if kind is None:
            raise ValueError(f"{method.full_name}: google.api.http rule without a pattern")
        return cls(kind.upper(), getattr(rule, kind), rule.body)

    def build(self, request: message.Message) -> HttpRequest:
        """The HTTP request for ``request``, a message of the RPC's input type."""
        payload = _to_json(request)
        path = _VARIABLE.sub(lambda m: self._path_value(request, payload, m), self.template)
        desc = cast(descriptor.Descriptor, request.DESCRIPTOR)
        fields = desc.fields_by_name
        if self.body == "*":
            return HttpRequest(self.verb, path, [], payload)
        if self.body:
            body_field = fields[self.body]
            body = payload.pop(body_field.json_name, None)
            if body_field.type == descriptor.FieldDescriptor.TYPE_BYTES:
                return HttpRequest(self.verb, path, _query(desc, payload), bytes(getattr(request, self.body)))
            mask = fields.get("update_mask")
            if (
                body_field.message_type is not None
                and mask is not None
                and mask.message_type is not None
                and mask.message_type.full_name == _FIELD_MASK
            ):
                payload.pop(mask.json_name, None)
                body = _masked_body(getattr(request, self.body), getattr(request, "update_mask").paths)
            if body is None:
                body = [] if body_field.is_repeated else {}
            return HttpRequest(self.verb, path, _query(desc, payload), body)
        return HttpRequest(self.verb, path, _query(desc, payload), None)

    @staticmethod
    def _path_value(request: message.Message, payload: dict[str, Any], match: re.Match[str]) -> str:
        """The URL-escaped value of one path variable, removed from payload."""
        field_path, pattern = match.group(1), match.group(2) or "*"
        value: Any = request
        json_keys = []
        for name in field_path.split("."):
            field = value.DESCRIPTOR.fields_by_name[name]
            json_keys.append(field.json_name)
            value = getattr(value, name)
        _pop_path(payload, json_keys)
        text = _scalar(value) if not isinstance(value, str) else value
        # A "**" variable spans segments; any other one is a single segment,
        # so a "/" in its value must stay escaped.
        return quote(text, safe="/" if "**" in pattern else "")


def _to_json(msg: message.Message) -> dict[str, Any]:
    """The message as the gateway's JSON, with required lists present."""
    data: dict[str, Any] = json_format.MessageToDict(msg)
    _add_required_lists(msg, data)
    return data


def _add_required_lists(msg: message.Message, data: dict[str, Any]) -> None:
    for field in cast(descriptor.Descriptor, msg.DESCRIPTOR).fields:
        is_map = field.message_type is not None and field.message_type.GetOptions().map_entry
        if field.is_repeated and not is_map:
            if field.json_name not in data and _is_required(field):
                data[field.json_name] = []
            elif field.message_type is not None and field.json_name in data:
                for item, item_data in zip(getattr(msg, field.name), data[field.json_name], strict=False):
                    if isinstance(item_data, dict):
                        _add_required_lists(item, item_data)
        elif (
            field.message_type is not None
            and not is_map
            and field.json_name in data
            and isinstance(data[field.json_name], dict)
        ):
            _add_required_lists(getattr(msg, field.name), data[field.json_name])


def _is_required(field: descriptor.FieldDescriptor) -> bool:
    behaviors: list[int] = field.GetOptions().Extensions[_FIELD_BEHAVIOR]
    return field_behavior_pb2.REQUIRED in behaviors


def _masked_body(body: message.Message, paths: Any) -> dict[str, Any]:
    """The JSON of ``body`` holding exactly the top-level fields ``paths`` name."""
    if not paths:
        return _to_json(body)
    full = json_format.MessageToDict(body, always_print_fields_with_no_presence=True)
    fields = body.DESCRIPTOR.fields_by_name
    keep = set()
    for path in paths:
        top = path.split(".")[0]
        field = fields.get(top) or body.DESCRIPTOR.fields_by_camelcase_name.get(top)
        if field is None:
            raise ValueError(f"update_mask names {path!r}, not a field of {body.DESCRIPTOR.full_name}")
        keep.add(field.json_name)
    return {key: value for key, value in full.items() if key in keep}


def _pop_path(data: dict[str, Any], keys: list[str]) -> None:
    for key in keys[:-1]:
        inner = data.get(key)
        if not isinstance(inner, dict):
            return
        data = inner
    data.pop(keys[-1], None)


def _query(desc: descriptor.Descriptor, data: dict[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """Query parameters of the JSON of a message: nested fields as ``a.b``,
    lists as repeated keys, maps as ``name[key]``."""
    by_json = {f.json_name: f for f in desc.fields}
    pairs: list[tuple[str, str]] = []
    for key, value in data.items():
        field = by_json[key]
        name = prefix + key
        kind = field.message_type
        if kind is not None and kind.GetOptions().map_entry:
            pairs.extend((f"{name}[{k}]", _scalar(v)) for k, v in value.items())
        elif kind is not None and kind.full_name not in _SCALAR_JSON_TYPES:
            if isinstance(value, list):
                raise ValueError(f"{name}: a list of messages cannot be sent as query parameters")
            pairs.extend(_query(kind, value, name + "."))
        elif isinstance(value, list):
            pairs.extend((name, _scalar(v)) for v in value)
        else:
            pairs.append((name, _scalar(value)))
    return pairs


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    return json.dumps(value)
