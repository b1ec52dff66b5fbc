"""The query of GET /qrcode, checked as tests/http/README.md orders it.

bad-query (syntax, names, repeats, missing text), invalid-text, empty-text,
text-too-long, then invalid-options for values that are not of their
option's form, in WIT field order (NAMES after text): an ec-level name, a
decimal u32, a CSS hex colour, true or false. Ranges are the generator's to
refuse (check_ranges restates them for the tiers without one). The same
rules as guest/http-query and hosts/node/server/contract.mjs (all three
run tests/http/query_cases.json in their unit tests).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

MAX_TEXT_BYTES = 512
REFERENCE_TEXT = "https://www.reddit.com/r/rustjerk/top/?t=all"
EC_LEVELS = ("low", "medium", "quartile", "high")
# The contract's fixed messages (guest/core/src/contract.rs), for the tiers
# with no qrglue library to ask (segno, static).
EMPTY_TEXT_MESSAGE = "text is empty"
LONE_SURROGATE_MESSAGE = "text contains a lone surrogate (not encodable as UTF-8)"
NOT_UTF8_TEMPLATE = "text is not valid UTF-8 from byte {index}"
OUT_OF_RANGE_TEMPLATE = "{option} must be within {min}..={max}, got {value}"
SAME_COLORS_TEMPLATE = "dark and light must be different colours, both are {value}"
VERSION_CONFLICT_MESSAGE = "version and min-version exclude each other: give one"
MICRO_EC_LEVEL_MESSAGE = "ec-level high is not available in Micro QR (M4 goes up to quartile)"
MICRO_ECI_MESSAGE = "eci is not available in Micro QR (it has no ECI mode)"
DATA_TOO_LONG_MESSAGE = "text does not fit in a QR code at this error-correction level"
# The query's names: the WIT names, in WIT field order.
NAMES = (b"text", b"ec-level", b"min-size", b"quiet-zone", b"scale", b"dark", b"light", b"micro", b"version",
         b"min-version", b"mask", b"boost-ec", b"eci")
UNKNOWN_NAME_MESSAGE = f"unknown query parameter (known: {', '.join(name.decode() for name in NAMES)})"
_HEX = b"0123456789abcdefABCDEF"
_DIGITS = re.compile(rb"[0-9]{1,10}\Z")
_COLOR = re.compile(rb"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})\Z")


# Request targets and methods (tests/http/README.md), the same rules as
# guest/http-query's method_class. httptools already drops a fragment and
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
    def __init__(self, kind: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status


@dataclass
class Query:
    text: str
    # Python API names (ec_level, min_size, quiet_zone, scale, dark, light, micro,
    # version, min_version, mask, boost_ec, eci; colours as '#rrggbbaa'), only the ones given.
    options: dict[str, object] = field(default_factory=dict)


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


def _color(name: str, value: bytes) -> str:
    """A CSS hex colour as the hosts take it (#rgb, #rgba, #rrggbb, #rrggbbaa,
    either case) -> '#rrggbbaa', lowercase. The message never shows the value."""
    if not _COLOR.match(value):
        raise HttpError("invalid-options",
                        f"{name} must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa (%23 in a URL)")
    digits = value[1:].decode("ascii").lower()
    if len(digits) <= 4:
        digits = "".join(digit * 2 for digit in digits)
    return "#" + (digits + "ff" if len(digits) == 6 else digits)


def _bool(name: str, value: bytes) -> bool:
    if value not in (b"true", b"false"):
        raise HttpError("invalid-options", f"{name} must be true or false")
    return value == b"true"


# (query name, Python API name, form) after ec-level, in WIT field order.
_OPTIONS: tuple[tuple[bytes, str, Callable[[str, bytes], object]], ...] = (
    (b"min-size", "min_size", _uint), (b"quiet-zone", "quiet_zone", _uint), (b"scale", "scale", _uint),
    (b"dark", "dark", _color), (b"light", "light", _color), (b"micro", "micro", _bool), (b"version", "version", _uint),
    (b"min-version", "min_version", _uint), (b"mask", "mask", _uint), (b"boost-ec", "boost_ec", _bool),
    (b"eci", "eci", _bool),
)


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
            raise HttpError("bad-query", UNKNOWN_NAME_MESSAGE)
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
    # The other options' forms, in WIT field order.
    for name, key, read in _OPTIONS:
        if name in found:
            options[key] = read(name.decode(), found[name])
    return Query(text, options)


@dataclass
class Ranged:
    """What check_ranges passed, every option at its value or its default."""
    ec_level: str = "low"
    min_size: int = 200
    quiet_zone: int = 4
    scale: int | None = None
    dark: str = "#000000ff"
    light: str = "#ffffffff"
    micro: bool = False
    version: int | None = None
    min_version: int | None = None
    mask: int | None = None
    boost_ec: bool = False
    eci: bool = False


def _out_of_range(option: str, low: int, high: int, value: int) -> HttpError:
    return HttpError("invalid-options", OUT_OF_RANGE_TEMPLATE.format(option=option, min=low, max=high, value=value))


def check_ranges(options: dict[str, object]) -> Ranged:
    """The generator's own option checks (qrglue-core's Options::validate) in
    its order and words, for tiers with no qrglue library (static, segno):
    min-size, quiet-zone, scale, equal colours, then the symbol: version,
    min-version (1..=40, 1..=4 with micro), both given, mask (0..=7, 0..=3),
    Micro QR at level high, Micro QR with eci. `options` as check_query returns them."""
    r = Ranged(**options)  # type: ignore[arg-type]
    if not 1 <= r.min_size <= 4096:
        raise _out_of_range("min-size", 1, 4096, r.min_size)
    if r.quiet_zone > 16:
        raise _out_of_range("quiet-zone", 0, 16, r.quiet_zone)
    if r.scale is not None and not 1 <= r.scale <= 20:
        raise _out_of_range("scale", 1, 20, r.scale)
    if r.dark == r.light:
        raise HttpError("invalid-options", SAME_COLORS_TEMPLATE.format(value=r.dark))
    max_version, max_mask = (4, 3) if r.micro else (40, 7)
    for option, value in (("version", r.version), ("min-version", r.min_version)):
        if value is not None and not 1 <= value <= max_version:
            raise _out_of_range(option, 1, max_version, value)
    if r.version is not None and r.min_version is not None:
        raise HttpError("invalid-options", VERSION_CONFLICT_MESSAGE)
    if r.mask is not None and r.mask > max_mask:
        raise _out_of_range("mask", 0, max_mask, r.mask)
    if r.micro and r.ec_level == "high":
        raise HttpError("invalid-options", MICRO_EC_LEVEL_MESSAGE)
    if r.micro and r.eci:
        raise HttpError("invalid-options", MICRO_ECI_MESSAGE)
    return r
