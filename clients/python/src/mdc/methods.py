"""The RPCs of the contract, found in the generated descriptors.

Every generated module of ``mdc.v1`` is imported once, which registers its
services in protobuf's default descriptor pool; an RPC is then looked up by
name there. No list of services or routes is written by hand: a new RPC in
``proto/mdc/v1`` is callable as soon as the package is rebuilt.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from dataclasses import dataclass
from functools import cached_property

from google.protobuf import (
    descriptor,
    descriptor_pb2,
    descriptor_pool,
    message,
    message_factory,
)

import mdc.v1
from mdc.errors import invalid_argument
from mdc.routes import Route

PACKAGE = "mdc.v1"

# The idempotency levels that allow sending an RPC again after its answer was
# lost (proto/mdc/v1/options.proto): a read, or a second execution that leaves
# the same data and gives the same answer.
_RETRYABLE_LEVELS = frozenset(
    {descriptor_pb2.MethodOptions.NO_SIDE_EFFECTS, descriptor_pb2.MethodOptions.IDEMPOTENT}
)


@dataclass(frozen=True)
class Method:
    """One RPC: its descriptor and its generated request and response classes."""

    descriptor: descriptor.MethodDescriptor
    request_class: type[message.Message]
    response_class: type[message.Message]

    @property
    def name(self) -> str:
        """``Service.Method``, e.g. ``DeveloperService.GetList``."""
        return f"{self.descriptor.containing_service.name}.{self.descriptor.name}"

    @cached_property
    def route(self) -> Route:
        """Its REST route (raises ValueError when it has none)."""
        return Route.of(self.descriptor)

    @cached_property
    def idempotent(self) -> bool:
        """Whether sending it twice has the effect of sending it once, so a
        call whose answer was lost may be sent again: read from the RPC's
        ``idempotency_level`` option alone (NO_SIDE_EFFECTS or IDEMPOTENT;
        IDEMPOTENCY_UNKNOWN, creates and deletes, never is)."""
        return self.descriptor.GetOptions().idempotency_level in _RETRYABLE_LEVELS


@functools.cache
def load_generated_modules() -> None:
    for module in pkgutil.iter_modules(mdc.v1.__path__):
        if module.name.endswith("_pb2"):
            importlib.import_module(f"{mdc.v1.__name__}.{module.name}")


def find_method(name: str) -> Method:
    """The RPC named ``Service.Method`` (``mdc.v1.`` prefix and ``/`` allowed).

    Raises:
        InvalidArgument: no such service or method in the contract.
    """
    return _find_method(name.replace("/", ".").removeprefix(PACKAGE + "."))


@functools.cache
def _find_method(name: str) -> Method:
    load_generated_modules()
    service_name, _, method_name = name.rpartition(".")
    pool = descriptor_pool.Default()
    try:
        service = pool.FindServiceByName(f"{PACKAGE}.{service_name}")
    except KeyError:
        raise invalid_argument("method", f"no service {service_name!r} in {PACKAGE} (asked for {name!r})") from None
    method = service.methods_by_name.get(method_name)
    if method is None:
        known = ", ".join(sorted(service.methods_by_name))
        raise invalid_argument("method", f"{service_name} has no method {method_name!r}; it has {known}")
    return Method(
        descriptor=method,
        request_class=message_factory.GetMessageClass(method.input_type),
        response_class=message_factory.GetMessageClass(method.output_type),
    )


def all_methods() -> list[Method]:
    """Every RPC of the contract, service by service."""
    load_generated_modules()
    pool = descriptor_pool.Default()
    methods: list[Method] = []
    for module in pkgutil.iter_modules(mdc.v1.__path__):
        if not module.name.endswith("_pb2"):
            continue
        file = pool.FindFileByName(f"mdc/v1/{module.name.removesuffix('_pb2')}.proto")
        for service in file.services_by_name.values():
            methods.extend(find_method(f"{service.name}.{m.name}") for m in service.methods)
    return methods
