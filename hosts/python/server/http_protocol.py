"""uvicorn's httptools protocol with the limits tests/http/README.md asks for.

uvicorn 0.54 has no request-head timeout (its keep-alive timer starts only
after a first response, so a client that connects and sends nothing, or
trickles a head byte by byte, holds the connection forever), no head size
limit with httptools, and answers a malformed request with its own plain-text
400. This subclass adds, against the pinned uvicorn:

- a client must send a whole request head within REQUEST_TIMEOUT seconds of
  connecting, or of the end of its previous response; else it is closed;
- a request head over MAX_HEAD_BYTES, or with more than MAX_HEADERS header
  lines, gets 431 and the connection is closed. Each head is measured on its
  own (pipelined requests each get the whole limit), and the bytes of a head
  still in progress are counted as they arrive: httptools buffers a header
  value until its end, so a value that never ends would otherwise grow
  without bound (and quadratically in CPU) before any callback saw it;
- a request the parser refuses gets the contract's JSON 400, not uvicorn's
  plain text;
- a client that does not read its answers is closed: once bytes wait to be
  sent (the kernel's buffers full) and their count has not gone down for
  REQUEST_TIMEOUT seconds, the connection is aborted. uvicorn has no write
  timeout: such a client held its descriptor and buffers for ever, whether
  the answer was still being written (flow control paused the app) or the
  connection was being closed (asyncio's close() waits for the buffer to
  drain);
- a client that pipelines requests and never reads costs a few renders, not
  one per request: the kernel holds at most NOTSENT_LOWAT bytes unsent
  (TCP_NOTSENT_LOWAT, set once per connection) and asyncio's buffer at most
  as much before uvicorn's flow control pauses the app (its default, 64 KiB,
  is nine 4096-pixel PNGs). uvicorn starts a pipelined request once the
  answer before it is handed to the transport: without the bounds the
  kernel's send buffer (autotuned up to 4 MB) took all 200 answers of such a
  client, each rendered (issue 39).

hosts/python/UPSTREAM.md has the proposals for uvicorn and httptools.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

MAX_HEAD_BYTES = 16 * 1024
MAX_HEADERS = 100
REQUEST_TIMEOUT = float(os.environ.get("QRGLUE_SERVER_REQUEST_TIMEOUT", "10"))
# The most a connection holds unsent in the kernel (TCP_NOTSENT_LOWAT), and in
# asyncio's write buffer before the app is paused: about two 4096-pixel PNGs.
NOTSENT_LOWAT = 16 * 1024
# Received bytes are fed to the parser in slices of this size, so a head in
# progress is measured within one slice of its true size.
FEED_SLICE = 1024


class HeadTooLarge(Exception):
    pass


def _json_response(status_line: bytes, kind: str, message: str) -> bytes:
    body = json.dumps({"kind": kind, "message": message}).encode()
    return (status_line + b"\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: "
            + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body)


class _ClosingTransport:
    """The connection's transport, as uvicorn sees it: close() also starts the
    write watch (uvicorn closes in many places, each of which would wait for
    ever on a client that does not read)."""

    def __init__(self, transport: asyncio.Transport, closed: Any) -> None:
        self._transport = transport
        self._closed = closed

    def close(self) -> None:
        self._transport.close()
        self._closed()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    # Bytes and header lines of the request head being received; the counts
    # restart with each message, so pipelined requests are measured one by one.
    _head_bytes = 0  # as received (an upper bound, see data_received)
    _exact_bytes = 0  # as parsed: the URL, header names and values
    _header_count = 0
    # Between a head's end and its message's end the parser is in a body.
    _in_body = False
    _head_too_large = False
    _head_deadline: asyncio.TimerHandle | None = None
    _raw_transport: asyncio.Transport | None = None
    _write_watch: asyncio.TimerHandle | None = None
    _unsent = 0

    def _arm(self) -> None:
        self._disarm()
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
        self._raw_transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NOTSENT_LOWAT, NOTSENT_LOWAT)
            except OSError:
                pass  # best effort: the write watch still ends the connection, later
        transport.set_write_buffer_limits(high=NOTSENT_LOWAT)
        super().connection_made(_ClosingTransport(transport, self._watch_writes))  # type: ignore[arg-type]
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._write_watch is not None:
            self._write_watch.cancel()
            self._write_watch = None
        super().connection_lost(exc)

    def pause_writing(self) -> None:
        super().pause_writing()
        self._watch_writes()

    def _watch_writes(self) -> None:
        """From now on, bytes waiting to be sent must go down within every
        REQUEST_TIMEOUT seconds, or the connection is aborted."""
        transport = self._raw_transport
        if self._write_watch is None and transport is not None and transport.get_write_buffer_size() > 0:
            self._unsent = transport.get_write_buffer_size()
            self._write_watch = self.loop.call_later(REQUEST_TIMEOUT, self._check_writes)

    def _check_writes(self) -> None:
        self._write_watch = None
        transport = self._raw_transport
        if transport is None:
            return
        unsent = transport.get_write_buffer_size()
        if unsent > 0 and unsent >= self._unsent:
            transport.abort()
        else:
            self._watch_writes()

    def data_received(self, data: bytes) -> None:
        view = memoryview(data)
        for start in range(0, len(data), FEED_SLICE):
            piece = bytes(view[start:start + FEED_SLICE])
            if not self._in_body:
                self._head_bytes += len(piece)
            super().data_received(piece)
            if self.transport.is_closing():
                return
            # An upper bound of the head in progress: a head ending inside
            # this slice restarted the count, so only an unfinished one grows.
            if not self._in_body and self._head_bytes > MAX_HEAD_BYTES + FEED_SLICE:
                self._refuse_head()
                return

    def _refuse_head(self) -> None:
        self._head_too_large = True
        self.transport.write(_json_response(b"HTTP/1.1 431 Request Header Fields Too Large", "bad-request",
                                            "request head larger than 16 KiB"))
        self.transport.close()

    def _count(self, n: int) -> None:
        if self._head_too_large:
            raise HeadTooLarge
        self._exact_bytes += n
        if self._exact_bytes > MAX_HEAD_BYTES or self._header_count > MAX_HEADERS:
            self._head_too_large = True
            raise HeadTooLarge

    def on_message_begin(self) -> None:
        self._exact_bytes = 0
        self._header_count = 0
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        self._count(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._disarm()
        self._in_body = True
        self._head_bytes = 0
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._in_body = False
        self._head_bytes = 0
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def send_400_response(self, msg: str) -> None:
        if self._head_too_large:
            self._refuse_head()
        else:
            self.transport.write(_json_response(b"HTTP/1.1 400 Bad Request", "bad-request",
                                                "malformed HTTP request"))
            self.transport.close()
