"""`qrglue` / `python -m qrglue`: QR codes from the command line, the Python
twin of the Rust CLI (hosts/rust/cli/src/main.rs) and the Node one
(hosts/node/cli.js): the same subcommands, flags and exit codes.

    qrglue png (TEXT | --data-file PATH) [-o FILE] [--path auto|component|raw|native] [--ec-level low|medium|...]
                   [--min-size N] [--quiet-zone N] [--scale N] [--dark HEX] [--light HEX] [--micro]
                   [symbol options: qrglue png -h]
    qrglue svg (TEXT | --data-file PATH) [same options] [--view-box-only] [--title TEXT] [--class NAMES]
    qrglue text (TEXT | --data-file PATH) [--style half-blocks|half-blocks-inverted|ascii] [same options]

The option flags are `_cli_flags.py`'s, generated from the contract's option
table (tools/contract) with their help lines; `--ec-level` takes the WIT
names, as the library does.

`--data-file PATH` encodes the bytes of a file (`-`: standard input) as a
binary payload instead of TEXT: any bytes, not only UTF-8 (the *-bytes
generators); one of the two is required.

`text` draws the code with characters (half blocks by default; on a dark
terminal use --style half-blocks-inverted; it takes the colours and the scale
but does not use them). Colours are CSS hex strings (#rgb, #rgba, #rrggbb,
#rrggbbaa): the generator checks them, so a bad one exits 1 like a bad
--min-size. The symbol options (--micro, --symbol-version: not --version,
which prints this program's version, and the others `qrglue png -h` lists)
are checked by the generator too. `svg` alone takes the SVG options:
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

from ._cli_flags import CLI_FLAGS, CliFlag
from ._common import EC_LEVELS, MAX_TEXT_BYTES, TEXT_STYLES, QrError

EXIT_QR_ERROR = 1
EXIT_USAGE = 2
EXIT_FAILURE = 3

# --path -> the module whose png / svg / text run it; auto (the default) is
# qrglue.auto: the native extension where it is installed, else the component.
PATH_MODULES = {"auto": "qrglue.auto", "component": "qrglue", "raw": "qrglue.raw", "native": "qrglue.native"}
PATHS = tuple(PATH_MODULES)

def _u32(value: str) -> int:
    # As the Rust CLI parses its u32 flags: the contract's own bounds are the
    # generator's to check (invalid-options, exit 1), not the parser's.
    if not value.lstrip("+").isdigit() or not value.isascii() or int(value) > 0xFFFF_FFFF:
        raise argparse.ArgumentTypeError(f"invalid value '{value}': not an integer within 0..=4294967295")
    return int(value)


def _flags(command: str) -> tuple[CliFlag, ...]:
    """The contract's flags `command` takes (`_cli_flags.CLI_FLAGS`)."""
    return tuple(flag for flag in CLI_FLAGS if flag.command in (None, command))


def _add_flag(command: argparse.ArgumentParser, flag: CliFlag) -> None:
    """One of the contract's flags, read by its type. A missing one is None
    (the library's default); the generator checks every value it is given,
    in the contract's order (a bad colour exits 1 like a bad --min-size)."""
    name = f"--{flag.flag}"
    if flag.type == "bool":
        command.add_argument(name, dest=flag.keyword, action="store_true", default=None, help=flag.help)
    elif flag.type in ("ec-level", "text-style"):
        choices = EC_LEVELS if flag.type == "ec-level" else TEXT_STYLES
        command.add_argument(name, dest=flag.keyword, choices=choices, metavar=flag.metavar, help=flag.help)
    elif flag.type in ("u32", "option-u32"):
        command.add_argument(name, dest=flag.keyword, type=_u32, metavar=flag.metavar, help=flag.help)
    else:  # colours and strings, as given
        command.add_argument(name, dest=flag.keyword, metavar=flag.metavar, help=flag.help)


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
        for flag in _flags(name):
            _add_flag(command, flag)
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
    # The flags given; a missing one takes the library's default.
    options = {flag.keyword: getattr(args, flag.keyword) for flag in _flags(args.command)
               if getattr(args, flag.keyword) is not None}
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
