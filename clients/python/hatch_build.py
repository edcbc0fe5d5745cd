"""Build hook: generates the protobuf modules of the mdc contract.

Runs ``grpc_tools.protoc`` on ``proto/mdc/v1/*.proto`` (the repository's
``../../proto``, or ``proto/`` inside an sdist) and puts the generated
``mdc/v1/*_pb2.py`` modules and their ``.pyi`` stubs into the wheel. Nothing
generated is committed: the contract is the only source.

Third-party imports resolve from the build environment: the googleapis
protos (``google/api/annotations.proto`` ...) from ``googleapis-common-protos``
and the well-known types (``google/protobuf/*.proto``) from ``grpcio-tools``.
At run time the same modules come from ``googleapis-common-protos`` and
``protobuf``, so only ``mdc/v1`` is generated.
"""

from __future__ import annotations

import shutil
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PROTO_PACKAGE = Path("mdc") / "v1"


class GenerateProtos(BuildHookInterface):  # type: ignore[type-arg]
    """Generates ``mdc.v1`` before each wheel (or editable) build."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return  # the sdist ships the protos, not generated code
        root = Path(self.root)
        if version == "editable":
            # An editable install imports mdc from src/: generate beside it
            # (src/mdc/v1 is git-ignored).
            generate(find_proto_root(root), root / "src")
            return
        self._out = Path(tempfile.mkdtemp(prefix="mdc-proto-"))
        generate(find_proto_root(root), self._out)
        build_data["force_include"][str(self._out / PROTO_PACKAGE)] = str(PROTO_PACKAGE)

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        out = getattr(self, "_out", None)
        if out is not None:
            shutil.rmtree(out, ignore_errors=True)


def find_proto_root(project_root: Path) -> Path:
    """The folder holding ``mdc/v1/*.proto``: in an sdist, or the repository's."""
    for candidate in (project_root / "proto", project_root.parent.parent / "proto"):
        if (candidate / PROTO_PACKAGE).is_dir():
            return candidate
    raise RuntimeError(
        f"no {PROTO_PACKAGE}/*.proto found under {project_root}/proto or "
        f"{project_root.parent.parent}/proto: build from the mdc repository checkout"
    )


def generate(proto_root: Path, out: Path) -> None:
    """Writes ``out/mdc/v1/*_pb2.py`` and ``*_pb2.pyi`` plus ``__init__.py``."""
    from grpc_tools import protoc  # type: ignore[import-untyped]  # a build requirement

    protos = sorted((proto_root / PROTO_PACKAGE).glob("*.proto"))
    if not protos:
        raise RuntimeError(f"no .proto files in {proto_root / PROTO_PACKAGE}")
    target = out / PROTO_PACKAGE
    if target.exists():
        shutil.rmtree(target)  # no module of a deleted .proto survives
    target.mkdir(parents=True)
    with (
        resources.as_file(resources.files("grpc_tools") / "_proto") as well_known,
        resources.as_file(resources.files("google.api") / "annotations.proto") as annotations,
    ):
        googleapis = annotations.parent.parent.parent  # .../site-packages
        args = [
            "grpc_tools.protoc",
            f"-I{proto_root}",
            f"-I{googleapis}",
            f"-I{well_known}",
            f"--python_out={out}",
            f"--pyi_out={out}",
            *(str(p) for p in protos),
        ]
        if protoc.main(args) != 0:
            raise RuntimeError("grpc_tools.protoc failed on " + " ".join(map(str, protos)))
    (target / "__init__.py").write_text(
        '"""Generated from proto/mdc/v1 by the build (hatch_build.py). Do not edit."""\n'
    )
