"""Writes the committed seed corpora from the test vectors (run by hand after
tests/vectors or the targets' input layouts change; `just fuzz-seeds`):

- seeds/core: each case of tests/vectors/cases.json as the core target's
  input (fuzz_targets/core.rs `Input`: its fixed little-endian header as
  `arbitrary` reads it, then the case's bytes);
- seeds/query: each query of tests/http/query_cases.json, as sent.

The raw ABI and writer targets take call sequences and matrices; their seeds
are the fuzzer's own minimized corpus (`just fuzz-deep` then `cargo fuzz
cmin`), committed under seeds/ too.
"""

from __future__ import annotations

import hashlib
import json
import struct
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEEDS = Path(__file__).resolve().parent / "seeds"
LEVELS = ["low", "medium", "quartile", "high"]
STYLES = ["half-blocks", "half-blocks-inverted", "ascii"]


def color(hex_text: str | None, default: int) -> int:
    if hex_text is None:
        return default
    digits = hex_text.lstrip("#")
    if len(digits) in (3, 4):
        digits = "".join(c * 2 for c in digits)
    if len(digits) == 6:
        digits += "ff"
    return int(digits, 16)


def core_seed(case: dict) -> bytes:
    o = case.get("options", {})
    if "data_hex" in case:
        data = bytes.fromhex(case["data_hex"])
    elif "text" in case:
        # A lone surrogate (the invalid-text cases) as the bytes a host would
        # hand over: not UTF-8.
        data = case["text"].encode("utf-8", "surrogatepass")
    else:
        data = (case["text_repeat"]["unit"] * case["text_repeat"]["count"]).encode("utf-8", "surrogatepass")
    dark, light = color(o.get("dark"), 0x000000FF), color(o.get("light"), 0xFFFFFFFF)
    flags = (1 if o.get("micro") else 0) | (2 if o.get("boost-ec") else 0) | (4 if "version" in o else 0) \
        | (8 if "min-version" in o else 0) | (16 if "mask" in o else 0) | (32 if o.get("eci") else 0)
    words = [LEVELS.index(o.get("ec-level", "low")), o.get("min-size", 200), o.get("quiet-zone", 4),
             1 if "scale" in o else 0, o.get("scale", 0), dark, light,
             flags, o.get("version", 0), o.get("min-version", 0), o.get("mask", 0)]
    # The header's narrow fields take each option modulo a little past its
    # range (core.rs); a value beyond that travels in `wide`, verbatim.
    narrow = [5, 4200, 18, 2, 22, None, None, 66, 42, 42, 9]
    wide = any(m is not None and w >= m for w, m in zip(words, narrow, strict=True))
    header = struct.pack(
        "<BBHBBBBIIBBBBBBHB",
        0 if "data_hex" in case else 1,                      # as_text
        words[0] % 256,
        words[1] % 65536, words[2] % 256, words[3], words[4] % 256,
        1 if dark == 0x000000FF and light == 0xFFFFFFFF else 0,
        dark, light,
        words[7] % 256, words[8] % 256, words[9] % 256, words[10] % 256,
        1 if o.get("view-box-only") else 0, 0, 0,           # svg_flags, svg_len, title_len
        STYLES.index(o["style"]) if o.get("style") in STYLES else 0,
    ) + (b"\x01" + struct.pack("<11I", *words) if wide else b"\x00")
    return header + data


def write(directory: Path, seeds: list[bytes]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for seed in seeds:
        (directory / hashlib.sha1(seed).hexdigest()).write_bytes(seed)


def main() -> None:
    cases = json.loads((ROOT / "tests/vectors/cases.json").read_text())["cases"]
    # Cases over 1 KB (the long-text limits) make slow seeds for little
    # coverage: the fuzzer reaches the length checks by itself.
    write(SEEDS / "core", [s for s in map(core_seed, cases) if len(s) <= 1024])
    queries = json.loads((ROOT / "tests/http/query_cases.json").read_text())["queries"]
    write(SEEDS / "query", [q["query"].encode("utf-8", "surrogatepass") for q in queries])


if __name__ == "__main__":
    main()
