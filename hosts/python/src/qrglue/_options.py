# generated; do not edit.
# tools/contract writes it from guest/core/src/contract.rs (`just contract`); `just lint` checks it.
"""The Python host's option layer: every option's keyword, WIT name, default and bounds,
the `Literal` types of the enums and error kinds, and the raw ABI's flag bits."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NamedTuple, TypedDict, cast

EcLevel = Literal["low", "medium", "quartile", "high"]
"""The error-correction levels (WIT `ec-level`): about 7, 15, 25 or 30 % of codewords recoverable."""
TextStyle = Literal["half-blocks", "half-blocks-inverted", "ascii"]
"""How `text` draws the modules (WIT `text-style`)."""
ErrorKind = Literal["empty-text", "invalid-text", "data-too-long", "invalid-options"]
"""`QrError.kind`: why no code was made (WIT `qr-error`)."""

# WIT enum `ec-level` and `text-style` in declaration order; the raw ABI passes the index.
EC_LEVELS: tuple[EcLevel, ...] = ("low", "medium", "quartile", "high")
"""Every `EcLevel`, in WIT order."""
TEXT_STYLES: tuple[TextStyle, ...] = ("half-blocks", "half-blocks-inverted", "ascii")
"""Every `TextStyle`, in WIT order."""
# WIT `qr-error` cases in declaration order, and the order the contract checks them in.
ERROR_KINDS: tuple[ErrorKind, ...] = ("empty-text", "invalid-text", "data-too-long", "invalid-options")
"""Every `ErrorKind`, in WIT order."""
ERROR_CHECK_ORDER: tuple[ErrorKind, ...] = ("invalid-text", "empty-text", "data-too-long", "invalid-options")

MAX_TEXT_BYTES = 7089
"""No QR code holds more bytes (numeric, version 40-L): a longer input is data-too-long."""
MAX_PNG_REPEAT_TIMES = 50

# The contract's messages and templates (str.format placeholders), by the contract file's
# names: `{name}_MESSAGE` for a fixed text, `{name}_TEMPLATE` for one to fill in.
CLASS_TEMPLATE = (
    "class must be CSS class names (ASCII letters, digits, - and _) separated by single spaces, "
    "at most 256 bytes, got {value}"
)
COLOR_TEMPLATE = "{option} must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got {value}"
DATA_TOO_LONG_MESSAGE = "text does not fit in any QR code: it is over 7089 bytes, the most one holds"
EC_LEVEL_INDEX_TEMPLATE = "ec-level must be 0..=3 (low, medium, quartile, high), got {value}"
EC_LEVEL_NAME_TEMPLATE = "ec-level must be one of low, medium, quartile, high, got {value}"
EMPTY_TEXT_MESSAGE = "text is empty"
LONE_SURROGATE_MESSAGE = "text contains a lone surrogate (not encodable as UTF-8)"
MICRO_EC_LEVEL_MESSAGE = "ec-level high is not available in Micro QR (M4 goes up to quartile)"
MICRO_ECI_MESSAGE = "eci is not available in Micro QR (it has no ECI mode)"
NOT_INTEGER_TEMPLATE = "{option} must be an integer, got {value}"
NOT_UTF8_TEMPLATE = "text is not valid UTF-8 from byte {index}"
NOT_XML_CHAR_TEMPLATE = "{option} holds {char} at byte {index}, which XML 1.0 cannot carry"
OPTION_LONE_SURROGATE_TEMPLATE = "{option} contains a lone surrogate (not encodable as UTF-8)"
OPTION_NOT_TEXT_TEMPLATE = "{option} is not valid UTF-8 from byte {index}"
OUT_OF_RANGE_TEMPLATE = "{option} must be within {min}..={max}, got {value}"
SAME_COLORS_TEMPLATE = "dark and light must be different colours, both are {value}"
TEXT_STYLE_INDEX_TEMPLATE = "text-style must be 0..=2 (half-blocks, half-blocks-inverted, ascii), got {value}"
TEXT_STYLE_NAME_TEMPLATE = "text-style must be one of half-blocks, half-blocks-inverted, ascii, got {value}"
TOO_LONG_TEMPLATE = "{option} must be at most {max} UTF-8 bytes, got {value}"
VERSION_CONFLICT_MESSAGE = "version and min-version exclude each other: give one"

# Each option's default (WIT has none; None is WIT's none).
DEFAULT_EC_LEVEL: EcLevel = "low"
"""The default of the `ec_level` keyword (WIT `ec-level`)."""
DEFAULT_MIN_SIZE: int = 200
"""The default of the `min_size` keyword (WIT `min-size`)."""
DEFAULT_QUIET_ZONE: int = 4
"""The default of the `quiet_zone` keyword (WIT `quiet-zone`)."""
DEFAULT_SCALE: int | None = None
"""The default of the `scale` keyword (WIT `scale`)."""
DEFAULT_DARK: str = "#000000ff"
"""The default of the `dark` keyword (WIT `dark`)."""
DEFAULT_LIGHT: str = "#ffffffff"
"""The default of the `light` keyword (WIT `light`)."""
DEFAULT_MICRO: bool = False
"""The default of the `micro` keyword (WIT `micro`)."""
DEFAULT_VERSION: int | None = None
"""The default of the `version` keyword (WIT `version`)."""
DEFAULT_MIN_VERSION: int | None = None
"""The default of the `min_version` keyword (WIT `min-version`)."""
DEFAULT_MASK: int | None = None
"""The default of the `mask` keyword (WIT `mask`)."""
DEFAULT_BOOST_EC: bool = False
"""The default of the `boost_ec` keyword (WIT `boost-ec`)."""
DEFAULT_ECI: bool = False
"""The default of the `eci` keyword (WIT `eci`)."""
DEFAULT_VIEW_BOX_ONLY: bool = False
"""The default of the `view_box_only` keyword (WIT `view-box-only`)."""
DEFAULT_TITLE: str | None = None
"""The default of the `title` keyword (WIT `title`)."""
DEFAULT_CLASS: str | None = None
"""The default of the `svg_class` keyword (WIT `class`)."""
DEFAULT_TEXT_STYLE: TextStyle = "half-blocks"
"""The default of the `style` keyword (WIT `text-style`)."""
# What `qrglue` re-exports from here (`from ._options import *`): the defaults, so that a
# new option's default reaches the package without a hand-written line.
__all__ = [
    "DEFAULT_BOOST_EC",
    "DEFAULT_CLASS",
    "DEFAULT_DARK",
    "DEFAULT_ECI",
    "DEFAULT_EC_LEVEL",
    "DEFAULT_LIGHT",
    "DEFAULT_MASK",
    "DEFAULT_MICRO",
    "DEFAULT_MIN_SIZE",
    "DEFAULT_MIN_VERSION",
    "DEFAULT_QUIET_ZONE",
    "DEFAULT_SCALE",
    "DEFAULT_TEXT_STYLE",
    "DEFAULT_TITLE",
    "DEFAULT_VERSION",
    "DEFAULT_VIEW_BOX_ONLY",
]

# Inclusive bounds, by WIT name (the SVG strings' in UTF-8 bytes): the guest checks them.
MIN_SIZE_BOUNDS = (1, 4096)
QUIET_ZONE_BOUNDS = (0, 16)
SCALE_BOUNDS = (1, 20)
VERSION_BOUNDS = (1, 40)
MICRO_VERSION_BOUNDS = (1, 4)
MIN_VERSION_BOUNDS = (1, 40)
MICRO_MIN_VERSION_BOUNDS = (1, 4)
MASK_BOUNDS = (0, 7)
MICRO_MASK_BOUNDS = (0, 3)
SVG_TITLE_BYTES_BOUNDS = (0, 1024)
SVG_CLASS_BYTES_BOUNDS = (1, 256)

# option_values's tuple: the options' types in check order.
OptionValues = tuple[str, int, int, int | None, str, str, bool, int | None, int | None, int | None, bool, bool]


class OptionSpec(NamedTuple):
    """One option: its keyword, WIT name (the messages'), type, bounds and Micro QR's."""

    keyword: str
    wit: str
    type: str
    bounds: tuple[int, int] | None
    micro_bounds: tuple[int, int] | None


# The options every generator takes (WIT `options`, then `symbol-options`), in check order.
OPTIONS = (
    OptionSpec("ec_level", "ec-level", "ec-level", None, None),
    OptionSpec("min_size", "min-size", "u32", (1, 4096), None),
    OptionSpec("quiet_zone", "quiet-zone", "u32", (0, 16), None),
    OptionSpec("scale", "scale", "option-u32", (1, 20), None),
    OptionSpec("dark", "dark", "rgba", None, None),
    OptionSpec("light", "light", "rgba", None, None),
    OptionSpec("micro", "micro", "bool", None, None),
    OptionSpec("version", "version", "option-u32", (1, 40), (1, 4)),
    OptionSpec("min_version", "min-version", "option-u32", (1, 40), (1, 4)),
    OptionSpec("mask", "mask", "option-u32", (0, 7), (0, 3)),
    OptionSpec("boost_ec", "boost-ec", "bool", None, None),
    OptionSpec("eci", "eci", "bool", None, None),
)
# svg's own options (WIT `svg-options`) and text's own `style`, checked after the others.
SVG_OPTIONS = (
    OptionSpec("view_box_only", "view-box-only", "bool", None, None),
    OptionSpec("title", "title", "option-string", (0, 1024), None),
    OptionSpec("svg_class", "class", "option-string", (1, 256), None),
)
TEXT_OPTIONS = (
    OptionSpec("style", "text-style", "text-style", None, None),
)

# The raw ABI's `symbol_flags` and `svg_flags` bits (guest/raw/ABI.md).
RAW_SYMBOL_FLAGS = {"micro": 1, "boost-ec": 2, "has-version": 4, "has-min-version": 8, "has-mask": 16, "eci": 32}
RAW_SVG_FLAGS = {"view-box-only": 1, "has-title": 2, "has-class": 4}


class Symbol(NamedTuple):
    """Checked symbol options (WIT `symbol-options`), not all at their defaults: the bools
    exact bools, the numbers None or ints within u32 (the guest checks their bounds)."""

    micro: bool = False
    version: int | None = None
    min_version: int | None = None
    mask: int | None = None
    boost_ec: bool = False
    eci: bool = False


def symbol_flags(symbol: Symbol) -> int:
    """`symbol`'s raw `symbol_flags` word (RAW_SYMBOL_FLAGS)."""
    return ((1 if symbol.micro else 0)
            | (0 if symbol.version is None else 4)
            | (0 if symbol.min_version is None else 8)
            | (0 if symbol.mask is None else 16)
            | (2 if symbol.boost_ec else 0)
            | (32 if symbol.eci else 0))


def symbol_fields(symbol: Symbol) -> dict[str, object]:
    """`symbol`'s fields by their WIT names (the component's `symbol-options` record)."""
    return {"micro": symbol.micro,
            "version": symbol.version,
            "min-version": symbol.min_version,
            "mask": symbol.mask,
            "boost-ec": symbol.boost_ec,
            "eci": symbol.eci}


class OptionKeywords(TypedDict, total=False):
    """The keywords png, matrix and the data URIs take, each optional."""

    ec_level: EcLevel
    """Error-correction level: about 7, 15, 25 or 30 % of codewords recoverable. Default 'low'."""
    min_size: int
    """Minimum image width and height in pixels. 1..=4096. Default 200."""
    quiet_zone: int
    """Light margin around the code, in modules (the standard asks for 4). 0..=16. Default 4."""
    scale: int | None
    """Pixels per module; when given it sizes the image (min-size is checked but unused). 1..=20. Default
    none."""
    dark: str
    """The dark modules' colour as CSS hex: #rgb, #rgba, #rrggbb or #rrggbbaa. Default '#000000ff'."""
    light: str
    """The light modules' and the quiet zone's colour, as dark; must differ from dark. Default '#ffffffff'."""
    micro: bool
    """A Micro QR code (M1 to M4) for a short text; it has no level high and no ECI. Default false."""
    version: int | None
    """Exactly this version; a text it cannot hold is data-too-long. Not with min-version. 1..=40 (1..=4
    with micro). Default none."""
    min_version: int | None
    """At least this version: the smallest from it up that holds the text. 1..=40 (1..=4 with micro).
    Default none."""
    mask: int | None
    """This mask pattern instead of the one with the lowest penalty score. 0..=7 (0..=3 with micro).
    Default none."""
    boost_ec: bool
    """Raise the EC level as far as the chosen version still holds the text. Default false."""
    eci: bool
    """Precede the data with ECI designator 26 (UTF-8); not with micro. Default false."""


class SvgKeywords(OptionKeywords, total=False):
    """svg's keywords: the others and the SVG options."""

    view_box_only: bool
    """SVG only: leave out width and height, so the document scales to its box. Default false."""
    title: str | None
    """SVG only: a <title> (the code's accessible name), in UTF-8 bytes of text XML 1.0 can carry. Default
    none."""
    svg_class: str | None
    """SVG only: the <svg> element's class, CSS class names separated by single spaces, in bytes. Default
    none."""


class TextKeywords(OptionKeywords, total=False):
    """text's keywords: the others and the style."""

    style: TextStyle
    """text only: half blocks (ink on the dark modules, or on the light ones), or ## per dark module.
    Default 'half-blocks'."""


# Each function's keywords, in check order: anything else is an unknown option.
KEYWORDS = (
    "ec_level",
    "min_size",
    "quiet_zone",
    "scale",
    "dark",
    "light",
    "micro",
    "version",
    "min_version",
    "mask",
    "boost_ec",
    "eci",
)
"""The keywords of png, matrix and the data URIs, in check order."""
SVG_KEYWORDS = (
    *KEYWORDS,
    "view_box_only",
    "title",
    "svg_class",
)
"""svg's keywords, in check order."""
TEXT_KEYWORDS = (
    *KEYWORDS,
    "style",
)
"""text's keywords, in check order."""


def option_values(options: Mapping[str, object]) -> OptionValues:
    """The values of `KEYWORDS` in check order, a missing one its default's own object
    (the checks recognise the defaults by identity). Not checked: callers check them."""
    get = options.get
    return cast("OptionValues", (
        get("ec_level", DEFAULT_EC_LEVEL),
        get("min_size", DEFAULT_MIN_SIZE),
        get("quiet_zone", DEFAULT_QUIET_ZONE),
        get("scale", None),
        get("dark", DEFAULT_DARK),
        get("light", DEFAULT_LIGHT),
        get("micro", DEFAULT_MICRO),
        get("version", None),
        get("min_version", None),
        get("mask", None),
        get("boost_ec", DEFAULT_BOOST_EC),
        get("eci", DEFAULT_ECI),
    ))


def svg_values(options: Mapping[str, object]) -> tuple[object, object, object]:
    """svg's own keywords (bool, str | None, str | None) in check order, as `option_values`."""
    get = options.get
    return (
        get("view_box_only", DEFAULT_VIEW_BOX_ONLY),
        get("title", None),
        get("svg_class", None),
    )
