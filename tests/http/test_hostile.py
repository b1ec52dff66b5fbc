"""Hostile clients against every server and tier (tests/http/README.md, "Hostile
clients"): nothing lost, nothing altered, nothing hoarded.

- text integrity: texts a host could silently change (a leading or lone BOM,
  NUL, U+FFFF, bidi controls, an encoded '#', '+' and '%2B') give exactly the
  library's PNG for the same text;
- pipelining: many requests written in one send, mixing PNGs, 400, 404, 405,
  HEAD and /healthz, are all answered, in order, each as when sent alone;
- unbounded input: a header value, a header name, a request line that never
  end, and too many headers, are refused (431 or a close) within the 16 KiB
  head limit, without the server's memory growing, and the server answers
  afterwards;
- bodies: the endpoint reads none; a body of any type and size never reaches
  a parser (405 for POST, the PNG for a GET), and the connection stays
  usable or is closed cleanly;
- request targets: the path is matched as sent (no decoding of %XX).

The servers come from conftest.py (module-scoped, one start per server);
tests/http-proxy binds the same tests to the wasi:http tiers.
"""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import pytest

import qrglue
from conftest import REQUEST_TIMEOUT, Server, start, stop
from test_servers import PNG_SIGNATURE, REFERENCE, check_alive

REFERENCE_PNG = qrglue.png(REFERENCE)
# The keep-alive idle timeout of the Node and Python servers (tests/http/README.md, "Limits").
KEEP_ALIVE_TIMEOUT = 5.0


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes = field(repr=False)


class Wire:
    """A raw HTTP/1.1 connection that reads back-to-back responses."""

    def __init__(self, server: Server, timeout: float = 10.0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=timeout)
        self.buffer = b""

    def close(self) -> None:
        self.sock.close()

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def _fill(self) -> bool:
        chunk = self.sock.recv(65536)
        self.buffer += chunk
        return bool(chunk)

    def _line(self) -> bytes:
        while b"\r\n" not in self.buffer:
            if not self._fill():
                raise EOFError(f"connection closed inside a response head: {self.buffer[:200]!r}")
        line, self.buffer = self.buffer.split(b"\r\n", 1)
        return line

    def _exactly(self, n: int) -> bytes:
        while len(self.buffer) < n:
            if not self._fill():
                raise EOFError("connection closed inside a body")
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def read(self, method: str = "GET") -> Reply:
        """One response; `method` tells whether it has a body (HEAD does not)."""
        status_line = self._line()
        while status_line == b"":  # tolerate a stray CRLF
            status_line = self._line()
        version, status, *_ = status_line.split(b" ", 2)
        assert version.startswith(b"HTTP/1."), status_line
        headers: dict[str, str] = {}
        while (line := self._line()) != b"":
            name, _, value = line.partition(b":")
            headers[name.strip().lower().decode()] = value.strip().decode("latin-1")
        code = int(status)
        if code == 100:
            return self.read(method)
        if method == "HEAD" or code in (204, 304):
            return Reply(code, headers, b"")
        if headers.get("transfer-encoding", "").lower() == "chunked":
            body = b""
            while (size := int(self._line().split(b";")[0], 16)) > 0:
                body += self._exactly(size)
                self._exactly(2)
            while self._line() != b"":
                pass
            return Reply(code, headers, body)
        if "content-length" in headers:
            return Reply(code, headers, self._exactly(int(headers["content-length"])))
        while self._fill():
            pass
        body, self.buffer = self.buffer, b""
        return Reply(code, headers, body)

    def closed(self, wait: float = 5.0) -> bool:
        """Whether the server closes the connection (EOF or reset) within `wait` s."""
        self.sock.settimeout(wait)
        try:
            while self.sock.recv(65536):
                pass
            return True
        except ConnectionResetError:
            return True
        except TimeoutError:
            return False


def request(method: str, target: str, headers: dict[str, str] | None = None, body: bytes = b"") -> bytes:
    lines = [f"{method} {target} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def alone(server: Server, raw: bytes, method: str = "GET", timeout: float = 10.0) -> Reply:
    wire = Wire(server, timeout)
    try:
        wire.send(raw)
        return wire.read(method)
    finally:
        wire.close()


def expected_png(server: Server, text: str) -> bytes | None:
    """What the tier must answer for `text` with default options: the library's
    PNG, the reference PNG for a static tier (its answer to every good query),
    None for a peer's tier (node-qrcode, segno: any PNG)."""
    if server.tier == "static":
        return REFERENCE_PNG
    return qrglue.png(text) if server.golden else None


def server_pids(server: Server) -> list[int]:
    """The server's process and all its descendants (workers, and servers that
    start their own session, as `wasmtime serve` does), from /proc's parents."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    # The command may hold spaces and parentheses: ppid follows the last ')'.
                    parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (FileNotFoundError, ProcessLookupError, IndexError):
                continue
    tree = {server.process.pid}
    grew = True
    while grew:
        grew = False
        for pid, ppid in parents.items():
            if ppid in tree and pid not in tree:
                tree.add(pid)
                grew = True
    return sorted(tree)


def server_rss(server: Server) -> int:
    """Resident bytes of the server's processes (workers included)."""
    total = 0
    for pid in server_pids(server):
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
        except (ProcessLookupError, FileNotFoundError, PermissionError):
            continue
    assert total > 0, "no server process found to measure"
    return total


# --- text integrity ---------------------------------------------------------

# (text, how it is written in the query): what a host could change on its way.
TEXTS = [
    ("\ufeffhi", "%EF%BB%BFhi"),
    ("\ufeff", "%EF%BB%BF"),
    ("a\x00b", "a%00b"),
    ("\uffff", "%EF%BF%BF"),
    ("abc \u202eXYZ\u202c def", quote("abc \u202eXYZ\u202c def", safe="")),
    ("C# and F#", "C%23%20and%20F%23"),
    ("1 2", "1+2"),
    ("1+2", "1%2B2"),
]


@pytest.mark.parametrize("text, query", TEXTS, ids=[q for _, q in TEXTS])
def test_text_arrives_unchanged(server: Server, text: str, query: str) -> None:
    reply = alone(server, request("GET", f"/qrcode?text={query}"))
    assert reply.status == 200, (reply.status, reply.body[:200])
    assert reply.body.startswith(PNG_SIGNATURE)
    if (want := expected_png(server, text)) is not None:
        assert reply.body == want, f"{text!r}: not the library's PNG for the same text"


# --- pipelining -------------------------------------------------------------

LONG = "a" * 500
PIPELINE = [
    ("GET", f"/qrcode?text={LONG}"), ("GET", "/qrcode?text=hi"), ("GET", "/qrcode?text="),
    ("GET", "/nope"), ("POST", "/qrcode?text=hi"), ("HEAD", "/qrcode?text=hi"), ("GET", "/healthz"),
    ("GET", "/qrcode?text=hi&ec-level=ultra"), ("HEAD", "/healthz"), ("GET", f"/qrcode?text={LONG}&ec-level=high"),
    ("GET", "/qrcode?text=%FF"), ("GET", "/qrcode?text=%EF%BB%BFhi"),
] * 2


def test_pipelined_requests_are_all_answered_in_order(server: Server) -> None:
    expected = [alone(server, request(m, t), m) for m, t in PIPELINE]
    raw = b"".join(request(m, t) for m, t in PIPELINE)
    wires = [Wire(server, timeout=30) for _ in range(8)]
    try:
        for wire in wires:
            wire.send(raw)
        for wire in wires:
            for (method, target), want in zip(PIPELINE, expected):
                got = wire.read(method)
                assert (got.status, got.body) == (want.status, want.body), f"{method} {target}"
    finally:
        for wire in wires:
            wire.close()
    check_alive(server)


def test_forty_long_requests_in_one_write(server: Server) -> None:
    raw = request("GET", f"/qrcode?text={LONG}") * 40
    wire = Wire(server, timeout=30)
    try:
        wire.send(raw)
        replies = [wire.read() for _ in range(40)]
    finally:
        wire.close()
    assert [r.status for r in replies] == [200] * 40
    if (want := expected_png(server, LONG)) is not None:
        assert {r.body for r in replies} == {want}


# --- unbounded input --------------------------------------------------------

ENDLESS = {
    "header value": b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ",
    "header name": b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-",
    "request line": b"GET /qrcode?text=",
    "request target": b"GET /",
}


@pytest.mark.parametrize("what", list(ENDLESS))
def test_endless_head_is_refused_without_growing(server: Server, what: str) -> None:
    """Refused by the head limit, not by the request timeout (2 s here): the
    refusal comes within a fraction of it, and the server did not buffer what
    it was sent."""
    before = server_rss(server)
    wire = Wire(server, timeout=10)
    sent = 0
    started = time.monotonic()
    try:
        wire.send(ENDLESS[what])
        chunk = b"a" * 65536
        # Up to 8 MiB; a server must stop reading long before.
        while sent < 8 * 2**20:
            try:
                wire.send(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(chunk)
        else:
            # Still accepting bytes (kernel buffers): the answer must be a 431
            # or a close, not a wait for more.
            wire.sock.settimeout(REQUEST_TIMEOUT)
            try:
                data = wire.sock.recv(65536)
            except ConnectionResetError:
                data = b""
            except TimeoutError:
                pytest.fail(f"an endless {what}: {sent} bytes taken, no answer")
            assert data == b"" or data.split(b" ", 2)[1] in (b"431", b"400", b"414"), data[:100]
        elapsed = time.monotonic() - started
    finally:
        wire.close()
    assert elapsed < 0.75 * REQUEST_TIMEOUT, (
        f"an endless {what} was cut after {elapsed:.1f} s: by the request timeout, not the 16 KiB head limit")
    grown = server_rss(server) - before
    assert grown < 10 * 2**20, f"an endless {what} grew the server by {grown / 2**20:.1f} MiB"
    check_alive(server)


def test_too_many_headers_are_refused(server: Server) -> None:
    headers = {f"X-H{i}": "1" for i in range(150)}
    wire = Wire(server)
    try:
        wire.send(request("GET", "/healthz", headers))
        try:
            reply = wire.read()
            assert reply.status == 431, reply.status
        except (EOFError, ConnectionResetError):
            pass  # a close is a refusal too
    finally:
        wire.close()
    check_alive(server)


def test_a_head_at_the_limit_is_served(server: Server) -> None:
    # A request whose head is well inside 16 KiB (12 KiB of headers) is served.
    headers = {f"X-Pad-{i}": "p" * 1000 for i in range(12)}
    reply = alone(server, request("GET", "/healthz", headers))
    assert reply.status == 200


# --- clients that never read ------------------------------------------------

def server_sockets(server: Server) -> int:
    """Open sockets of the server's processes (/proc/PID/fd)."""
    count = 0
    for pid in server_pids(server):
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"):
                    count += 1
        except (ProcessLookupError, FileNotFoundError, PermissionError):
            continue
    assert count > 0, "the server has no socket open, not even its listener"
    return count


def never_reading_clients(server: Server) -> int:
    """50 connections each send two requests for 4096-pixel images, never read
    the answers and never close: the server must drop them within the request
    timeout + 4 s of answering (their answers sit in kernel buffers: ~2.8 MB
    per connection on loopback before a write would even block), and serve a
    normal client meanwhile."""
    baseline = server_sockets(server)
    # The peers' tiers (node-qrcode, segno) take ~0.1 s per 4096-pixel image,
    # seconds for the 100 here: they get the default size, the same test.
    size = "" if server.tier in ("qrcode", "segno") else "&min-size=4096"
    burst = request("GET", f"/qrcode?text=never%20read{size}") * 2
    stuck = []
    try:
        for _ in range(50):
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window: writes stall early
            sock.connect(("127.0.0.1", server.port))
            sock.settimeout(2)
            try:
                sock.sendall(burst)
            except (TimeoutError, OSError):
                pass
            stuck.append(sock)
        time.sleep(0.5)
        opened = server_sockets(server)
        assert opened >= baseline + 40, f"only {opened - baseline} of 50 connections reached the server"
        # Served meanwhile (after the 100 images queued before it).
        conn = server.connect(timeout=30)
        try:
            conn.request("GET", "/qrcode?text=hi")
            response = conn.getresponse()
            assert response.status == 200 and response.read().startswith(PNG_SIGNATURE)
        finally:
            conn.close()
        # Dropped (left <= 2) by the keep-alive timeout (Node and Python: 5 s) or the
        # request timeout (hyper: 2 s here), plus the servers' check interval.
        wait = max(REQUEST_TIMEOUT, KEEP_ALIVE_TIMEOUT) + 5
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and server_sockets(server) > baseline + 2:
            time.sleep(0.2)
        return server_sockets(server) - baseline
    finally:
        for sock in stuck:
            sock.close()
        check_alive(server)


def test_clients_that_never_read_are_dropped(server: Server) -> None:
    left = never_reading_clients(server)
    assert left <= 2, f"{left} of 50 never-reading connections still open after the timeouts"


# --- bodies -----------------------------------------------------------------

BODIES = [
    ("application/json", b"{"),
    ("application/x-www-form-urlencoded", b"text=hi&ec-level=%%%"),
    ("text/plain", b"hello"),
    ("multipart/form-data; boundary=x", b"--x\r\nnot a part"),
    ("application/octet-stream", b"\x00\xff" * 1_000_000),  # 2 MB
]


@pytest.mark.parametrize("content_type, body", BODIES, ids=[t.split(";")[0] for t, _ in BODIES])
def test_post_bodies_get_the_contracts_405(server: Server, content_type: str, body: bytes) -> None:
    wire = Wire(server, timeout=20)
    try:
        try:
            wire.send(request("POST", "/qrcode?text=a",
                              {"Content-Type": content_type, "Content-Length": str(len(body))}, body))
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may answer and close before reading a 2 MB body
        reply = wire.read("POST")
        assert reply.status == 405, (reply.status, reply.body[:200])
        assert reply.headers.get("content-type", "").startswith("application/json"), reply.headers
        assert b'"kind":"method-not-allowed"' in reply.body.replace(b" ", b"")
        # Usable afterwards, or closed cleanly.
        if reply.headers.get("connection", "").lower() != "close":
            try:
                wire.send(request("GET", "/healthz"))
                assert wire.read().status == 200
            except (BrokenPipeError, ConnectionResetError, EOFError):
                pass
    finally:
        wire.close()
    check_alive(server)


def test_get_with_a_body_is_answered_and_the_body_skipped(server: Server) -> None:
    wire = Wire(server)
    try:
        wire.send(request("GET", "/qrcode?text=hi", {"Content-Length": "5"}, b"hello")
                  + request("GET", "/healthz"))
        first = wire.read()
        assert first.status == 200 and first.body.startswith(PNG_SIGNATURE)
        if first.headers.get("connection", "").lower() != "close":
            assert wire.read().status == 200
    finally:
        wire.close()


def test_chunked_get_and_expect_continue(server: Server) -> None:
    wire = Wire(server)
    try:
        wire.send(request("GET", "/qrcode?text=hi", {"Transfer-Encoding": "chunked"}) + b"5\r\nhello\r\n0\r\n\r\n")
        reply = wire.read()
        assert reply.status == 200 and reply.body.startswith(PNG_SIGNATURE)
    finally:
        wire.close()
    reply = alone(server, request("GET", "/qrcode?text=hi", {"Expect": "100-continue"}))
    assert reply.status in (200, 417), reply.status
    if reply.status == 200:
        assert reply.body.startswith(PNG_SIGNATURE)


# --- request targets --------------------------------------------------------

def test_the_path_is_matched_as_sent(server: Server) -> None:
    for target in ("/%71rcode?text=hi", "/qrcode%3Ftext=hi", "/QRCODE?text=hi", "/qrcode/?text=hi"):
        reply = alone(server, request("GET", target))
        assert reply.status == 404, (target, reply.status)
        assert reply.headers.get("content-type", "").startswith("application/json"), target


def test_server_survives_them_all(server: Server) -> None:
    started = time.monotonic()
    check_alive(server)
    assert server.alive()
    assert time.monotonic() - started < 5


# --- failures that are nobody's input ----------------------------------------

@pytest.mark.parametrize("host", ["node", "python"])
def test_a_generator_failure_is_a_json_500_for_that_request_only(host: str, tmp_path: Path) -> None:
    """Tier cli with a CLI that cannot be spawned: each request gets the
    contract's JSON 500 (never the framework's own page), and the server
    keeps serving."""
    server = start(host, "cli", tmp_path, env={"QRGLUE_CLI": str(tmp_path / "no-such-qrglue")})
    try:
        for _ in range(3):
            reply = alone(server, request("GET", "/qrcode?text=hi"))
            assert reply.status == 500, reply
            assert reply.headers["content-type"].startswith("application/json"), reply.headers
            assert reply.body.replace(b" ", b"") == b'{"kind":"internal","message":"thegeneratorfailed"}'
            assert alone(server, request("GET", "/healthz")).status == 200
        assert server.alive()
    finally:
        stop(server)


# --- crashes -------------------------------------------------------------------

def workers(server: Server) -> list[int]:
    """The processes that serve requests under a supervising one (node:cluster's
    workers under its primary, uvicorn's spawned workers under its manager)."""
    found = []
    for pid in server_pids(server):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except (FileNotFoundError, ProcessLookupError):
            continue
        command = b" ".join(argv)
        if pid != server.process.pid and (b"server.mjs" in command or b"spawn_main" in command):
            found.append(pid)
    return found


@pytest.mark.parametrize("host", ["node", "python"])
def test_a_killed_worker_is_replaced(host: str, tmp_path: Path) -> None:
    """kill -9 a worker of a clustered server (2 workers) under load, 20 times
    in a row: each time the service answers again within 3 s (the other worker
    at once, the replacement soon), and no kill ends in a crash loop."""
    server = start(host, "native", tmp_path)  # native runs 2 workers (conftest.TWO_WORKERS)
    failures: list[str] = []
    stop_load = threading.Event()

    def load() -> None:
        while not stop_load.is_set():
            try:
                status, _, _ = server.get("/qrcode?text=under%20load")
                if status != 200:
                    failures.append(f"status {status}")
            except OSError:
                pass  # a request in flight on the killed worker may fail
    try:
        deadline = time.monotonic() + 10
        while len(workers(server)) < 2:
            assert time.monotonic() < deadline, f"expected 2 workers, found {workers(server)}"
            time.sleep(0.1)
        with ThreadPoolExecutor(4) as pool:
            for _ in range(4):
                pool.submit(load)
            try:
                for kill in range(20):
                    victim = workers(server)[0]
                    os.kill(victim, signal.SIGKILL)
                    deadline = time.monotonic() + 3
                    while True:
                        try:
                            if alone(server, request("GET", "/healthz"), timeout=1).status == 200:
                                break
                        except (OSError, EOFError):
                            pass
                        assert time.monotonic() < deadline, f"kill {kill}: no answer within 3 s"
                        time.sleep(0.05)
                    # The replacement comes back: two workers again, not a loop of deaths.
                    deadline = time.monotonic() + 10
                    while len(workers(server)) < 2:
                        assert time.monotonic() < deadline, f"kill {kill}: no replacement worker within 10 s"
                        time.sleep(0.1)
            finally:
                stop_load.set()
        assert server.alive()
        assert not failures, failures[:5]
        check_alive(server)
    finally:
        stop(server)
