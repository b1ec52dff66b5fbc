# generated; do not edit.
# tools/contract writes it from guest/core/src/contract.rs (`just contract`); `just lint` checks it.
"""The CLI's option flags (`__main__` reads them), one per option of the contract's table, in its
order: the flag, the keyword, the type, the metavar (None: a flag that takes none), the one
subcommand that takes it (None: every one) and the help line (argparse's: `%` doubled), the
default and the possible values appended as clap appends them to the Rust CLI's."""

from __future__ import annotations

from typing import NamedTuple


class CliFlag(NamedTuple):
    flag: str
    keyword: str
    type: str
    metavar: str | None
    command: str | None
    help: str


CLI_FLAGS = (
    CliFlag("ec-level", "ec_level", "ec-level", "EC_LEVEL", None,
            "Error-correction level: about 7, 15, 25 or 30 %% of codewords recoverable [default: low] "
            "[possible values: low, medium, quartile, high]"),
    CliFlag("min-size", "min_size", "u32", "MIN_SIZE", None,
            "Minimum image width and height in pixels (1..=4096) [default: 200]"),
    CliFlag("quiet-zone", "quiet_zone", "u32", "QUIET_ZONE", None,
            "Light margin around the code, in modules (the standard asks for 4) (0..=16) [default: 4]"),
    CliFlag("scale", "scale", "option-u32", "SCALE", None,
            "Pixels per module; when given it sizes the image (min-size is checked but unused) (1..=20)"),
    CliFlag("dark", "dark", "rgba", "HEX", None,
            "The dark modules' colour as CSS hex: #rgb, #rgba, #rrggbb or #rrggbbaa [default: "
            "#000000ff]"),
    CliFlag("light", "light", "rgba", "HEX", None,
            "The light modules' and the quiet zone's colour, as dark; must differ from dark [default: "
            "#ffffffff]"),
    CliFlag("micro", "micro", "bool", None, None,
            "A Micro QR code (M1 to M4) for a short text; it has no level high and no ECI"),
    CliFlag("symbol-version", "version", "option-u32", "N", None,
            "Exactly this version; a text it cannot hold is data-too-long. Not with min-version "
            "(1..=40, 1..=4 with micro)"),
    CliFlag("min-version", "min_version", "option-u32", "N", None,
            "At least this version: the smallest from it up that holds the text (1..=40, 1..=4 with "
            "micro)"),
    CliFlag("mask", "mask", "option-u32", "N", None,
            "This mask pattern instead of the one with the lowest penalty score (0..=7, 0..=3 with "
            "micro)"),
    CliFlag("boost-ec", "boost_ec", "bool", None, None,
            "Raise the EC level as far as the chosen version still holds the text"),
    CliFlag("eci", "eci", "bool", None, None,
            "Precede the data with ECI designator 26 (UTF-8); not with micro"),
    CliFlag("view-box-only", "view_box_only", "bool", None, "svg",
            "SVG only: leave out width and height, so the document scales to its box"),
    CliFlag("title", "title", "option-string", "TEXT", "svg",
            "SVG only: a <title> (the code's accessible name), in UTF-8 bytes of text XML 1.0 can carry "
            "(at most 1024)"),
    CliFlag("class", "svg_class", "option-string", "NAMES", "svg",
            "SVG only: the <svg> element's class, CSS class names separated by single spaces, in bytes "
            "(at most 256)"),
    CliFlag("style", "style", "text-style", "STYLE", "text",
            "text only: half blocks (ink on the dark modules, or on the light ones), or ## per dark "
            "module [default: half-blocks] [possible values: half-blocks, half-blocks-inverted, ascii]"),
)
