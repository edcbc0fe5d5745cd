"""The client against an HTTPS gateway whose certificate a private CA signed
(``mdc.Client(..., ca_file=...)``); the CA and certificate are made for the
test with the openssl command line tool."""

from __future__ import annotations

import shutil
import ssl
import subprocess
from pathlib import Path

import httpx
import pytest

import answers
import mdc
from stub_server import Reply, stub_server

HEALTHY = Reply(body=answers.HEALTHY)


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ca.pem, and server.pem / server.key for 127.0.0.1 signed by it."""
    if shutil.which("openssl") is None:
        pytest.fail("the openssl command is missing (Debian: apt-get install openssl)")
    d = tmp_path_factory.mktemp("tls")
    ec = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes")
    _openssl("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "1",
             "-subj", "/CN=mdc test CA", cwd=d)
    _openssl("req", *ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1", cwd=d)
    (d / "server.ext").write_text(
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\n"
        "extendedKeyUsage=serverAuth\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n"
    )
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
             "-out", "server.pem", "-days", "1", "-extfile", "server.ext", cwd=d)
    return d


def _server_context(certs: Path) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certs / "server.pem", certs / "server.key")
    return context


def test_ca_file_reaches_an_https_gateway(certs: Path) -> None:
    with stub_server(HEALTHY, tls=_server_context(certs)) as stub:
        assert stub.base_url.startswith("https://")
        with mdc.Client(stub.base_url, "mdc_token", ca_file=certs / "ca.pem") as client:
            assert client.health() == mdc.Health(status="SERVING", database="ok", version="test")
        assert stub.received[0].path == "/v1/health"
        assert stub.received[0].headers["Authorization"] == "Bearer mdc_token"


def test_without_the_ca_the_certificate_is_refused(certs: Path) -> None:
    with stub_server(HEALTHY, tls=_server_context(certs)) as stub:
        with mdc.Client(stub.base_url, "mdc_token", retries=0) as client:
            with pytest.raises(mdc.MdcError) as raised:
                client.health()
        assert "CERTIFICATE_VERIFY_FAILED" in str(raised.value.__cause__)
        assert stub.received == []


def test_ca_file_and_http_do_not_go_together(certs: Path) -> None:
    with httpx.Client() as http:
        with pytest.raises(mdc.InvalidArgument, match="ca_file or http"):
            mdc.Client("https://127.0.0.1:1", None, ca_file=certs / "ca.pem", http=http)
