"""The query of GET /qrcode, checked as tests/http/README.md orders it.

bad-query (syntax, names, repeats, missing text), invalid-text, empty-text,
text-too-long, then invalid-options for values that are not an ec-level name
or a decimal u32. Ranges are the generator's to refuse. The same rules as
hosts/rust/server/src/query.rs and hosts/node/server/contract.mjs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MAX_TEXT_BYTES = 512
REFERENCE_TEXT = "https://www.reddit.com/r/rustjerk/top/?t=all"
EC_LEVELS = ("low", "medium", "quartile", "high")
# The contract's fixed messages (guest/core/src/contract.rs), for the tiers
# with no qrglue library to ask (segno, static).
EMPTY_TEXT_MESSAGE = "text is empty"
LONE_SURROGATE_MESSAGE = "text contains a lone surrogate (not encodable as UTF-8)"
NOT_UTF8_TEMPLATE = "text is not valid UTF-8 from byte {index}"
NAMES = (b"text", b"ec-level", b"min-size", b"quiet-zone")
_HEX = b"0123456789abcdefABCDEF"
_DIGITS = re.compile(rb"[0-9]{1,10}\Z")


# Request targets and methods (tests/http/README.md), the same rules as
# hosts/rust/http-query's method_class. httptools already drops a fragment and
# reduces an absolute-form target to its path and query.
UNKNOWN_METHOD_MESSAGE = "unknown method (methods are case-sensitive: GET and HEAD are served)"
NO_HOST_MESSAGE = "an HTTP/1.1 request must have a Host header"
NOT_ALLOWED_METHODS = frozenset({"POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"})


def method_class(method: str) -> str:
    """'served' (GET, HEAD), 'not-allowed' (405) or 'unknown' (400: methods are case-sensitive)."""
    if method in ("GET", "HEAD"):
        return "served"
    return "not-allowed" if method in NOT_ALLOWED_METHODS else "unknown"


class HttpError(Exception):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


@dataclass
class Query:
    text: str
    options: dict[str, object] = field(default_factory=dict)  # Python API names: ec_level, min_size, quiet_zone


def _decode(part: bytes) -> bytes:
    """'+' is a space, %XY the byte 0xXY; a % without two hex digits is malformed."""
    part = part.replace(b"+", b" ")
    if b"%" not in part:
        return part
    pieces = part.split(b"%")
    out = bytearray(pieces[0])
    for piece in pieces[1:]:
        if len(piece) < 2 or piece[0] not in _HEX or piece[1] not in _HEX:
            raise HttpError("bad-query",
                            "malformed percent-encoding in the query (a % must be followed by two hex digits)")
        out.append(int(piece[:2], 16))
        out += piece[2:]
    return bytes(out)


def utf8_problem(b: bytes, error: UnicodeDecodeError) -> str:
    """The contract's invalid-text message for bytes that are not UTF-8: the
    lone-surrogate message for an encoded surrogate (ED A0..BF 80..BF) where
    the valid UTF-8 ends, else NOT_UTF8_TEMPLATE at that index."""
    at = error.start  # Rust's Utf8Error::valid_up_to
    if b[at:at + 1] == b"\xed" and len(b) >= at + 3 and 0xA0 <= b[at + 1] <= 0xBF and 0x80 <= b[at + 2] <= 0xBF:
        return LONE_SURROGATE_MESSAGE
    return NOT_UTF8_TEMPLATE.replace("{index}", str(at))


def _uint(name: str, value: bytes) -> int:
    if not _DIGITS.match(value) or int(value) > 0xFFFF_FFFF:
        raise HttpError("invalid-options", f"{name} must be a decimal integer within 0..=4294967295")
    return int(value)


def check_query(query: bytes) -> Query:
    """The raw query string -> Query; text == '' means empty-text (the caller's generator says so)."""
    found: dict[bytes, bytes] = {}
    for part in query.split(b"&"):
        if not part:
            continue
        name_raw, _, value_raw = part.partition(b"=")
        name = _decode(name_raw)
        value = _decode(value_raw)
        if name not in NAMES:
            raise HttpError("bad-query", "unknown query parameter (known: text, ec-level, min-size, quiet-zone)")
        if name in found:
            raise HttpError("bad-query", f"query parameter {name.decode()} is given more than once")
        found[name] = value
    raw = found.get(b"text")
    if raw is None:
        raise HttpError("bad-query", "query parameter text is required")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise HttpError("invalid-text", utf8_problem(raw, error)) from None
    if not text:
        return Query(text)
    if len(raw) > MAX_TEXT_BYTES:
        raise HttpError("text-too-long", f"text is longer than {MAX_TEXT_BYTES} UTF-8 bytes (this endpoint's limit)")
    options: dict[str, object] = {}
    if b"ec-level" in found:
        level = found[b"ec-level"].decode("latin-1")
        if level not in EC_LEVELS:
            raise HttpError("invalid-options", "ec-level must be one of low, medium, quartile, high")
        options["ec_level"] = level
    if b"min-size" in found:
        options["min_size"] = _uint("min-size", found[b"min-size"])
    if b"quiet-zone" in found:
        options["quiet_zone"] = _uint("quiet-zone", found[b"quiet-zone"])
    return Query(text, options)


def check_ranges(options: dict[str, object]) -> tuple[str, int, int]:
    """The generator's range checks in the contract's words, for tiers with no qrglue library."""
    ec_level = str(options.get("ec_level", "low"))
    min_size = int(str(options.get("min_size", 200)))
    quiet_zone = int(str(options.get("quiet_zone", 4)))
    if not 1 <= min_size <= 4096:
        raise HttpError("invalid-options", f"min-size must be within 1..=4096, got {min_size}")
    if quiet_zone > 16:
        raise HttpError("invalid-options", f"quiet-zone must be within 0..=16, got {quiet_zone}")
    return ec_level, min_size, quiet_zone
