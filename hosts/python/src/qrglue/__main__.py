"""`python -m qrglue TEXT -o out.png [--path component|raw] [--svg] [options]`"""

from __future__ import annotations

import argparse
import sys

from ._common import DEFAULT_EC_LEVEL, DEFAULT_MIN_SIZE, DEFAULT_QUIET_ZONE, EC_LEVELS, QrError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m qrglue", description="Write a QR code as PNG (or SVG).")
    parser.add_argument("text")
    parser.add_argument("-o", "--output", required=True, help="file to write ('-' for stdout)")
    parser.add_argument("--path", choices=("component", "raw"), default="component",
                        help="which bridge into the wasm guest (same output either way)")
    parser.add_argument("--svg", action="store_true", help="write SVG instead of PNG")
    parser.add_argument("--ec-level", choices=EC_LEVELS, default=DEFAULT_EC_LEVEL)
    parser.add_argument("--min-size", type=int, default=DEFAULT_MIN_SIZE)
    parser.add_argument("--quiet-zone", type=int, default=DEFAULT_QUIET_ZONE)
    args = parser.parse_args(argv)

    if args.path == "raw":
        from .raw import png, svg
    else:
        from . import png, svg
    options = dict(ec_level=args.ec_level, min_size=args.min_size, quiet_zone=args.quiet_zone)
    try:
        out = svg(args.text, **options).encode("utf-8") if args.svg else png(args.text, **options)
    except QrError as e:
        print(f"qrglue: {e.kind}: {e}", file=sys.stderr)
        return 2
    if args.output == "-":
        sys.stdout.buffer.write(out)
    else:
        with open(args.output, "wb") as f:
            f.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
