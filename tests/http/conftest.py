"""Start and stop the servers of tests/http/README.md for test_servers.py."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Every server and tier (host wasi-http is tested by its own suite, tests/http-proxy).
SERVERS = [
    ("rust", "axum"), ("rust", "static"),
    ("node", "native"), ("node", "raw"), ("node", "component"), ("node", "bindgen"),
    ("node", "static"), ("node", "qrcode"), ("node", "cli"),
    ("python", "native"), ("python", "raw"), ("python", "component"),
    ("python", "static"), ("python", "segno"), ("python", "cli"),
    ("go", "native"), ("go", "raw"), ("go", "static"), ("go", "go-qrcode"), ("go", "cli"),
    ("java", "native"), ("java", "raw"), ("java", "static"), ("java", "zxing"), ("java", "cli"),
]
# Tier 0 of each host: a peer QR library, not qrglue (its own PNG; a 501 for an option it lacks).
PEER_TIERS = {"qrcode": "node-qrcode", "segno": "segno", "go-qrcode": "go-qrcode", "zxing": "zxing"}
# Two workers for one tier per clustered host (start-up, load balancing and
# shutdown of several workers); one elsewhere: 2 cores for the whole suite.
TWO_WORKERS = {("node", "native"), ("python", "native")}
REQUEST_TIMEOUT = 2.0  # seconds, passed to every server (their default is 10)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    host: str
    tier: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def golden(self) -> bool:
        """Whether the tier returns qrglue's bytes (not node-qrcode's, segno's or go-qrcode's)."""
        return self.tier not in PEER_TIERS

    def connect(self, timeout: float = 10.0) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def get(self, target: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
        conn = self.connect()
        try:
            conn.request(method, target)
            response = conn.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            conn.close()

    def alive(self) -> bool:
        return self.process.poll() is None


def start(host: str, tier: str, tmp: Path, env: dict[str, str] | None = None, *, ready: bool = True) -> Server:
    """Start a server; with ready (the default), return once it answers /healthz."""
    port = free_port()
    workers = "2" if (host, tier) in TWO_WORKERS else "1"
    log = tmp / f"{host}-{tier}.log"
    process = subprocess.Popen(
        ["bash", str(ROOT / "hosts" / host / "server" / "serve.sh"), tier, str(port),
         "--workers", workers, "--request-timeout", str(REQUEST_TIMEOUT)],
        stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True,
        env={**os.environ, **(env or {})})
    server = Server(host, tier, port, process, log)
    if not ready:
        return server
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{host}/{tier} exited with {process.returncode} on start:\n{log.read_text()}")
        try:
            if server.get("/healthz")[0] == 200:
                return server
        except OSError:
            pass
        time.sleep(0.1)
    stop(server)
    raise RuntimeError(f"{host}/{tier} did not answer /healthz within 60 s:\n{log.read_text()}")


def stop(server: Server) -> int | None:
    """SIGTERM; the exit status, or None when it had to be killed after 10 s."""
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGTERM)
    try:
        return server.process.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(server.process.pid, signal.SIGKILL)
        server.process.wait()
        return None


@pytest.fixture(scope="module", params=SERVERS, ids=[f"{h}-{t}" for h, t in SERVERS])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    host, tier = request.param
    running = start(host, tier, tmp_path_factory.mktemp("http"))
    yield running
    if running.alive():
        status = stop(running)
        # The process group too: a server must not leave workers behind.
        try:
            os.killpg(running.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        # Checked in test_stop when it ran; here only reported.
        if status not in (0, None):
            print(f"{host}/{tier} exited with {status}")
