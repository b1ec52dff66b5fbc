"""What every path shares: the contract's constants and messages, the error
types, the matrix type and the input checks.

The constants restate the project's contract (defaults, bounds, EC-level
order, error kinds, fixed messages, raw-ABI codes) so this package stands
alone; `tests/test_contract.py` asserts they equal the contract file the
build generates, so they cannot drift.

`check_input` runs before any byte enters a guest. It checks only what
the WIT values cannot carry (docs/contract.md, "Which errors a host
raises"): a text that is neither a str nor bytes-like, a lone surrogate, a
text over the longest code (never copied into a guest), then each option's
type (an int within u32, a bool, an EC-level name, a CSS hex colour) in WIT
order. Everything else (empty text, the ranges, equal colours, the symbol
options' combinations, what an SVG title or class holds) is the guest's
alone: one validator, in guest/core.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple, NoReturn, cast

# The contract's names, defaults, bounds, raw flag bits and messages,
# generated from guest/core/src/contract.rs (`_options.py`, `just contract`):
# re-exported here, where the rest of the package reads them. The payload-less
# WIT cases' messages are fixed texts, the others templates filled in with the
# offending value as Python shows it. Some are the guest's alone (the bounds,
# equal colours, the symbol options' rules, what a title or class holds, an
# index past an enum's end, option bytes that are not UTF-8): this package
# never builds those; its tests compare them with what the guest says.
from ._options import CLASS_TEMPLATE as CLASS_TEMPLATE
from ._options import COLOR_TEMPLATE as COLOR_TEMPLATE
from ._options import DATA_TOO_LONG_MESSAGE as DATA_TOO_LONG_MESSAGE
from ._options import DEFAULT_BOOST_EC as DEFAULT_BOOST_EC
from ._options import DEFAULT_CLASS as DEFAULT_CLASS
from ._options import DEFAULT_DARK as DEFAULT_DARK
from ._options import DEFAULT_EC_LEVEL as DEFAULT_EC_LEVEL
from ._options import DEFAULT_ECI as DEFAULT_ECI
from ._options import DEFAULT_LIGHT as DEFAULT_LIGHT
from ._options import DEFAULT_MASK as DEFAULT_MASK
from ._options import DEFAULT_MICRO as DEFAULT_MICRO
from ._options import DEFAULT_MIN_SIZE as DEFAULT_MIN_SIZE
from ._options import DEFAULT_MIN_VERSION as DEFAULT_MIN_VERSION
from ._options import DEFAULT_QUIET_ZONE as DEFAULT_QUIET_ZONE
from ._options import DEFAULT_SCALE as DEFAULT_SCALE
from ._options import DEFAULT_TEXT_STYLE as DEFAULT_TEXT_STYLE
from ._options import DEFAULT_TITLE as DEFAULT_TITLE
from ._options import DEFAULT_VERSION as DEFAULT_VERSION
from ._options import DEFAULT_VIEW_BOX_ONLY as DEFAULT_VIEW_BOX_ONLY
from ._options import EC_LEVEL_INDEX_TEMPLATE as EC_LEVEL_INDEX_TEMPLATE
from ._options import EC_LEVEL_NAME_TEMPLATE as EC_LEVEL_NAME_TEMPLATE
from ._options import EC_LEVELS as EC_LEVELS
from ._options import EMPTY_TEXT_MESSAGE as EMPTY_TEXT_MESSAGE
from ._options import ERROR_CHECK_ORDER as ERROR_CHECK_ORDER
from ._options import ERROR_KINDS as ERROR_KINDS
from ._options import KEYWORDS as KEYWORDS
from ._options import LONE_SURROGATE_MESSAGE as LONE_SURROGATE_MESSAGE
from ._options import MASK_BOUNDS as MASK_BOUNDS
from ._options import MAX_PNG_REPEAT_TIMES as MAX_PNG_REPEAT_TIMES
from ._options import MAX_TEXT_BYTES as MAX_TEXT_BYTES
from ._options import MICRO_EC_LEVEL_MESSAGE as MICRO_EC_LEVEL_MESSAGE
from ._options import MICRO_ECI_MESSAGE as MICRO_ECI_MESSAGE
from ._options import MICRO_MASK_BOUNDS as MICRO_MASK_BOUNDS
from ._options import MICRO_VERSION_BOUNDS as MICRO_VERSION_BOUNDS
from ._options import MIN_SIZE_BOUNDS as MIN_SIZE_BOUNDS
from ._options import NOT_INTEGER_TEMPLATE as NOT_INTEGER_TEMPLATE
from ._options import NOT_XML_CHAR_TEMPLATE as NOT_XML_CHAR_TEMPLATE
from ._options import OPTION_LONE_SURROGATE_TEMPLATE as OPTION_LONE_SURROGATE_TEMPLATE
from ._options import OPTION_NOT_TEXT_TEMPLATE as OPTION_NOT_TEXT_TEMPLATE
from ._options import OPTIONS as OPTIONS
from ._options import OUT_OF_RANGE_TEMPLATE as OUT_OF_RANGE_TEMPLATE
from ._options import QUIET_ZONE_BOUNDS as QUIET_ZONE_BOUNDS
from ._options import RAW_SVG_FLAGS as RAW_SVG_FLAGS
from ._options import RAW_SYMBOL_FLAGS as RAW_SYMBOL_FLAGS
from ._options import SAME_COLORS_TEMPLATE as SAME_COLORS_TEMPLATE
from ._options import SCALE_BOUNDS as SCALE_BOUNDS
from ._options import SVG_CLASS_BYTES_BOUNDS as SVG_CLASS_BYTES_BOUNDS
from ._options import SVG_KEYWORDS as SVG_KEYWORDS
from ._options import SVG_TITLE_BYTES_BOUNDS as SVG_TITLE_BYTES_BOUNDS
from ._options import TEXT_KEYWORDS as TEXT_KEYWORDS
from ._options import TEXT_STYLE_INDEX_TEMPLATE as TEXT_STYLE_INDEX_TEMPLATE
from ._options import TEXT_STYLE_NAME_TEMPLATE as TEXT_STYLE_NAME_TEMPLATE
from ._options import TEXT_STYLES as TEXT_STYLES
from ._options import TOO_LONG_TEMPLATE as TOO_LONG_TEMPLATE
from ._options import VERSION_BOUNDS as VERSION_BOUNDS
from ._options import VERSION_CONFLICT_MESSAGE as VERSION_CONFLICT_MESSAGE
from ._options import EcLevel as EcLevel
from ._options import ErrorKind as ErrorKind
from ._options import OptionKeywords as OptionKeywords
from ._options import OptionSpec as OptionSpec
from ._options import SvgKeywords as SvgKeywords
from ._options import Symbol as Symbol
from ._options import TextKeywords as TextKeywords
from ._options import TextStyle as TextStyle
from ._options import option_values as option_values
from ._options import svg_values as svg_values

# The host's own type check of title and class (WIT option<string>); the
# native extension words it the same.
STRING_TEMPLATE = "{option} must be a string, got {value}"
# An unknown keyword, named with the public function it was given to and
# the keywords that function knows (the Node host words it the same).
UNKNOWN_OPTION_TEMPLATE = 'unknown option "{name}" for {function}() (known: {known})'
# The host's own check of micro, boost-ec and eci (WIT bools: the guest never sees
# anything else); the Node host words it the same.
BOOLEAN_TEMPLATE = "{option} must be a boolean, got {value}"
# The host's own type checks of the text (a TypeError, not a QrError: the
# WIT string or list<u8> cannot be anything else); the native extension words
# them the same (hosts/python/native/src/lib.rs).
PAYLOAD_TYPE_TEMPLATE = "text must be str or bytes-like (bytes, bytearray or memoryview), not {type}"
MEMORYVIEW_TEMPLATE = "a memoryview payload must be C-contiguous bytes (format 'B', 'b' or 'c'), not {found}"
# What the probes that take only a text (png_repeat) say for anything else.
TEXT_TYPE_TEMPLATE = "text must be str, not {type}"
# memoryview formats whose items are bytes.
BYTE_FORMATS = ("B", "b", "c")

FIXED_MESSAGES = {"empty-text": EMPTY_TEXT_MESSAGE, "data-too-long": DATA_TOO_LONG_MESSAGE}

# The raw ABI (guest/raw/ABI.md): version, result record size, status codes,
# and the bits of `symbol_flags` (a number without its flag is ignored).
RAW_ABI_VERSION = 7
RAW_RECORD_BYTES = 12  # {status: u32, payload_ptr: u32, payload_len: u32}
RAW_STATUS_OK = 0
RAW_STATUS_KINDS = {1: "empty-text", 2: "invalid-text", 3: "data-too-long", 4: "invalid-options"}

class QrError(ValueError):
    """No code was produced. `kind` is one of `ERROR_KINDS`; `message` (also
    `str(error)`) is the contract's text for it, the same on every path."""

    kind: ErrorKind
    """Why no code was made: one of `ERROR_KINDS`."""
    message: str
    """The contract's text for the error, the same on every path (also `str(error)`)."""

    def __init__(self, kind: str, message: str | None = None) -> None:
        if kind not in ERROR_KINDS:
            raise ValueError(f"unknown qr error kind {kind!r}")
        if message is None:
            message = FIXED_MESSAGES.get(kind)
            if message is None:
                raise ValueError(f"a {kind} error needs a message")
        self.kind = kind  # one of ERROR_KINDS (checked above): an ErrorKind
        self.message = message
        super().__init__(message)

    def __reduce__(self) -> tuple[type[QrError], tuple[str, str]]:
        # ValueError pickles its args (just the message); rebuild from both.
        return QrError, (self.kind, self.message)


@dataclass(frozen=True)
class QrMatrix:
    """The module matrix of a code, for drawing it yourself; the quiet zone is
    not included. `width` is the modules per side (21..=177, or 11..=17 for
    Micro QR); `modules` holds
    width*width bits, row-major, most significant bit first: module (x, y) is
    dark when bit i = y*width + x is set (WIT `qr-matrix`). `is_dark` and
    `rows` read it."""

    width: int
    """Modules per side: 21..=177, or 11..=17 for Micro QR."""
    modules: bytes
    """width*width bits, row-major, most significant bit first."""

    def __post_init__(self) -> None:
        # A matrix with missing or extra bytes would misdraw every module
        # after the gap: refuse it where it is made, whoever made it.
        if len(self.modules) != (self.width * self.width + 7) // 8:
            raise ValueError(f"a {self.width}x{self.width} matrix has {(self.width * self.width + 7) // 8} "
                             f"bytes of modules, not {len(self.modules)}")

    def is_dark(self, x: int, y: int) -> bool:
        """Whether the module at column `x`, row `y` (0-based) is dark."""
        if not (0 <= x < self.width and 0 <= y < self.width):
            raise IndexError(f"module ({x}, {y}) is outside a {self.width}x{self.width} matrix")
        i = y * self.width + x
        return bool(self.modules[i >> 3] >> (7 - (i & 7)) & 1)

    def rows(self) -> list[list[bool]]:
        """Every row, top to bottom, as a list of booleans (True is dark)."""
        return [[self.is_dark(x, y) for x in range(self.width)] for y in range(self.width)]


class GuestTrap(RuntimeError):
    """The guest trapped (a wasm `unreachable` or similar). The generator has
    retired the poisoned Store and instance: the next call runs on a fresh one."""


class Options(NamedTuple):
    """Checked options as every glue lowers them: `ec` is the index in
    `EC_LEVELS`, `scale` None or 1..=20, `dark` and `light` colours as the
    raw ABI's u32 0xRRGGBBAA (red in the high byte), `symbol` None when
    every symbol option is at its default (WIT `symbol: none`, the cheap
    lowering), else a `Symbol`."""

    ec: int
    min_size: int
    quiet_zone: int
    scale: int | None
    dark: int
    light: int
    symbol: Symbol | None = None


# What the generators take: a text, or a binary payload (bytes-like: `payload_length`).
class SvgOptions(NamedTuple):
    """Checked SVG options (WIT `svg-options`), not all at their defaults:
    `title` and `svg_class` None or exact strs that UTF-8 can encode (WIT's
    `title` and `class`; the guest checks their contents unless one is over
    its bound, see `check_svg`)."""

    view_box_only: bool = False
    title: str | None = None
    svg_class: str | None = None


Payload = str | bytes | bytearray | memoryview
# A checked text's or payload's bytes as the glues copy them into a guest:
# exact bytes, or a 1-D memoryview of unsigned bytes (`payload_data`).
Data = bytes | memoryview
# (text, data, options) from `check_input`: a text and its UTF-8, or None
# and a binary payload's bytes.
Checked = tuple[str, bytes, Options] | tuple[None, Data, Options]

# The core's Rgba::from_hex, exactly: '#' then 3, 4, 6 or 8 ASCII hex digits.
# (fullmatch: `$` would let a trailing newline through.)
_HEX_COLOR = re.compile(r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")


class GeneratorInUse(RuntimeError):
    """A `Generator` was entered while another thread was inside it. A wasm
    Store runs one call at a time; a second thread entering it could free a
    result twice (a crash, not an exception), so it is refused instead. Use
    one Generator per thread (the module functions do), or a lock."""


def check_input(text: object, ec_level: object, min_size: object, quiet_zone: object, scale: object = None,
                dark: object = DEFAULT_DARK, light: object = DEFAULT_LIGHT, micro: object = False,
                version: object = None, min_version: object = None, mask: object = None,
                boost_ec: object = False, eci: object = False) -> Checked:
    """Read the payload and check the options; returns (text, data, options):
    for a `str`, the exact str and its UTF-8 `bytes`; for a bytes-like
    payload, None and its bytes (`payload_data`: the glue routes it to the
    `*-bytes` generators). Every value is an exact `str`, `bytes`,
    `memoryview` or `int`.

    Raises the host's errors (docs/contract.md): TypeError for a text that
    is neither a str nor bytes-like (`payload_length`), `invalid-text` for a
    lone surrogate, `data-too-long` over `MAX_TEXT_BYTES`, then
    `invalid-options` for an option WIT cannot carry, in WIT order
    (`_check_options`). A payload cannot be `invalid-text`: its bytes are
    never decoded. Everything else is the guest's, in the contract's order
    (`ERROR_CHECK_ORDER`): an empty text, the bounds, equal colours and the
    symbol options' rules.

    A subclass of `str`, `bytes`, `bytearray` or `int` is read through the
    base type's own methods (`str.encode`, `bytes.__len__`, `int.__int__`),
    never its overrides: a subclass whose `encode`, `__len__`, `__eq__` or
    `__index__` lies gets exactly the result of the plain value, and the
    glue never copies by a length the object made up.
    """
    exact_text, utf8, payload = "", b"", None
    if isinstance(text, str):
        exact_text = str.__str__(text)  # an exact str: a copy for a subclass, else itself
        try:
            # 'strict': a lone surrogate is an error, never replaced. UTF-8 can
            # encode every code point but a surrogate, so that is the only cause.
            utf8 = exact_text.encode("utf-8")
        except UnicodeEncodeError:
            raise QrError("invalid-text", LONE_SURROGATE_MESSAGE) from None
        length = len(utf8)
    else:
        length = payload_length(text)  # TypeError for anything else
        payload = cast("bytes | bytearray | memoryview", text)  # its bytes are taken once every check has passed
    if length > MAX_TEXT_BYTES:
        raise QrError("data-too-long")
    # The common call names no option: each argument is then its default's
    # own object, and the options are DEFAULT_OPTIONS, already checked (the
    # glues recognise it by identity and lower nothing anew). An equal value
    # that is another object takes the checks below, with the same result.
    if (ec_level is DEFAULT_EC_LEVEL and min_size is DEFAULT_MIN_SIZE and quiet_zone is DEFAULT_QUIET_ZONE
            and scale is None and dark is DEFAULT_DARK and light is DEFAULT_LIGHT and micro is False
            and version is None and min_version is None and mask is None and boost_ec is False
            and eci is False):
        options = DEFAULT_OPTIONS
    else:
        options = _check_options(ec_level, min_size, quiet_zone, scale, dark, light, micro, version, min_version,
                                 mask, boost_ec, eci)
    if payload is None:
        return exact_text, utf8, options
    # (An empty payload is the empty bytes: an empty N-D view has no 1-D cast.)
    return None, payload_data(payload) if length else b"", options


def check_keywords(text: object, function: str, options: Mapping[str, object],
                   known: tuple[str, ...] = KEYWORDS) -> Checked:
    """`check_input` over a public function's keyword arguments
    (`**options`): an unknown keyword is `invalid-options` naming `function`
    and the keywords it knows, after the text's own checks (as for any
    option); the others are read with their defaults (`option_values`)."""
    if options and not all(name in known for name in options):
        unknown = next(name for name in options if name not in known)
        check_input(text, DEFAULT_EC_LEVEL, DEFAULT_MIN_SIZE, DEFAULT_QUIET_ZONE)  # the text's errors come first
        _refuse_options(UNKNOWN_OPTION_TEMPLATE.format(name=unknown, function=function, known=", ".join(known)))
    return check_input(text, *option_values(options))


def _check_options(ec_level: object, min_size: object, quiet_zone: object, scale: object, dark: object,
                   light: object, micro: object, version: object, min_version: object, mask: object,
                   boost_ec: object, eci: object = False) -> Options:
    """check_input's checks of the options, in WIT order: only what WIT
    values cannot carry. An int outside u32 is refused with the contract's
    bounds (Micro QR's with `micro=True`), as the guest words any int out of
    range; the bounds themselves are the guest's to check."""
    ec_level = exact_str(ec_level)
    if not isinstance(ec_level, str) or ec_level not in EC_LEVELS:
        _refuse_options(EC_LEVEL_NAME_TEMPLATE.format(value=_shown(ec_level)))
    on_micro = micro is True
    size = _u32(OPTIONS[1], min_size, on_micro)
    zone = _u32(OPTIONS[2], quiet_zone, on_micro)
    checked_scale = None if scale is None else _u32(OPTIONS[3], scale, on_micro)
    rgba_dark, rgba_light = _color("dark", dark), _color("light", light)
    ec = EC_LEVELS.index(ec_level)
    # Every symbol option at its default (the common call): `symbol: none`.
    if (micro is False and version is None and min_version is None and mask is None and boost_ec is False
            and eci is False):
        return Options(ec, size, zone, checked_scale, rgba_dark, rgba_light)
    _boolean("micro", micro)
    numbers = [None if value is None else _u32(spec, value, on_micro)
               for spec, value in zip(OPTIONS[7:10], (version, min_version, mask), strict=True)]
    _boolean("boost-ec", boost_ec)
    _boolean("eci", eci)
    symbol = Symbol(on_micro, numbers[0], numbers[1], numbers[2], boost_ec is True, eci is True)
    return Options(ec, size, zone, checked_scale, rgba_dark, rgba_light, symbol)


def payload_length(value: object) -> int:
    """The length in bytes of a binary payload: a `bytes`, `bytearray` or
    `memoryview` of bytes (format B, b or c, C-contiguous, any shape), as
    segno takes them; anything else is a TypeError naming them. A subclass's
    length is its base type's (`bytes.__len__`), never its own `__len__`."""
    if isinstance(value, bytes):
        return bytes.__len__(value)
    if isinstance(value, bytearray):
        return bytearray.__len__(value)
    if isinstance(value, memoryview):
        if value.format not in BYTE_FORMATS:
            raise TypeError(MEMORYVIEW_TEMPLATE.format(found=f"format {value.format!r}"))
        if not value.c_contiguous:
            raise TypeError(MEMORYVIEW_TEMPLATE.format(found="a non-contiguous view"))
        return value.nbytes
    raise TypeError(PAYLOAD_TYPE_TEMPLATE.format(type=type(value).__name__))


def payload_data(payload: bytes | bytearray | memoryview) -> Data:
    """A payload accepted by `payload_length`, as the glues copy it into a
    guest, with no copy of its own: an exact `bytes` is itself, anything else
    a new 1-D memoryview of unsigned bytes (`release_data` lets the caller's
    buffer go after the call: a live view keeps a bytearray from resizing).
    A subclass of `bytes` or `bytearray` is read through its base type's own
    methods (a plain copy), never its overrides."""
    if type(payload) is bytes:
        return payload
    if isinstance(payload, bytes):
        return bytes.__getitem__(payload, slice(None))
    if isinstance(payload, bytearray) and type(payload) is not bytearray:
        payload = bytearray.__getitem__(payload, slice(None))
    return memoryview(payload).cast("B")


def release_data(data: Data) -> None:
    """Let go of what `payload_data` made: a view is released (the caller's
    bytearray may resize again), bytes are left alone."""
    if type(data) is memoryview:
        data.release()


def parse_color(value: object) -> int | None:
    """A CSS hex colour (`#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, either case)
    as 0xRRGGBBAA, read exactly as the core's `Rgba::from_hex` reads it; None
    for anything else (a non-str included)."""
    value = exact_str(value)
    if not isinstance(value, str) or _HEX_COLOR.fullmatch(value) is None:
        return None
    digits = value[1:]
    if len(digits) <= 4:  # #rgb(a): each digit doubled
        digits = "".join(d + d for d in digits)
    if len(digits) == 6:
        digits += "ff"
    return int(digits, 16)


def format_color(rgba: int) -> str:
    """0xRRGGBBAA as the contract shows a colour: `#rrggbbaa`, lowercase."""
    return f"#{rgba:08x}"


def check_style(style: object) -> int:
    """The index of `text`'s style in `TEXT_STYLES`; run after `check_input`
    (a name WIT `text-style` has no case for is the host's to refuse, after
    the options' host checks)."""
    style = exact_str(style)
    if not isinstance(style, str) or style not in TEXT_STYLES:
        _refuse_options(TEXT_STYLE_NAME_TEMPLATE.format(value=_shown(style)))
    return TEXT_STYLES.index(style)


def check_svg(view_box_only: object, title: object, svg_class: object) -> SvgOptions | None:
    """The SVG options (WIT `svg-options`: `svg_class` is WIT's `class`),
    run after `check_input`; None when all three are at their defaults.

    The host checks, in WIT order, only what it cannot pass on:
    `view_box_only` a bool (`view-box-only must be a boolean, got 1`),
    `title` and `svg_class` None or a str (`title must be a string, got 5`)
    that UTF-8 can encode (a lone surrogate is refused, never replaced) and
    within its bound in UTF-8 bytes (a longer one is never copied into a
    guest: a 100 MB title would exhaust its memory; the guest words it the
    same). What the strings hold is the guest's to check
    (`SvgOptions::validate`). A str subclass is read as its exact str."""
    if view_box_only is False and title is None and svg_class is None:
        return None
    _boolean("view-box-only", view_box_only)
    strings: list[str | None] = []
    for option, value, (_, most) in (("title", title, SVG_TITLE_BYTES_BOUNDS),
                                     ("class", svg_class, SVG_CLASS_BYTES_BOUNDS)):
        value = exact_str(value)
        if value is not None:
            if not isinstance(value, str):
                _refuse_options(STRING_TEMPLATE.format(option=option, value=_shown(value)))
            try:
                length = len(value.encode("utf-8"))
            except UnicodeEncodeError:
                _refuse_options(OPTION_LONE_SURROGATE_TEMPLATE.format(option=option))
            if length > most:
                _refuse_options(TOO_LONG_TEMPLATE.format(option=option, max=most, value=length))
        strings.append(value)
    checked_title, checked_class = strings
    return SvgOptions(view_box_only is True, checked_title, checked_class)


def png_data_uri(png: bytes) -> str:
    """PNG bytes as a `data:` URI (segno's `png_data_uri`, node-qrcode's `toDataURL`)."""
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def svg_data_uri(svg: str) -> str:
    """An SVG document (as UTF-8) in a base64 `data:` URI, as the Node host writes it."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def exact_str(value: object) -> object:
    """`value` as an exact str when it is a str subclass, read with str's own
    method (its repr, which a message shows, cannot lie); else unchanged."""
    return str.__str__(value) if isinstance(value, str) else value


def exact_int(value: object) -> object:
    """`value` as an exact int when it is an int subclass (not bool: True as
    a size is a bug, not a 1), read with int's own method; else unchanged."""
    if isinstance(value, int) and not isinstance(value, bool) and type(value) is not int:
        return int.__int__(value)
    return value


def exact_arguments(text: str, ec_level: str, min_size: int, quiet_zone: int, scale: int | None, dark: str,
                    light: str, micro: bool, version: int | None, min_version: int | None, mask: int | None,
                    boost_ec: bool, eci: bool = False) -> tuple[str, str, int, int, int | None, str, str, bool,
                                                                int | None, int | None, int | None, bool, bool]:
    """The arguments with every str or int subclass replaced by the plain
    value, read with the base type's own methods (for the native path, whose
    checks run in Rust: its messages show a value's repr, which a subclass
    may override). Values of other types are passed on unchanged (typed as
    declared, as callers may pass anything), for Rust to refuse. (`micro` and
    `boost_ec` and `eci` must be bools, which cannot be subclassed.)"""
    return (cast(str, exact_str(text)), *exact_options(ec_level, min_size, quiet_zone, scale, dark, light, micro,
                                                      version, min_version, mask, boost_ec, eci))


def exact_options(ec_level: str, min_size: int, quiet_zone: int, scale: int | None, dark: str, light: str,
                  micro: bool, version: int | None, min_version: int | None, mask: int | None,
                  boost_ec: bool, eci: bool = False) -> tuple[str, int, int, int | None, str, str, bool, int | None,
                                                              int | None, int | None, bool, bool]:
    """`exact_arguments` without the text: the options alone (for a binary
    payload, which the extension reads through its base type itself)."""
    return (cast(str, exact_str(ec_level)), cast(int, exact_int(min_size)), cast(int, exact_int(quiet_zone)),
            cast("int | None", exact_int(scale)), cast(str, exact_str(dark)), cast(str, exact_str(light)), micro,
            cast("int | None", exact_int(version)), cast("int | None", exact_int(min_version)),
            cast("int | None", exact_int(mask)), boost_ec, eci)


def check_count(value: object) -> int:
    """A probe's count (`times`, `length`) as an exact int in u32: ValueError
    otherwise, never wrapped (wasm and the C API would take it modulo 2**32)."""
    value = exact_int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**32:
        raise ValueError(f"expected an int in 0..2**32, got {_shown(value)}")
    return value


def _u32(spec: OptionSpec, value: object, on_micro: bool) -> int:
    """A number option's value as an exact int within u32 (not a bool: True as
    a size is a bug, not a 1); else invalid-options: not an integer at all
    (2.5, "3", True), or an int outside u32, shown with the contract's bounds
    (the guest checks them) as the guest words any int out of range."""
    value = exact_int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= _U32_MAX:
        return value
    if not isinstance(value, int) or isinstance(value, bool):
        _refuse_options(NOT_INTEGER_TEMPLATE.format(option=spec.wit, value=_shown(value)))
    low, high = cast("tuple[int, int]", (on_micro and spec.micro_bounds) or spec.bounds)
    _refuse_options(OUT_OF_RANGE_TEMPLATE.format(option=spec.wit, min=low, max=high, value=_shown(value)))


_U32_MAX = 2**32 - 1


def _boolean(option: str, value: object) -> None:
    if value is not True and value is not False:
        _refuse_options(BOOLEAN_TEMPLATE.format(option=option, value=_shown(value)))


# Colours already read, by their exact str: every call passes its colours (the
# defaults, most often), and reading one (regex, doubling, int) costs about as
# much as the rest of check_input together (1.2 of 2.5 us, measured). Only
# good colours are kept, and at most _COLOR_CACHE_SIZE of them.
_COLOR_CACHE: dict[str, int] = {}
_COLOR_CACHE_SIZE = 256


def _color(option: str, value: object) -> int:
    if type(value) is str:
        known = _COLOR_CACHE.get(value)
        if known is not None:
            return known
    rgba = parse_color(value)
    if rgba is not None and type(value) is str and len(_COLOR_CACHE) < _COLOR_CACHE_SIZE:
        _COLOR_CACHE[value] = rgba
    if rgba is None:
        _refuse_options(COLOR_TEMPLATE.format(option=option, value=_shown(exact_str(value))))
    return rgba


def _refuse_options(message: str) -> NoReturn:
    raise QrError("invalid-options", message)


def _shown(value: object) -> str:
    """The value as Python shows it (`-1`, `True`, `2.5`, `'big'`)."""
    try:
        return repr(value)
    except Exception:
        return f"a {type(value).__name__}"


# Every option at its default: what check_input returns for a call that names
# none (see there), built by the same checks.
DEFAULT_OPTIONS = _check_options(DEFAULT_EC_LEVEL, DEFAULT_MIN_SIZE, DEFAULT_QUIET_ZONE, None, DEFAULT_DARK,
                                 DEFAULT_LIGHT, False, None, None, None, False)
