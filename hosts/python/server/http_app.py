"""The ASGI app of the Python server: GET /qrcode and GET /healthz (tests/http/README.md).

The tier comes from $QRGLUE_SERVER_TIER (set by server.py before uvicorn
starts its workers). The in-process tiers (component, raw, native, segno,
static) call the generator synchronously in the handler, on the event loop:
what the experiment does. A call takes ~40 us to a few ms and this worker
has nothing else to run in the meantime that would be faster off the loop;
a thread pool would add a hop per request and, for the wasm paths, one
instance per pool thread. The loop is only held for one call: other
connections (idle, trickling) are served between calls. Tier cli awaits its
subprocess (asyncio), so the loop is free while the CLI runs.
"""

from __future__ import annotations

import asyncio
import io
import json
import math
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from http_query import NO_HOST_MESSAGE, UNKNOWN_METHOD_MESSAGE, HttpError, check_query, method_class

TIERS = ("segno", "cli", "component", "raw", "native", "static")
REFERENCE_TEXT = "https://www.reddit.com/r/rustjerk/top/?t=all"
ROOT = Path(__file__).resolve().parents[3]
Generate = Callable[[str, dict[str, object]], Awaitable[bytes]]


def _sync(png: Callable[..., bytes]) -> Generate:
    async def generate(text: str, options: dict[str, object]) -> bytes:
        return png(text, **options)

    return generate


def _generator(tier: str) -> Generate:
    if tier == "component":
        import qrglue

        return _sync(qrglue.png)
    if tier == "raw":
        import qrglue.raw

        return _sync(qrglue.raw.png)
    if tier == "native":
        import qrglue.native

        return _sync(qrglue.native.png)
    if tier == "static":
        import qrglue.raw

        golden = qrglue.raw.png(REFERENCE_TEXT)

        async def static(text: str, options: dict[str, object]) -> bytes:
            return golden

        return static
    if tier == "segno":
        import segno
        from segno.encoder import DataOverflowError

        import qrglue.native

        async def segno_png(text: str, o: dict[str, Any]) -> bytes:
            # `o` is resolved (check_query's `alone`): every option at its value or
            # the core's default; scale, version, min_version and mask only when given.
            # What segno cannot draw: a 501 rather than another code (tests/http/README.md).
            if "min_version" in o:
                raise HttpError("not-implemented", "segno has no min-version option", 501)
            # segno's names: versions M1..M4 for Micro QR, and M1 has no EC level
            # (error detection only: error=None), which our level low stands for.
            version: int | str | None = o.get("version")
            if o["micro"] and version is not None:
                version = f"M{version}"
            error = None if o["micro"] and o.get("version") == 1 and o["ec_level"] == "low" else o["ec_level"][0]
            try:
                code = segno.make(text, error=error, version=version, mode=None, mask=o.get("mask"), micro=o["micro"],
                                  boost_error=o["boost_ec"], eci=o["eci"], encoding="utf-8" if o["eci"] else None)
            except DataOverflowError:
                # The generator's data-too-long, whose message (the limit hit, in
                # bits) segno has no words for: the library's own error for the
                # same text and options is the answer.
                qrglue.native.png(text, **o)
                raise
            width = code.symbol_size(scale=1, border=o["quiet_zone"])[0]
            scale = o["scale"] if "scale" in o else math.ceil(o["min_size"] / width)
            out = io.BytesIO()
            code.save(out, kind="png", scale=scale, border=o["quiet_zone"], dark=o["dark"], light=o["light"])
            return out.getvalue()

        return segno_png
    if tier == "cli":
        cli = os.environ.get("QRGLUE_CLI") or str(ROOT / "target" / "host" / "qrglue")
        from qrglue._cli_flags import CLI_FLAGS

        # The CLI's flag for each keyword, from its generated flag table.
        flags = {f.keyword: f"--{f.flag}" for f in CLI_FLAGS}

        async def spawn(text: str, options: dict[str, object]) -> bytes:
            # The text on standard input, byte for byte: an argument cannot carry a NUL.
            argv = ["png", "-o", "-", "--path", "native", "--text-stdin"]
            for name, value in options.items():
                if isinstance(value, bool):  # a symbol option's flag: given when true
                    argv += [flags[name]] if value else []
                else:
                    argv += [flags[name], str(value)]  # ec_level: the WIT name, as the CLI takes it
            child = await asyncio.create_subprocess_exec(
                cli, *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE)
            out, err = await child.communicate(text.encode("utf-8"))
            line = err.decode("utf-8", "replace").rstrip("\n")
            if child.returncode == 0:
                return out
            if child.returncode == 1 and line.startswith("qrglue: ") and line.count(": ") >= 2:
                _, kind, message = line.split(": ", 2)
                raise HttpError(kind, message)
            raise RuntimeError(f"qrglue CLI exited {child.returncode}: {line}")

        return spawn
    raise SystemExit(f"unknown tier {tier!r} (python tiers: {', '.join(TIERS)})")


TIER = os.environ.get("QRGLUE_SERVER_TIER", "native")
GENERATE = _generator(TIER)
# The tiers with no qrglue generator: the query's checks stand in for its own (check_query's `alone`).
ALONE = TIER in ("segno", "static")

Send = Callable[[dict[str, Any]], Awaitable[None]]


async def _respond(send: Send, status: int, content_type: bytes, body: bytes,
                   extra: list[tuple[bytes, bytes]] | None = None, head: bool = False) -> None:
    headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers + (extra or [])})
    await send({"type": "http.response.body", "body": b"" if head else body})


async def _error(send: Send, status: int, kind: str, message: str, head: bool = False,
                 extra: list[tuple[bytes, bytes]] | None = None) -> None:
    body = json.dumps({"kind": kind, "message": message}, ensure_ascii=False).encode()
    await _respond(send, status, b"application/json; charset=utf-8", body, extra, head)


async def app(scope: dict[str, Any], receive: Callable[[], Awaitable[dict[str, Any]]], send: Send) -> None:
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    path = scope["raw_path"]
    method = scope["method"]
    head = method == "HEAD"
    # Before routing (tests/http/README.md, "Request targets and methods"); the
    # connection is closed after these, as after the parser's own 400.
    close = [(b"connection", b"close")]
    if method_class(method) == "unknown":
        await _error(send, 400, "bad-request", UNKNOWN_METHOD_MESSAGE, head, close)
        return
    if scope["http_version"] == "1.1" and not any(name == b"host" for name, _ in scope["headers"]):
        await _error(send, 400, "bad-request", NO_HOST_MESSAGE, head, close)
        return
    if path not in (b"/qrcode", b"/healthz"):
        await _error(send, 404, "not-found", "no such path (known: /qrcode, /healthz)", head)
        return
    if method not in ("GET", "HEAD"):
        await _error(send, 405, "method-not-allowed", "only GET and HEAD are allowed",
                     extra=[(b"allow", b"GET, HEAD")])
        return
    if path == b"/healthz":
        await _respond(send, 200, b"text/plain; charset=utf-8", b"ok\n", head=head)
        return
    try:
        text, options = check_query(scope["query_string"], ALONE)
        png = await GENERATE(text, options)
    except HttpError as error:
        await _error(send, error.status, error.kind, error.message, head)
        return
    except Exception as error:  # every failure gets the contract's JSON, never uvicorn's plain text
        kind = getattr(error, "kind", None)
        if isinstance(error, ValueError) and isinstance(kind, str):  # qrglue.QrError on every path
            await _error(send, 400, kind, str(error), head)
            return
        print(f"qrglue-server python/{TIER}: {error!r}", file=sys.stderr, flush=True)
        await _error(send, 500, "internal", "the generator failed", head)
        return
    await _respond(send, 200, b"image/png", png, head=head)
