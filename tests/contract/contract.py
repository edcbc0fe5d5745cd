#!/usr/bin/env python3
"""The ctest `contract`: schemathesis against a private mdc stack.

Starts its own stack with scripts/stack.sh, the one launcher of every suite
(a database ``mdc_contract_<random>`` created through the superuser URL in
``MDC_TEST_DATABASE_URL``; ``MDC_SERVER_BIN`` and ``MDC_GATEWAY_BIN`` on free
127.0.0.1 ports; a secret key and a fake broker token endpoint so
GET /v1/developer/token has something to call), creates a developer and an
admin through the API, and runs schemathesis (PyPI, pinned in
requirements.txt, installed into a virtualenv under the build folder) with a
fixed seed and a bounded number of examples per operation:

1. the developer token on every operation outside /v1/admin/ (health,
   sign-in, collector writes, developer reads, dashboard, runs, orders);
2. the admin token on the /v1/admin/ operations, except the two that could
   revoke that very token (see schemathesis.toml);
3. and 4. the same again with a second seed and every list of a request at
   least MDC_CONTRACT_MIN_ITEMS (40) long where its maxItems allows
   (hooks.py), MDC_CONTRACT_LARGE_EXAMPLES (25) examples per operation.

Both runs use tests/contract/schemathesis.toml (checks, phases, exclusions,
each with its reason) and tests/contract/hooks.py (no pageToken). Exit
status: 0 when both runs pass, 1 when either finds a problem, 2 on a setup
error. Stdlib only: it runs with the system python3.

Environment: MDC_SERVER_BIN, MDC_GATEWAY_BIN, MDC_TEST_DATABASE_URL
(required); MDC_CONTRACT_WORK (virtualenv, reports and logs; default
./contract-work), MDC_CONTRACT_SEED (default 20251231),
MDC_CONTRACT_EXAMPLES (max examples per operation in the fuzzing phase;
default 90), MDC_CONTRACT_SECOND_SEED (default 20261127),
MDC_CONTRACT_MIN_ITEMS (default 40), MDC_CONTRACT_LARGE_EXAMPLES (default
25), MDC_CONTRACT_KEEP_LOGS=1 (keep the stack's logs on success).
"""

from __future__ import annotations

import http.server
import json
import os
import secrets
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
STACK_SH = HERE.parent.parent / "scripts" / "stack.sh"


def log(msg: str) -> None:
    print(f"contract: {msg}", flush=True)


def stack_sh(*args: str) -> str:
    """Runs scripts/stack.sh with args; its stdout, or RuntimeError with its stderr."""
    result = subprocess.run(["bash", str(STACK_SH), *args], capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"stack.sh {' '.join(args[:2])}: {result.stderr.strip()}")
    return result.stdout


def tail(path: str, lines: int = 40) -> str:
    try:
        return "\n".join(Path(path).read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def venv_schemathesis(work: Path) -> Path:
    """The schemathesis of a virtualenv under work, made (once per pinned
    requirements.txt) with pip from PyPI."""
    requirements = HERE / "requirements.txt"
    venv = work / "venv"
    marker = venv / "requirements.txt"
    exe = venv / "bin" / "schemathesis"
    if exe.exists() and marker.exists() and marker.read_text() == requirements.read_text():
        return exe
    log(f"installing {requirements.read_text().strip()} into {venv}")
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check",
                    "-r", str(requirements)], check=True)
    shutil.copyfile(requirements, marker)
    return exe


class FakeBroker:
    """A broker token endpoint on 127.0.0.1: POST with {api_key, api_secret}
    answers {"access_token": ...}, as docs/api.md section 9.3 expects. Without
    it GET /v1/developer/token is 503 BROKER_NOT_CONFIGURED, a correct answer
    that not_a_server_error would still count as a failure."""

    def __init__(self) -> None:
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                body = json.dumps({"access_token": "fake-broker-" + secrets.token_hex(8)}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d/token" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def call(base: str, method: str, path: str, token: str, body: object = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


def call_csv(base: str, path: str, token: str, csv: str) -> dict:
    req = urllib.request.Request(base + path, data=csv.encode(), method="POST", headers={
        "Authorization": f"Bearer {token}", "Content-Type": "text/csv"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


# The instrument the positive requests of the adjusted reads and of the
# corporate actions name (hooks.py KNOWN_SYMBOL): they are valid only for a
# symbol of the security master, which no schema can state.
KNOWN_EQUITY_LIST = ("SYMBOL,NAME OF COMPANY,SERIES,DATE OF LISTING,PAID UP VALUE,MARKET LOT,ISIN NUMBER,FACE VALUE\n"
                     "CONTRACTCO,Contract Co,EQ,02-JAN-2020,5,1,INE009A01021,5\n")


def schemathesis_run(exe: Path, base: str, token: str, name: str, reports: Path, seed: str,
                     examples: str, filters: list[str], env: dict[str, str] | None = None) -> int:
    args = [
        str(exe), "--config-file", str(HERE / "schemathesis.toml"), "run", base + "/openapi.json",
        "--url", base,
        "--header", f"Authorization: Bearer {token}",
        "--seed", seed,
        "--max-examples", examples,
        "--report", "junit,ndjson",
        "--report-junit-path", str(reports / f"{name}.junit.xml"),
        "--report-ndjson-path", str(reports / f"{name}.ndjson"),
        "--report-dir", str(reports),
        "--no-color",
        *filters,
    ]
    log(f"schemathesis, {name} token: " + " ".join(a if "Bearer" not in a else "Authorization: Bearer ..." for a in args[3:]))
    started = time.monotonic()
    status = subprocess.run(args, env={**os.environ, "SCHEMATHESIS_HOOKS": "hooks",
                                       "PYTHONPATH": str(HERE), **(env or {})}).returncode
    log(f"schemathesis, {name} token: exit status {status} after {time.monotonic() - started:.0f}s")
    return status


def main() -> int:
    missing = [v for v in ("MDC_SERVER_BIN", "MDC_GATEWAY_BIN", "MDC_TEST_DATABASE_URL") if not os.environ.get(v)]
    if missing:
        log("set " + ", ".join(missing))
        return 2
    work = Path(os.environ.get("MDC_CONTRACT_WORK") or "contract-work").resolve()
    work.mkdir(parents=True, exist_ok=True)
    seed = os.environ.get("MDC_CONTRACT_SEED") or "20251231"
    examples = os.environ.get("MDC_CONTRACT_EXAMPLES") or "90"
    second_seed = os.environ.get("MDC_CONTRACT_SECOND_SEED") or "20261127"
    large_examples = os.environ.get("MDC_CONTRACT_LARGE_EXAMPLES") or "25"
    exe = venv_schemathesis(work)

    run_dir = work / time.strftime("run-%Y%m%d-%H%M%S")
    run_dir.mkdir()
    broker = FakeBroker()
    stack: dict | None = None
    status = 2
    try:
        stack = json.loads(stack_sh(
            "start", "--db-prefix", "mdc_contract_", "--owner-pid", str(os.getpid()),
            # A key, so PUT /v1/admin/broker can store credentials (else 412).
            "--server-env", "MDC_SECRET_KEY=" + secrets.token_hex(32),
            "--server-env", "MDC_BROKER_TOKEN_URL=" + broker.url,
            "--server-env", "MDC_BROKER_API_KEY=contract-key",
            "--server-env", "MDC_BROKER_API_SECRET=contract-secret",
        ))
        base, bootstrap = stack["base_url"], stack["admin_token"]
        developer = call(base, "POST", "/v1/admin/developers", bootstrap,
                         {"username": "contract-developer", "role": "developer"})["token"]
        admin = call(base, "POST", "/v1/admin/developers", bootstrap,
                     {"username": "contract-admin", "role": "admin"})["token"]
        call_csv(base, "/v1/admin/instruments/import?kind=equity_list", admin, KNOWN_EQUITY_LIST)
        log(f"stack on {base} (database {stack['database']}, logs in {stack['dir']}, reports in {run_dir})")

        dev_status = schemathesis_run(exe, base, developer, "developer", run_dir, seed, examples,
                                      ["--exclude-path-regex", "^/v1/admin/"])
        admin_status = schemathesis_run(exe, base, admin, "admin", run_dir, seed, examples,
                                        ["--include-path-regex", "^/v1/admin/"])
        # The second run: another seed, and every list of a request at
        # least MIN_ITEMS long (hooks.py), fewer examples for the time.
        # The raised minItems are not the contract's, so a request with
        # fewer items is no invalid request: negative_data_rejection does
        # not apply; generating lists that long may be slow for hypothesis.
        large = {"MDC_CONTRACT_MIN_ITEMS": os.environ.get("MDC_CONTRACT_MIN_ITEMS") or "40"}
        large_flags = ["--exclude-checks", "negative_data_rejection",
                       "--suppress-health-check", "too_slow,data_too_large,filter_too_much"]
        dev_status = schemathesis_run(exe, base, developer, "developer-large", run_dir, second_seed,
                                      large_examples,
                                      ["--exclude-path-regex", "^/v1/admin/", *large_flags],
                                      large) or dev_status
        admin_status = schemathesis_run(exe, base, admin, "admin-large", run_dir, second_seed,
                                        large_examples,
                                        ["--include-path-regex", "^/v1/admin/", *large_flags],
                                        large) or admin_status
        try:
            stack_sh("check", stack["handle"])
        except RuntimeError as exc:
            log(f"{exc} during the run\n{tail(stack['logs']['server'])}\n{tail(stack['logs']['gateway'])}")
            dev_status = dev_status or 1
        status = 1 if dev_status or admin_status else 0
    except Exception as exc:  # setup failed: say why (stack.sh kept and named the logs)
        log(f"setup failed: {exc}")
        status = 2
    finally:
        broker.stop()
        if stack is not None:
            # The stack's logs are kept with the reports when the run failed.
            keep = status != 0 or bool(os.environ.get("MDC_CONTRACT_KEEP_LOGS"))
            try:
                stack_sh("stop", stack["handle"], *(["--keep"] if keep else []))
            except RuntimeError as exc:
                log(str(exc))
                status = status or 1
                keep = True
            if keep:
                for name, path in stack["logs"].items():
                    if os.path.exists(path):
                        shutil.copyfile(path, run_dir / f"{name}.log")
                shutil.rmtree(stack["dir"], ignore_errors=True)
    if status == 0 and not os.environ.get("MDC_CONTRACT_KEEP_LOGS"):
        shutil.rmtree(run_dir, ignore_errors=True)
    else:
        log(f"logs and reports in {run_dir}")
    log("PASSED" if status == 0 else f"FAILED (exit status {status})")
    return status


if __name__ == "__main__":
    sys.exit(main())
