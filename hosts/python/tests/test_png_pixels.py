"""Every corpus PNG decoded by a second, independent inflater: Pillow (libz)
reads each image and its pixels must be exactly the matrix's modules drawn
as blocks of `scale` pixels inside the quiet zone, light everywhere else.

The core's guest/core/tests/png_pixels.rs proves the same images equal,
pixel for pixel, the PNGs the previous writer (zlib-rs) produced, with the
`png` crate and zlib-rs's inflate; this is the C zlib's view of the bytes
every path returns (all paths return the same bytes: test_golden.py)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

import qrglue.native
from conftest import CASES, EXPECTED
from corpus import case_input, case_options

IMAGE_CASES = [c for c in CASES if "error" not in EXPECTED[c["id"]]]
# Pixel values after decoding: 1-bit grayscale reads as 0/255, a palette
# image as its indexes 0 (dark) / 1 (light); both are mapped to 0/255.
INDEX_TO_LEVEL = bytes([0, 255]) + bytes(254)


def render(given: str | bytes, options: dict[str, Any]) -> tuple[bytes, Any]:
    # A text or a binary payload: the API routes bytes to the *-bytes generators.
    return qrglue.native.png(given, **options), qrglue.native.matrix(given, **options)


def decoded_levels(png: bytes) -> tuple[tuple[int, int], bytes]:
    """The image's size and pixels as 0 (dark) / 255 (light), one byte each."""
    image = Image.open(io.BytesIO(png))
    image.load()  # inflates the IDAT with libz
    if image.mode == "1":
        return image.size, image.convert("L").tobytes()
    assert image.mode == "P", image.mode
    return image.size, image.tobytes().translate(INDEX_TO_LEVEL)


def drawn_levels(matrix: Any, quiet: int, size: tuple[int, int]) -> bytes:
    """The matrix at one pixel a module inside its quiet zone, scaled up to
    `size` by whole blocks."""
    across = matrix.width + 2 * quiet
    modules = bytearray(b"\xff" * (across * across))
    for y, row in enumerate(matrix.rows()):
        for x, dark in enumerate(row):
            if dark:
                modules[(y + quiet) * across + x + quiet] = 0
    return Image.frombytes("L", (across, across), bytes(modules)).resize(size, Image.Resampling.NEAREST).tobytes()


@pytest.mark.parametrize("case", IMAGE_CASES, ids=[c["id"] for c in IMAGE_CASES])
def test_corpus_png_decodes_to_the_matrix_drawn(case: dict[str, Any]) -> None:
    options = case_options(case)
    png, matrix = render(case_input(case), options)
    size, got = decoded_levels(png)
    across = matrix.width + 2 * options.get("quiet_zone", 4)
    scale = size[0] // across
    assert size == (across * scale, across * scale) and scale >= 1
    assert got == drawn_levels(matrix, options.get("quiet_zone", 4), size)


def test_a_changed_png_fails_the_comparison() -> None:
    """The check above can fail: a flipped bit in the IDAT is an error or
    other pixels, and a wrong matrix is other pixels."""
    png = qrglue.native.png("https://example.com")
    matrix = qrglue.native.matrix("https://example.com")
    size, levels = decoded_levels(png)
    assert levels == drawn_levels(matrix, 4, size)
    assert levels != drawn_levels(qrglue.native.matrix("https://example.org"), 4, size)
    corrupted = bytearray(png)
    corrupted[corrupted.index(b"IDAT") + 4 + 10] ^= 0x10
    try:
        _, changed = decoded_levels(bytes(corrupted))
    except (OSError, SyntaxError, ValueError):  # Pillow's errors for a broken stream
        return
    assert changed != levels
