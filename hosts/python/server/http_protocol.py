"""uvicorn's httptools protocol with the two limits tests/http/README.md asks for.

uvicorn 0.54 has no request-head timeout (its keep-alive timer starts only
after a first response, so a client that connects and sends nothing, or
trickles a head byte by byte, holds the connection forever) and no head size
limit with httptools. This subclass adds both, against the pinned uvicorn:

- a client must send a whole request head within REQUEST_TIMEOUT seconds of
  connecting, or of the end of its previous response; else it is closed;
- a request head (URL + header names and values) over MAX_HEAD_BYTES gets 431
  and the connection is closed.
"""

from __future__ import annotations

import asyncio
import os

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

MAX_HEAD_BYTES = 16 * 1024
REQUEST_TIMEOUT = float(os.environ.get("QRGLUE_SERVER_REQUEST_TIMEOUT", "10"))


class HeadTooLarge(Exception):
    pass


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    _head_bytes = 0
    _head_too_large = False
    _head_deadline: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        self._head_bytes = 0
        self._head_deadline = self.loop.call_later(REQUEST_TIMEOUT, self._head_timeout)

    def _disarm(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_timeout(self) -> None:
        self._head_deadline = None
        if self.cycle is None or self.cycle.response_complete:
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _count(self, n: int) -> None:
        self._head_bytes += n
        if self._head_bytes > MAX_HEAD_BYTES:
            self._head_too_large = True
            raise HeadTooLarge

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def send_400_response(self, msg: str) -> None:
        if not self._head_too_large:
            super().send_400_response(msg)
            return
        body = b'{"kind":"bad-request","message":"request head larger than 16 KiB"}'
        self.transport.write(
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json; charset=utf-8\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body)
        self.transport.close()
