"""Kanji mode (issue 38) against oracles that are not our own decoder.

- zxing-cpp (3.1.1) reads every Kanji-mode PNG back as the same text, and the
  EC level it reports is the matrix's metadata (the core's own tests check
  version and mask against rqrr's reading);
- segno (1.6.6), an independent encoder, draws the very same modules for
  every all-Kanji text at a fixed version and mask (`mode='kanji'`);
- a text Kanji mode cannot hold (an emoji, U+2028) is invalid-options naming
  the character, not a code with the character dropped (node-qrcode PR #413's
  trap);
- and it reports the bits Kanji mode saves on the CJK texts.

Run by `just test-kanji-oracle` (a venv of its own with the two readers'
pins); the texts go through qrglue-core's `symbol_dump` example.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import segno
import segno.encoder
import zxingcpp
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]

# CJK texts: kana, kanji, full-width punctuation, mixed with ASCII runs.
CJK = [
    "漢字",
    "日本語のテキスト",
    "東京都渋谷区神南一丁目",
    "こんにちは世界",
    "カタカナとひらがなと漢字",
    "ＱＲコード（全角）",
    "QR コード 2026 年",
    "価格: 1,000 円 (税込)",
    "https://example.jp/検索?q=漢字",
    "日本語のテキストは漢字モードで一文字十三ビットになります。" * 4,
]
# All-Kanji texts (every character a Shift-JIS double-byte code), for segno.
ALL_KANJI = [t for t in CJK if all(not c.isascii() for c in t)]
BAD = [("漢😀字", "U+1F600 at byte 3"), ("行\u2028区切り", "U+2028 at byte 3"), ("café 漢字", "U+00E9 at byte 3")]


def dump(cases: list[str]) -> list[dict]:
    """qrglue-core's answers for `cases` (lines for symbol_dump)."""
    out = subprocess.run(
        ["cargo", "run", "-q", "--locked", "-p", "qrglue-core", "--example", "symbol_dump"],
        input="".join(c + "\n" for c in cases), capture_output=True, text=True, cwd=ROOT, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def case(text: str, level: str = "low", *words: str) -> str:
    return "\t".join([json.dumps(text), level, *words])


def read(png_hex: str) -> zxingcpp.Result:
    results = zxingcpp.read_barcodes(Image.open(io.BytesIO(bytes.fromhex(png_hex))),
                                     formats=zxingcpp.BarcodeFormat.QRCode)
    assert len(results) == 1, f"{len(results)} codes read"
    return results[0]


def segno_write_padding_bits(buff, version: int, length: int) -> None:
    """segno's write_padding_bits as ISO/IEC 18004 7.4.10 has it (heuer/segno#148,
    as hosts/python/tests/test_segno_oracle.py corrects it): zero bits up to the
    next codeword boundary, none when already on one."""
    buff.extend([0] * (-length % 8))


def main() -> int:
    segno.encoder.write_padding_bits = segno_write_padding_bits
    failures: list[str] = []

    # 1. zxing-cpp reads every Kanji-mode code back as the text, at every level.
    levels = ["low", "medium", "quartile", "high"]
    answers = dump([case(t, level, "kanji") for t in CJK for level in levels])
    for (text, level), got in zip([(t, lv) for t in CJK for lv in levels], answers, strict=True):
        if "error" in got:
            failures.append(f"{text!r} {level}: {got}")
            continue
        if "kanji" not in got["segments"]:
            failures.append(f"{text!r}: no Kanji segment in {got['segments']}")
        found = read(got["png_hex"])
        if found.text != text:
            failures.append(f"{text!r} {level}: zxing-cpp read {found.text!r}")
        # The metadata is what the reader sees: the EC level (zxing-cpp names
        # it by its initial), and the version from the symbol's width.
        if found.ec_level != got["ec_level"][0].upper():
            failures.append(f"{text!r} {level}: zxing-cpp saw level {found.ec_level}, the matrix says {got['ec_level']}")
        if len(got["rows"]) != 17 + 4 * got["version"]:
            failures.append(f"{text!r}: {len(got['rows'])} modules across is not version {got['version']}")

    # 2. segno's matrices equal ours, all-Kanji texts at a fixed version and
    # mask: the version Kanji mode picks itself and a larger one.
    levels = ("low", "high")
    auto = dump([case(t, level, "kanji") for t in ALL_KANJI for level in levels])
    fixed = []
    for (text, level), got in zip([(t, lv) for t in ALL_KANJI for lv in levels], auto, strict=True):
        fixed += [(text, level, got["version"], 0), (text, level, min(40, got["version"] + 9), 5)]
    answers = dump([case(t, level, "kanji", f"version={v}", f"mask={m}") for t, level, v, m in fixed])
    for (text, level, version, mask), got in zip(fixed, answers, strict=True):
        if "error" in got:
            failures.append(f"{text!r} v{version}: {got}")
            continue
        theirs = segno.make_qr(text, error=level[0], boost_error=False, mode="kanji", version=version, mask=mask)
        rows = ["".join("1" if m else "0" for m in row) for row in theirs.matrix]
        if rows != got["rows"] or got["mask"] != mask or got["version"] != version:
            failures.append(f"{text!r} {level} v{version} mask {mask}: segno's matrix differs")
    print(f"segno: {len(fixed)} matrices compared")

    # 3. Characters Kanji mode cannot hold are named, never dropped.
    for (text, where), got in zip(BAD, dump([case(t, "low", "kanji") for t, _ in BAD]), strict=True):
        if got.get("error") != "invalid-options" or where not in got.get("message", ""):
            failures.append(f"{text!r}: {got}")

    # 4. What Kanji mode saves: the symbol version, and the character bits
    # (8 a UTF-8 byte against 13 a Kanji character; segment headers not
    # counted, so a text of many short runs can come out larger: reported,
    # since the caller asked for every Kanji run in Kanji segments).
    plain = dump([case(t, "medium") for t in CJK])
    kanji = dump([case(t, "medium", "kanji") for t in CJK])
    print("| text | UTF-8 bytes | segments (byte mode) | segments (Kanji mode) | version at medium | character bytes saved |")
    print("|---|---|---|---|---|---|")
    saved_total = 0
    for text, p, k in zip(CJK, plain, kanji, strict=True):
        kanji_chars = sum(1 for c in text if not c.isascii())
        saved = 8 * len("".join(c for c in text if not c.isascii()).encode()) - 13 * kanji_chars
        saved_total += saved
        label = text if len(text) <= 24 else text[:22] + "…"
        print(f"| {label} | {len(text.encode())} | {', '.join(p['segments'])} | {', '.join(k['segments'])} | "
              f"{p['version']} -> {k['version']} | {saved / 8:.1f} |")
    print(f"Kanji mode saves {saved_total} character bits ({saved_total / 8:.1f} bytes) over the {len(CJK)} CJK texts")

    for failure in failures:
        print("FAIL:", failure, file=sys.stderr)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
