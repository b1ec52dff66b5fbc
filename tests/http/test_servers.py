"""Every server and tier of tests/http/README.md, against the endpoint contract.

Started on a free 127.0.0.1 port with --request-timeout 2 (conftest.py), in
this order per server: the golden PNG, every 400/404/405 case with its exact
JSON (the library's kind and message for qr-errors, asked of the library
itself), hostile requests, 1,000 concurrent requests, 200 idle and
trickling connections, SIGTERM.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import qrglue
from conftest import PEER_TIERS, REQUEST_TIMEOUT, ROOT, Server, stop

EXPECTED = json.loads((ROOT / "tests" / "vectors" / "expected.json").read_text())
REFERENCE = "https://www.reddit.com/r/rustjerk/top/?t=all"
# As in the experiment: the URL goes into the query unencoded.
REFERENCE_TARGET = f"/qrcode?text={REFERENCE}"
REFERENCE_SHA256 = EXPECTED["ref-02"]["png_sha256"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CLI = ROOT / "target" / "host" / "qrglue"


def library_error(text: str | bytes, **options: Any) -> dict[str, str]:
    """The qrglue library's {kind, message} for this input: the Python package
    for str texts, the Rust CLI (qrglue-core's own UTF-8 check) for bytes."""
    if isinstance(text, str):
        try:
            qrglue.png(text, **options)
        except qrglue.QrError as error:
            return {"kind": error.kind, "message": str(error)}
        raise AssertionError(f"the library accepted {text!r} {options}")
    done = subprocess.run([str(CLI), "png", "-o", "-", "--path", "native", "--", text], capture_output=True)
    assert done.returncode == 1, done
    _, kind, message = done.stderr.decode().rstrip("\n").split(": ", 2)
    return {"kind": kind, "message": message}


def contract_error(kind: str, message: str) -> dict[str, str]:
    return {"kind": kind, "message": message}


BAD_QUERY_MISSING = contract_error("bad-query", "query parameter text is required")
BAD_QUERY_UNKNOWN = contract_error(
    "bad-query", "unknown query parameter (known: text, ec-level, min-size, quiet-zone, scale, dark, light, micro, "
    "version, min-version, mask, boost-ec, eci)")
BAD_QUERY_PERCENT = contract_error(
    "bad-query", "malformed percent-encoding in the query (a % must be followed by two hex digits)")
TOO_LONG = contract_error("text-too-long", "text is longer than 512 UTF-8 bytes (this endpoint's limit)")
BAD_EC = contract_error("invalid-options", "ec-level must be one of low, medium, quartile, high")


def not_decimal(name: str) -> dict[str, str]:
    return contract_error("invalid-options", f"{name} must be a decimal integer within 0..=4294967295")


def not_colour(name: str) -> dict[str, str]:
    return contract_error("invalid-options",
                          f"{name} must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa (%23 in a URL)")


def not_boolean(name: str) -> dict[str, str]:
    return contract_error("invalid-options", f"{name} must be true or false")


# (query, expected body): every 400 of the contract.
BAD_QUERIES: list[tuple[str, dict[str, str]]] = [
    ("", BAD_QUERY_MISSING),
    ("ec-level=low", BAD_QUERY_MISSING),
    ("&&", BAD_QUERY_MISSING),
    ("text", library_error("")),  # a name without '=' has the empty value
    ("text=", library_error("")),
    ("text=&ec-level=ultra&min-size=x", library_error("")),  # empty-text before invalid-options
    ("text=%FF", library_error(b"\xff")),
    ("text=%ED%A0%80", library_error(b"\xed\xa0\x80")),  # a UTF-16 surrogate encoded as UTF-8
    ("text=ab%ED%B0%80cd", library_error(b"ab\xed\xb0\x80cd")),
    ("text=ok%C3", library_error(b"ok\xc3")),
    ("text=%F0%90%41", library_error(b"\xf0\x90\x41")),
    ("text=%C0%AF", library_error(b"\xc0\xaf")),
    ("text=%FF&ec-level=ultra", library_error(b"\xff")),  # invalid-text first
    ("text=" + "a" * 513, TOO_LONG),
    ("text=" + "%E2%82%AC" * 171, TOO_LONG),  # 171 x 3 bytes = 513
    ("text=" + "a" * 513 + "&min-size=0", TOO_LONG),
    ("text=a&ec-level=ultra", BAD_EC),
    ("text=a&ec-level=L", BAD_EC),
    ("text=a&ec-level=Low", BAD_EC),
    ("text=a&ec-level=", BAD_EC),
    ("text=a&ec-level=%FF", BAD_EC),
    ("text=a&min-size=0", library_error("a", min_size=0)),
    ("text=a&min-size=4097", library_error("a", min_size=4097)),
    ("text=a&min-size=4294967295", library_error("a", min_size=4294967295)),
    ("text=a&quiet-zone=17", library_error("a", quiet_zone=17)),
    ("text=a&min-size=4294967296", not_decimal("min-size")),
    ("text=a&min-size=99999999999999999999", not_decimal("min-size")),
    ("text=a&min-size=-1", not_decimal("min-size")),
    ("text=a&min-size=1.5", not_decimal("min-size")),
    ("text=a&min-size=abc", not_decimal("min-size")),
    ("text=a&min-size=", not_decimal("min-size")),
    ("text=a&min-size=%EF%BC%91", not_decimal("min-size")),  # a fullwidth digit one
    ("text=a&quiet-zone=+4", not_decimal("quiet-zone")),  # '+' is a space
    ("text=a&quiet-zone=0x4", not_decimal("quiet-zone")),
    ("text=a&text=b", contract_error("bad-query", "query parameter text is given more than once")),
    ("text=a&min-size=300&min-size=300",
     contract_error("bad-query", "query parameter min-size is given more than once")),
    ("text=a&foo=1", BAD_QUERY_UNKNOWN),
    ("text=a&Text=b", BAD_QUERY_UNKNOWN),
    ("text=a&ec_level=low", BAD_QUERY_UNKNOWN),
    ("text=a&%FF=1", BAD_QUERY_UNKNOWN),
    ("text=%zz", BAD_QUERY_PERCENT),
    ("text=abc%", BAD_QUERY_PERCENT),
    ("text=abc%4", BAD_QUERY_PERCENT),
    ("text=a&min-size=%3", BAD_QUERY_PERCENT),
    # The options of contract 0.2.0: their forms (the server's words) ...
    ("text=a&scale=x", not_decimal("scale")),
    ("text=a&scale=99999999999", not_decimal("scale")),
    ("text=a&version=-1", not_decimal("version")),
    ("text=a&min-version=1.5", not_decimal("min-version")),
    ("text=a&mask=0x1", not_decimal("mask")),
    ("text=a&dark=ff0000", not_colour("dark")),  # the '#' (%23) is part of the form
    ("text=a&dark=#ff0000", not_colour("dark")),  # a raw '#' starts the fragment: dark is empty
    ("text=a&light=%23ff", not_colour("light")),
    ("text=a&light=%23fffff", not_colour("light")),
    ("text=a&dark=red", not_colour("dark")),
    ("text=a&micro=1", not_boolean("micro")),
    ("text=a&micro=TRUE", not_boolean("micro")),
    ("text=a&boost-ec=yes", not_boolean("boost-ec")),
    ("text=a&eci=1", not_boolean("eci")),
    ("text=a&scale=1&scale=1", contract_error("bad-query", "query parameter scale is given more than once")),
    ("text=a&micro=true&micro=false", contract_error("bad-query", "query parameter micro is given more than once")),
    ("text=a&symbol-version=1", BAD_QUERY_UNKNOWN),
    ("text=a&boost_ec=true", BAD_QUERY_UNKNOWN),
    ("text=a&dark=%2", BAD_QUERY_PERCENT),
    ("text=%FF&micro=1", library_error(b"\xff")),
    ("text=&scale=x", library_error("")),
    ("text=a&boost-ec=x&mask=x&micro=x&dark=x&scale=x", not_decimal("scale")),  # WIT field order
    ("text=a&min-size=0&dark=x", not_colour("dark")),  # every form before any range
    # ... then the generator's refusals, in its order and words.
    ("text=a&scale=0", library_error("a", scale=0)),
    ("text=a&scale=21", library_error("a", scale=21)),
    ("text=a&scale=4294967295", library_error("a", scale=4294967295)),
    ("text=a&dark=%23fff", library_error("a", dark="#fff")),  # the default light
    ("text=a&light=%23000000ff", library_error("a", light="#000000ff")),
    ("text=a&dark=%23ABCD&light=%23aabbccdd", library_error("a", dark="#ABCD", light="#aabbccdd")),
    ("text=a&version=0", library_error("a", version=0)),
    ("text=a&version=41", library_error("a", version=41)),
    ("text=a&min-version=41", library_error("a", min_version=41)),
    ("text=a&version=2&min-version=3", library_error("a", version=2, min_version=3)),
    ("text=a&mask=8", library_error("a", mask=8)),
    ("text=1&micro=true&version=5", library_error("1", micro=True, version=5)),
    ("text=1&micro=true&mask=4", library_error("1", micro=True, mask=4)),
    ("text=1&micro=true&ec-level=high", library_error("1", micro=True, ec_level="high")),
    ("text=a&scale=0&min-size=0", library_error("a", scale=0, min_size=0)),
    ("text=a&version=0&dark=%23fff&scale=21", library_error("a", version=0, dark="#fff", scale=21)),
    ("text=a&light=%23000&version=0", library_error("a", light="#000", version=0)),
    ("text=a&mask=9&version=2&min-version=3", library_error("a", mask=9, version=2, min_version=3)),
    ("text=1&micro=true&ec-level=high&mask=5", library_error("1", micro=True, ec_level="high", mask=5)),
    ("text=1&micro=true&eci=true", library_error("1", micro=True, eci=True)),
    ("text=1&micro=true&eci=true&ec-level=high", library_error("1", micro=True, eci=True, ec_level="high")),
]

# (query, the text and options the PNG must be made of).
GOOD_QUERIES: list[tuple[str, str, dict[str, Any]]] = [
    ("text=hello&ec-level=high&min-size=400&quiet-zone=2", "hello",
     {"ec_level": "high", "min_size": 400, "quiet_zone": 2}),
    ("quiet-zone=0&text=a+b%20c&ec-level=quartile", "a b c", {"ec_level": "quartile", "quiet_zone": 0}),
    ("text=%E2%82%AC%F0%9F%A6%80&min-size=0001", "\u20ac\U0001f980", {"min_size": 1}),
    ("text=" + "a" * 512, "a" * 512, {}),
    ("text=x%26y%3Dz&&", "x&y=z", {}),
]


# (query, text, options, what each tier 0 lacks of them): the options of
# contract 0.2.0, alone and together. The qrglue tiers answer the library's
# PNG for the same options; tier 0 answers a PNG of its own, or 501 for an
# option its library does not have (node-qrcode: micro, min-version,
# boost-ec, eci; segno: min-version; go-qrcode: micro, min-version, mask,
# boost-ec, eci, the first of them in WIT field order; zxing: micro, min-version, boost-ec).
OPTION_QUERIES: list[tuple[str, str, dict[str, Any], dict[str, str]]] = [
    ("text=hello&scale=5", "hello", {"scale": 5}, {}),
    ("text=a&scale=2&min-size=4096", "a", {"scale": 2, "min_size": 4096}, {}),  # min-size checked, not used
    ("text=hello&dark=%23336699&light=%23fff0", "hello", {"dark": "#336699", "light": "#fff0"}, {}),
    ("text=hello&dark=%23F00&light=%23FFFFFF80", "hello", {"dark": "#F00", "light": "#FFFFFF80"}, {}),
    ("text=hi&light=%23ffffff00", "hi", {"light": "#ffffff00"}, {}),
    ("text=hi&dark=%23fff&light=%23000", "hi", {"dark": "#fff", "light": "#000"}, {}),
    ("text=12345&micro=true", "12345", {"micro": True}, {"qrcode": "micro", "go-qrcode": "micro", "zxing": "micro"}),
    ("text=123&micro=true&version=2&mask=1&ec-level=medium", "123",
     {"micro": True, "version": 2, "mask": 1, "ec_level": "medium"},
     {"qrcode": "micro", "go-qrcode": "micro", "zxing": "micro"}),
    ("text=https://example.com&version=5&mask=3", "https://example.com", {"version": 5, "mask": 3},
     {"go-qrcode": "mask"}),
    ("text=https://example.com&version=5&mask=3&boost-ec=true", "https://example.com",
     {"version": 5, "mask": 3, "boost_ec": True}, {"qrcode": "boost-ec", "go-qrcode": "mask", "zxing": "boost-ec"}),
    ("text=hi&min-version=3", "hi", {"min_version": 3},
     {"qrcode": "min-version", "segno": "min-version", "go-qrcode": "min-version", "zxing": "min-version"}),
    ("text=hi&micro=false&boost-ec=false", "hi", {"micro": False, "boost_ec": False}, {}),
    ("text=%E6%BC%A2%E5%AD%97%E3%81%A7%E3%81%99&eci=true", "漢字です", {"eci": True},
     {"qrcode": "eci", "go-qrcode": "eci"}),
    ("text=abcdefghijklmnopq&eci=true&mask=2", "abcdefghijklmnopq", {"eci": True, "mask": 2},
     {"qrcode": "eci", "go-qrcode": "mask"}),
    ("text=hi&eci=false", "hi", {"eci": False}, {}),
    (("text=hello&ec-level=quartile&min-size=300&quiet-zone=2&scale=3&dark=%23000080&light=%23ffffff&micro=false"
      "&version=3&mask=6&boost-ec=true"), "hello",
     {"ec_level": "quartile", "min_size": 300, "quiet_zone": 2, "scale": 3, "dark": "#000080", "light": "#ffffff",
      "micro": False, "version": 3, "mask": 6, "boost_ec": True}, {"qrcode": "boost-ec", "go-qrcode": "mask", "zxing": "boost-ec"}),
]

# (query, text, options): a version that cannot hold the text, after encoding:
# the library's data-too-long (tier 0 too); the static tiers, which never
# encode, answer their PNG.
TOO_LONG_FOR_THE_VERSION: list[tuple[str, str, dict[str, Any]]] = [
    ("text=" + "a" * 100 + "&version=1", "a" * 100, {"version": 1}),
    ("text=" + "a" * 30 + "&micro=true&version=4", "a" * 30, {"micro": True, "version": 4}),
]

TIER0_LIBRARY = PEER_TIERS


def check_alive(server: Server) -> None:
    status, _, body = server.get(REFERENCE_TARGET)
    assert status == 200 and body.startswith(PNG_SIGNATURE), f"{server.host}/{server.tier} stopped answering"


def test_golden(server: Server) -> None:
    status, headers, body = server.get(REFERENCE_TARGET)
    assert status == 200
    assert headers["content-type"] == "image/png"
    assert int(headers["content-length"]) == len(body)
    assert body.startswith(PNG_SIGNATURE)
    if server.golden:
        assert hashlib.sha256(body).hexdigest() == REFERENCE_SHA256
    status, headers, body = server.get("/healthz")
    assert status == 200 and body == b"ok\n"
    status, headers, body = server.get(REFERENCE_TARGET, method="HEAD")
    assert status == 200 and body == b""


def test_good_queries(server: Server) -> None:
    for query, text, options in GOOD_QUERIES:
        status, headers, body = server.get("/qrcode?" + query)
        assert (status, headers["content-type"]) == (200, "image/png"), (query, body[:200])
        if server.tier == "static":
            assert hashlib.sha256(body).hexdigest() == REFERENCE_SHA256
        elif server.golden:
            assert body == qrglue.png(text, **options), query
        else:
            assert body.startswith(PNG_SIGNATURE)


def test_option_queries(server: Server) -> None:
    for query, text, options, lacks in OPTION_QUERIES:
        status, headers, body = server.get("/qrcode?" + query)
        if server.tier in lacks:
            message = f"{TIER0_LIBRARY[server.tier]} has no {lacks[server.tier]} option"
            assert (status, json.loads(body)) == (501, {"kind": "not-implemented", "message": message}), query
            assert headers["content-type"] == "application/json; charset=utf-8"
            continue
        assert (status, headers["content-type"]) == (200, "image/png"), (query, body[:200])
        if server.tier == "static":
            assert hashlib.sha256(body).hexdigest() == REFERENCE_SHA256
        elif server.golden:
            assert body == qrglue.png(text, **options), query
        else:
            assert body.startswith(PNG_SIGNATURE)
    # Symbol options given at their defaults: the bytes of no symbol options.
    if server.golden:
        assert server.get("/qrcode?text=hi&micro=false&boost-ec=false")[2] == server.get("/qrcode?text=hi")[2]
    check_alive(server)


def test_a_version_too_small_for_the_text(server: Server) -> None:
    for query, text, options in TOO_LONG_FOR_THE_VERSION:
        status, _, body = server.get("/qrcode?" + query)
        if server.tier == "static":
            assert status == 200 and hashlib.sha256(body).hexdigest() == REFERENCE_SHA256, query
        elif server.tier in ("qrcode", "go-qrcode", "zxing") and options.get("micro"):
            assert (status, json.loads(body)["kind"]) == (501, "not-implemented"), query
        else:
            assert (status, json.loads(body)) == (400, library_error(text, **options)), query
    check_alive(server)


@pytest.mark.parametrize("query, expected", BAD_QUERIES, ids=range(len(BAD_QUERIES)))
def test_bad_query(server: Server, query: str, expected: dict[str, str]) -> None:
    status, headers, body = server.get("/qrcode?" + query)
    assert status == 400, (query, body[:200])
    assert headers["content-type"] == "application/json; charset=utf-8"
    assert json.loads(body) == expected, query
    check_alive(server)


def test_methods_and_paths(server: Server) -> None:
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        for path in ("/qrcode?text=a", "/healthz"):
            status, headers, body = server.get(path, method=method)
            assert status == 405, (method, path)
            assert headers["allow"] == "GET, HEAD"
            assert json.loads(body) == {"kind": "method-not-allowed", "message": "only GET and HEAD are allowed"}
    for path in ("/", "/nope", "/qrcode/x", "/QRCODE?text=a"):
        status, _, body = server.get(path)
        assert status == 404, path
        assert json.loads(body) == {"kind": "not-found", "message": "no such path (known: /qrcode, /healthz)"}
    check_alive(server)


def raw_exchange(server: Server, request: bytes, timeout: float = 5.0) -> bytes:
    """Send raw bytes, return what came back before the server closed or went quiet."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=timeout) as sock:
        try:
            sock.sendall(request)
        except (BrokenPipeError, ConnectionResetError):
            pass
        data = b""
        try:
            while not data.endswith(b"\r\n\r\n") or b"\r\n\r\n" not in data:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
                if b"\r\n\r\n" in data:
                    break
        except (TimeoutError, ConnectionResetError):
            pass
        return data


def status_of(reply: bytes) -> int:
    assert reply.startswith(b"HTTP/1."), reply[:100]
    return int(reply.split(b" ", 2)[1])


def test_hostile_requests(server: Server) -> None:
    huge_url = b"GET /qrcode?text=" + b"a" * 1_000_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    assert 400 <= status_of(raw_exchange(server, huge_url)) < 500
    check_alive(server)
    huge_header = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 40_000 + b"\r\n\r\n"
    assert status_of(raw_exchange(server, huge_header)) == 431
    check_alive(server)
    for garbage in (b"GARBAGE\r\n\r\n", b"GET /qrcode?text=a HTTP/9.9\r\n\r\n", b"\x00\xff\r\n\r\n",
                    b"GET /qrcode?text=a b HTTP/1.1\r\nHost: x\r\n\r\n"):
        reply = raw_exchange(server, garbage)
        assert reply == b"" or 400 <= status_of(reply) < 600, (garbage, reply[:100])
        check_alive(server)


def test_1000_concurrent_requests(server: Server) -> None:
    def worker(_: int) -> list[str]:
        conn = server.connect(timeout=30)
        digests = []
        try:
            for _ in range(10):
                conn.request("GET", REFERENCE_TARGET)
                response = conn.getresponse()
                body = response.read()
                ok = response.status == 200
                digests.append(hashlib.sha256(body).hexdigest() if ok else f"status {response.status}")
                if response.getheader("connection", "").lower() == "close":
                    conn.close()
        finally:
            conn.close()
        return digests

    with ThreadPoolExecutor(100) as pool:
        digests = [d for batch in pool.map(worker, range(100)) for d in batch]
    assert len(digests) == 1000
    if server.golden:
        assert set(digests) == {REFERENCE_SHA256}
    else:
        assert len(set(digests)) == 1 and not digests[0].startswith("status")


@contextlib.contextmanager
def slow_clients(server: Server) -> Iterator[list[socket.socket]]:
    """100 idle connections and 100 that trickle a request head byte by byte
    (never its final CRLF CRLF), open for the block; then a normal client
    gets its PNG within 1 s, three times. Yields the 200 sockets. Shared with
    tests/http-proxy, whose servers keep such clients instead of timing out."""
    idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(100)]
    trickling = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(100)]
    stop_trickle = threading.Event()
    head = b"GET /qrcode?text=" + b"t" * 400 + b" HTTP/1.1\r\nHost: x\r\n\r\n"

    def trickle() -> None:
        for i in range(len(head) - 4):  # never the final CRLF CRLF
            if stop_trickle.wait(0.05):
                return
            for sock in trickling:
                try:
                    sock.send(head[i:i + 1])
                except OSError:
                    pass

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    try:
        time.sleep(0.3)
        for _ in range(3):
            started = time.monotonic()
            status, _, body = server.get(REFERENCE_TARGET)
            elapsed = time.monotonic() - started
            assert status == 200 and body.startswith(PNG_SIGNATURE)
            assert elapsed < 1.0, f"a normal client waited {elapsed:.2f} s behind 200 slow ones"
        yield idle + trickling
    finally:
        stop_trickle.set()
        thread.join()
        for sock in idle + trickling:
            sock.close()


def test_idle_and_trickling_clients(server: Server) -> None:
    opened = time.monotonic()
    with slow_clients(server) as slow:
        # The request timeout closes every one of them, idle or trickling.
        deadline = opened + REQUEST_TIMEOUT + 4.0
        for sock in slow:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                while sock.recv(4096):
                    pass
            except ConnectionResetError:
                pass
            except TimeoutError:
                pytest.fail(f"a slow connection was still open {REQUEST_TIMEOUT + 4:.0f} s after it opened")
        check_alive(server)


def test_stop(server: Server) -> None:
    check_alive(server)
    started = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    status = stop(server)
    assert status == 0, f"exit status {status} after SIGTERM:\n{server.log.read_text()[-2000:]}"
    assert time.monotonic() - started < 10
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", server.port), timeout=1).close()
    # No worker left behind in its process group (helpers get 3 s to notice their parent is gone).
    deadline = time.monotonic() + 3
    while True:
        left = subprocess.run(["pgrep", "-g", str(server.process.pid)], capture_output=True, text=True).stdout.split()
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert left == [], f"processes left in the server's group: {left}"
