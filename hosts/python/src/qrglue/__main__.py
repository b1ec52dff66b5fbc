"""`qrglue` / `python -m qrglue`: QR codes from the command line, the Python
twin of the Rust CLI (hosts/rust/cli/src/main.rs) and the Node one
(hosts/node/cli.js): the same subcommands, flags and exit codes.

    qrglue png TEXT [-o FILE] [--path component|raw|native] [--ec-level L|M|Q|H] [--min-size N] [--quiet-zone N]
    qrglue svg TEXT [same options]

Output goes to FILE, or to standard output with `-o -` or no `-o`. A PNG is
never written to a terminal unless asked for with `-o -`.
Exit status: 0 written, 1 the generator refused the input (`qrglue: <kind>:
<message>`), 2 bad command line (argparse's own code), 3 the output could not
be written or the path could not run (e.g. no native extension, a guest trap).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from ._common import DEFAULT_MIN_SIZE, DEFAULT_QUIET_ZONE, QrError

EXIT_QR_ERROR = 1
EXIT_USAGE = 2
EXIT_FAILURE = 3

PATHS = ("component", "raw", "native")

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
        prog="qrglue", description="QR codes as PNG or SVG, through wasm (component or raw ABI) or natively (PyO3)")
    from . import __version__

    parser.add_argument("-V", "--version", action="version", version=f"qrglue {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    summaries = {"png": "Write the code as a 1-bit grayscale PNG", "svg": "Write the code as an SVG document"}
    for name, summary in summaries.items():
        command = commands.add_parser(name, help=summary, description=summary)
        command.add_argument("text", metavar="TEXT", help="The text to encode (at most 7089 UTF-8 bytes)")
        command.add_argument("-o", "--output", metavar="FILE", help="Where to write; `-` is standard output")
        command.add_argument("--path", choices=PATHS, default="component",
                             help="Which implementation runs the generator [default: component]")
        command.add_argument("--ec-level", type=_ec_level, default="low",
                             help="Error-correction level: L (~7 %%), M (~15 %%), Q (~25 %%), H (~30 %%) [default: l]")
        command.add_argument("--min-size", type=_u32, default=DEFAULT_MIN_SIZE,
                             help=f"Minimum image width in pixels (1..=4096) [default: {DEFAULT_MIN_SIZE}]")
        command.add_argument("--quiet-zone", type=_u32, default=DEFAULT_QUIET_ZONE,
                             help=f"Margin in modules (0..=16) [default: {DEFAULT_QUIET_ZONE}]")
    return parser


def _renderers(path: str) -> tuple[Callable[..., bytes], Callable[..., str]]:
    """The path's png and svg, imported on demand (native needs the extension)."""
    if path == "raw":
        from . import raw

        return raw.png, raw.svg
    if path == "native":
        from . import native

        return native.png, native.svg
    from . import png, svg

    return png, svg


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)  # a bad command line exits 2 here
    is_png = args.command == "png"
    if is_png and args.output is None and sys.stdout.isatty():
        # Binary on a terminal garbles it; `-o -` says the caller means it.
        print("qrglue: refusing to write a PNG to a terminal; use -o FILE, or -o - to force it", file=sys.stderr)
        return EXIT_USAGE
    options = {"ec_level": args.ec_level, "min_size": args.min_size, "quiet_zone": args.quiet_zone}
    try:
        png, svg = _renderers(args.path)
        out = png(args.text, **options) if is_png else svg(args.text, **options).encode("utf-8")
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
