"""`qrglue` / `python -m qrglue`: QR codes from the command line, the Python
twin of the Rust CLI (hosts/rust/cli/src/main.rs) and the Node one
(hosts/node/cli.js): the same subcommands, flags and exit codes.

    qrglue png (TEXT | --data-file PATH) [-o FILE] [--path component|raw|native] [--ec-level L|M|Q|H]
                   [--min-size N] [--quiet-zone N] [--scale N] [--dark HEX] [--light HEX] [--micro]
                   [--symbol-version N] [--min-version N] [--mask N] [--boost-ec] [--eci]
    qrglue svg (TEXT | --data-file PATH) [same options] [--view-box-only] [--title TEXT] [--class NAMES]
    qrglue text (TEXT | --data-file PATH) [--style half-blocks|half-blocks-inverted|ascii] [same options]

`--data-file PATH` encodes the bytes of a file (`-`: standard input) as a
binary payload instead of TEXT: any bytes, not only UTF-8 (the *-bytes
generators); one of the two is required.

`text` draws the code with characters (half blocks by default; on a dark
terminal use --style half-blocks-inverted; it takes the colours and the scale
but does not use them). Colours are CSS hex strings (#rgb, #rgba, #rrggbb,
#rrggbbaa): the generator checks them, so a bad one exits 1 like a bad
--min-size. --micro, --symbol-version (not --version, which prints this
program's version), --min-version, --mask, --boost-ec and --eci are the symbol
options, checked by the generator too. `svg` alone takes the SVG options:
--view-box-only (no width and height: the document scales to its box),
--title TEXT (a <title>, the accessible name) and --class NAMES (the <svg>
element's class), checked by the generator after the others. Output goes to
FILE, or to standard output with `-o -` or no `-o`. A PNG is
never written to a terminal unless asked for with `-o -`.
Exit status: 0 written, 1 the generator refused the input (`qrglue: <kind>:
<message>`), 2 bad command line (argparse's own code), 3 the payload could
not be read, the output could not be written or the path could not run (e.g.
no native extension, a guest trap).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable

from ._common import (
    DEFAULT_DARK,
    DEFAULT_LIGHT,
    DEFAULT_MIN_SIZE,
    DEFAULT_QUIET_ZONE,
    DEFAULT_TEXT_STYLE,
    MAX_TEXT_BYTES,
    TEXT_STYLES,
    QrError,
)

EXIT_QR_ERROR = 1
EXIT_USAGE = 2
EXIT_FAILURE = 3

# --path -> the module whose png / svg / text run it; auto (the default) is
# qrglue.auto: the native extension where it is installed, else the component.
PATH_MODULES = {"auto": "qrglue.auto", "component": "qrglue", "raw": "qrglue.raw", "native": "qrglue.native"}
PATHS = tuple(PATH_MODULES)

# --ec-level values, case-insensitive, as the Rust CLI takes them: a letter or the WIT name.
EC_ARGS = {
    "l": "low", "m": "medium", "q": "quartile", "h": "high",
    "low": "low", "medium": "medium", "quartile": "quartile", "high": "high",
}


def _ec_level(value: str) -> str:
    try:
        return EC_ARGS[value.lower()]
    except KeyError:
        raise argparse.ArgumentTypeError(f"invalid value '{value}' [possible values: l, m, q, h]") from None


def _u32(value: str) -> int:
    # As the Rust CLI parses its u32 flags: the contract's own bounds are the
    # generator's to check (invalid-options, exit 1), not the parser's.
    if not value.lstrip("+").isdigit() or not value.isascii() or int(value) > 0xFFFF_FFFF:
        raise argparse.ArgumentTypeError(f"invalid value '{value}': not an integer within 0..=4294967295")
    return int(value)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="qrglue",
        description="QR codes as PNG, SVG or text, through wasm (component or raw ABI) or natively (PyO3)")
    from . import __version__

    parser.add_argument("-V", "--version", action="version", version=f"qrglue {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    summaries = {"png": "Write the code as a 1-bit grayscale PNG", "svg": "Write the code as an SVG document",
                 "text": "Write the code as text for a terminal or a file (half blocks by default; "
                         "on a dark terminal use --style half-blocks-inverted)"}
    for name, summary in summaries.items():
        command = commands.add_parser(name, help=summary, description=summary)
        # TEXT or --data-file, exactly one (argparse allows a `?` positional in such a group).
        given = command.add_mutually_exclusive_group(required=True)
        given.add_argument("text", metavar="TEXT", nargs="?", help="The text to encode (at most 7089 UTF-8 bytes)")
        given.add_argument("--data-file", metavar="PATH",
                           help="Read the payload's bytes from PATH (- for standard input) instead of TEXT")
        command.add_argument("-o", "--output", metavar="FILE", help="Where to write; `-` is standard output")
        command.add_argument("--path", choices=PATHS, default="auto",
                             help="Which implementation runs the generator (auto: native where installed, "
                                  "else component) [default: auto]")
        command.add_argument("--ec-level", type=_ec_level, default="low",
                             help="Error-correction level: L (~7 %%), M (~15 %%), Q (~25 %%), H (~30 %%) [default: l]")
        command.add_argument("--min-size", type=_u32, default=DEFAULT_MIN_SIZE,
                             help=f"Minimum image width in pixels (1..=4096) [default: {DEFAULT_MIN_SIZE}]")
        command.add_argument("--quiet-zone", type=_u32, default=DEFAULT_QUIET_ZONE,
                             help=f"Margin in modules (0..=16) [default: {DEFAULT_QUIET_ZONE}]")
        command.add_argument("--scale", type=_u32, metavar="SCALE",
                             help="Pixels per module (1..=20); sizes the image instead of --min-size")
        command.add_argument("--dark", default=DEFAULT_DARK, metavar="HEX",
                             help="Colour of the dark modules: #rgb, #rgba, #rrggbb or #rrggbbaa "
                                  f"[default: {DEFAULT_DARK}]")
        command.add_argument("--light", default=DEFAULT_LIGHT, metavar="HEX",
                             help="Colour of the light modules and the quiet zone (#ffffff00: transparent) "
                                  f"[default: {DEFAULT_LIGHT}]")
        command.add_argument("--micro", action="store_true", help="A Micro QR code (M1..M4) for a short text")
        command.add_argument("--symbol-version", type=_u32, metavar="N",
                             help="Exactly this QR version (1..=40, 1..=4 with --micro). Not --version, which "
                                  "prints this program's version")
        command.add_argument("--min-version", type=_u32, metavar="N",
                             help="At least this QR version (same bounds; not with --symbol-version)")
        command.add_argument("--mask", type=_u32, metavar="N",
                             help="This mask pattern (0..=7, 0..=3 with --micro) instead of the best")
        command.add_argument("--boost-ec", action="store_true",
                             help="Raise the EC level as far as the version still holds the text")
        command.add_argument("--eci", action="store_true",
                             help="Precede the data with ECI designator 26 (UTF-8), as segno's eci=True "
                                  "(not with --micro)")
        if name == "svg":
            command.add_argument("--view-box-only", action="store_true",
                                 help="Leave out width and height: only the viewBox stays, so the document scales "
                                      "to the box it is placed in")
            command.add_argument("--title", metavar="TEXT",
                                 help="A <title>: the code's accessible name (at most 1024 UTF-8 bytes of text "
                                      "XML can carry), escaped")
            command.add_argument("--class", dest="svg_class", metavar="NAMES",
                                 help="The <svg> element's class: CSS class names separated by single spaces")
        if name == "text":
            command.add_argument("--style", choices=TEXT_STYLES, default=DEFAULT_TEXT_STYLE,
                                 help="How to draw the modules: half blocks with ink on the dark modules, half "
                                      "blocks with ink on the light ones, or \"##\" per dark module "
                                      f"[default: {DEFAULT_TEXT_STYLE}]")
    return parser


def _renderer(path: str, command: str) -> Callable[..., bytes | str]:
    """The path's png, svg or text function, imported on demand (native needs the extension)."""
    render: Callable[..., bytes | str] = getattr(importlib.import_module(PATH_MODULES[path]), command)
    return render


def _read_payload(path: str) -> bytes:
    """The payload's bytes from `path` (`-`: standard input), as the Rust CLI
    reads them: at most one byte past the longest payload, enough for the
    generator to refuse a longer one (data-too-long) without reading it all."""
    if path == "-":
        return sys.stdin.buffer.read(MAX_TEXT_BYTES + 1)
    with open(path, "rb") as f:
        return f.read(MAX_TEXT_BYTES + 1)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)  # a bad command line exits 2 here
    is_png = args.command == "png"
    if is_png and args.output is None and sys.stdout.isatty():
        # Binary on a terminal garbles it; `-o -` says the caller means it.
        print("qrglue: refusing to write a PNG to a terminal; use -o FILE, or -o - to force it", file=sys.stderr)
        return EXIT_USAGE
    options = {"ec_level": args.ec_level, "min_size": args.min_size, "quiet_zone": args.quiet_zone,
               "scale": args.scale, "dark": args.dark, "light": args.light, "micro": args.micro,
               "version": args.symbol_version, "min_version": args.min_version, "mask": args.mask,
               "boost_ec": args.boost_ec, "eci": args.eci}
    if args.command == "text":
        options["style"] = args.style
    if args.command == "svg":
        options.update(view_box_only=args.view_box_only, title=args.title, svg_class=args.svg_class)
    given: str | bytes = args.text
    if args.data_file is not None:
        try:
            given = _read_payload(args.data_file)
        except OSError as e:
            source = "standard input" if args.data_file == "-" else args.data_file
            print(f"qrglue: cannot read the payload from {source}: {e.strerror or e}", file=sys.stderr)
            return EXIT_FAILURE
    try:
        rendered = _renderer(args.path, args.command)(given, **options)
        out = rendered.encode("utf-8") if isinstance(rendered, str) else rendered
    except QrError as e:
        print(f"qrglue: {e.kind}: {e}", file=sys.stderr)
        return EXIT_QR_ERROR
    except Exception as e:  # no native extension, a guest trap: the path could not run
        print(f"qrglue: {e}", file=sys.stderr)
        return EXIT_FAILURE
    try:
        if args.output is None or args.output == "-":
            sys.stdout.buffer.write(out)
            sys.stdout.buffer.flush()
        else:
            with open(args.output, "wb") as f:
                f.write(out)
    except OSError as e:
        print(f"qrglue: cannot write {args.output or 'standard output'}: {e.strerror or e}", file=sys.stderr)
        return EXIT_FAILURE
    return 0


if __name__ == "__main__":
    sys.exit(main())
