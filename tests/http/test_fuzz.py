"""HTTP fuzzing: seeded random and mutated request bytes against every server.

Each case is one connection: bytes derived from a valid request (bytes
flipped, inserted, deleted or duplicated, lines shuffled or cut, a random
method, version, header or target) or plain random bytes, then a half-close,
so the server sees the end of what it will get. The server must answer with
well-formed HTTP responses (a status line, headers, a body of the length it
announced) or close the connection, within a few seconds, and keep serving.
Never a crash, never a hang.

`just fuzz-http SECONDS` runs it for SECONDS per server (seed:
QRGLUE_FUZZ_HTTP_SEED); `just test` runs 3 s per server. A failing case
prints its seed and index, and its bytes, to replay it.
"""

from __future__ import annotations

import errno
import os
import random
import socket
import time

from conftest import Server
from test_servers import check_alive

SECONDS = float(os.environ.get("QRGLUE_FUZZ_HTTP_SECONDS", "3"))
SEED = int(os.environ.get("QRGLUE_FUZZ_HTTP_SEED", "20261124"))
REPLY_TIMEOUT = 5.0
# Servers that answer a request line without a version (HTTP/0.9) the HTTP/0.9
# way, with a bare body and a close: nginx, the balancer of the wasmCloud
# lattice (tests/http-proxy, tier lattice).
HTTP09_TIERS = {"lattice"}

SEEDS = [
    b"GET /qrcode?text=hello HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /qrcode?text=%E4%B8%AD%E6%96%87&ec-level=high&min-size=300&quiet-zone=2 HTTP/1.1\r\nHost: x\r\n\r\n",
    b"HEAD /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    b"POST /qrcode?text=a HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1\r\n\r\n{",
    b"GET /qrcode?text=a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
    b"GET /healthz HTTP/1.0\r\n\r\n",
]
TOKENS = [b"\r\n", b"\r\n\r\n", b":", b" ", b"%", b"%00", b"?", b"&", b"=", b"#", b"\x00", b"\xff", b"\t",
          b"Content-Length: 99999999999999999999", b"Transfer-Encoding: chunked", b"Expect: 100-continue",
          b"Host: y", b"HTTP/1.1", b"HTTP/2.0", b"GET", b"get", b"CONNECT", b"OPTIONS *", b"http://x/qrcode",
          b"text=", b"ec-level=", b"min-size=4096", b"\xef\xbb\xbf", b"0\r\n\r\n", b"ffffffff\r\n"]


def mutate(rng: random.Random) -> bytes:
    if rng.random() < 0.1:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
    data = bytearray(rng.choice(SEEDS))
    for _ in range(rng.randrange(1, 6)):
        op = rng.randrange(6)
        at = rng.randrange(len(data) + 1)
        if op == 0 and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif op == 1:
            data[at:at] = rng.choice(TOKENS)
        elif op == 2 and data:
            del data[at:at + rng.randrange(1, 16)]
        elif op == 3:
            data[at:at] = data[at:at + rng.randrange(1, 64)] * rng.randrange(2, 8)
        elif op == 4:
            lines = bytes(data).split(b"\r\n")
            rng.shuffle(lines)
            data = bytearray(b"\r\n".join(lines))
        else:
            data = data[:at]
    return bytes(data)


def is_http09(data: bytes) -> bool:
    """Whether the first request line is HTTP/0.9's `METHOD target`, with no
    version (empty lines before a request line are skipped, RFC 9112 2.2)."""
    line = data.lstrip(b"\r\n").split(b"\n", 1)[0].rstrip(b"\r")
    return len(line.split()) == 2


def read_replies(sock: socket.socket, http09: bool = False) -> list[int]:
    """Every response on the connection until the server closes it; raises
    AssertionError on anything that is not well-formed HTTP. With http09, a
    bare body closed by the server (HTTP/0.9's answer) is accepted too."""
    sock.settimeout(REPLY_TIMEOUT)
    buffer = b""
    statuses = []
    deadline = time.monotonic() + REPLY_TIMEOUT

    def fill() -> bool:
        nonlocal buffer
        assert time.monotonic() < deadline, f"no answer and no close within {REPLY_TIMEOUT} s"
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return False
        except TimeoutError:
            raise AssertionError(f"no answer and no close within {REPLY_TIMEOUT} s") from None
        buffer += chunk
        return bool(chunk)

    while http09 and not statuses and len(buffer) < 5:
        if not fill():
            break
    if http09 and not statuses and buffer and not buffer.startswith(b"HTTP/"):
        while fill():
            pass
        return statuses
    while True:
        while b"\r\n\r\n" not in buffer:
            if not fill():
                assert buffer == b"", f"closed inside a response head: {buffer[:200]!r}"
                return statuses
        head, buffer = buffer.split(b"\r\n\r\n", 1)
        status_line, *header_lines = head.split(b"\r\n")
        parts = status_line.split(b" ", 2)
        assert len(parts) >= 2 and parts[0] in (b"HTTP/1.1", b"HTTP/1.0") and parts[1].isdigit() \
            and len(parts[1]) == 3, f"not a status line: {status_line[:200]!r}"
        status = int(parts[1])
        assert 100 <= status < 600, status_line
        headers = {}
        for line in header_lines:
            name, sep, value = line.partition(b":")
            assert sep and name and name == name.strip(), f"not a header line: {line[:200]!r}"
            headers[name.strip().lower()] = value.strip()
        statuses.append(status)
        if status < 200 or status in (204, 304):
            continue
        if b"content-length" in headers:
            length = int(headers[b"content-length"])
            # A HEAD answer announces a length and sends no body: the next
            # response (or the close) follows at once. No body of this
            # endpoint (PNG, JSON, "ok") starts like a status line.
            while len(buffer) < length and not buffer.startswith(b"HTTP/1."):
                if not fill():
                    break
            if not buffer.startswith(b"HTTP/1."):
                buffer = buffer[length:] if len(buffer) >= length else b""
        elif headers.get(b"transfer-encoding", b"").lower() == b"chunked":
            while True:
                while b"\r\n" not in buffer:
                    assert fill(), "closed inside a chunked body"
                size_line, buffer = buffer.split(b"\r\n", 1)
                size = int(size_line.split(b";")[0], 16)
                while len(buffer) < size + 2:
                    assert fill(), "closed inside a chunk"
                buffer = buffer[size + 2:]
                if size == 0:
                    break
        else:
            while fill():
                pass
            return statuses


def test_fuzzed_requests(server: Server) -> None:
    rng = random.Random(f"{SEED}-{server.host}-{server.tier}")
    deadline = time.monotonic() + SECONDS
    cases = answered = 0
    while time.monotonic() < deadline:
        data = mutate(rng)
        try:
            with socket.create_connection(("127.0.0.1", server.port), timeout=REPLY_TIMEOUT) as sock:
                try:
                    sock.sendall(data)
                    sock.shutdown(socket.SHUT_WR)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                except OSError as error:  # ENOTCONN: already closed by the server (wash dev)
                    if error.errno != errno.ENOTCONN:
                        raise
                statuses = read_replies(sock, http09=server.tier in HTTP09_TIERS and is_http09(data))
        except AssertionError as error:
            raise AssertionError(f"case {cases} (seed {SEED}, {server.host}/{server.tier}): {error}\n"
                                 f"sent: {data!r}") from None
        cases += 1
        answered += bool(statuses)
        if cases % 50 == 0:
            assert server.alive(), f"the server died at case {cases}: {data!r}"
    check_alive(server)
    assert server.alive()
    print(f"{server.host}/{server.tier}: {cases} fuzzed requests, {answered} answered, the rest closed")
    assert cases >= 20, f"only {cases} cases in {SECONDS} s"
