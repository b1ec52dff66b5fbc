"""Differential fuzzing: N seeded random cases through every path.

Usage: python3 tests/conformance/fuzz.py N [--seed S] [--chunk K]

Writes the cases to a temporary corpus (chunks of K), runs every host's
conformance runner on it (tests/conformance/run.py) and fails (exit 1) on any
disagreement between paths. Divergent cases (id `fuzz-<seed>-<n>`) are written
to target/fuzz/divergences.json, never into a tracked file: to keep one as a
regression case, copy it into tests/vectors/cases.json and `just bless`.
Texts mix every QR mode, multi-byte UTF-8, control characters, lone
surrogates (~2 %) and lengths up to past capacity; ~15 % of the cases are
binary payloads (`data_hex`: any bytes, runs of digits and capitals, the
same lengths); options (scale, the
colours as hex strings and the symbol options included) are sometimes out
of range or missing (host defaults); valid SVG options (view-box-only, a
title of any XML text, a class) are drawn too. Every path runs but
java-interpreted (SLOW_PATHS: Chicory's interpreter; --with-java-interpreted
adds it).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402  (tests/conformance/run.py)

REPO = run.REPO
# Untracked (target/ is ignored): a fuzz run never modifies a tracked file.
DIVERGENCES = REPO / "target" / "fuzz" / "divergences.json"
POOLS = [
    "0123456789",
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:",
    "".join(chr(c) for c in range(32, 127)),
    "aé€😀中日本\u0301\u05d0\u0627\u0000\n\t\u200d\ufeff\U0010ffff",
    "".join(chr(c) for c in range(0, 0x800) if not 0xD800 <= c <= 0xDFFF),
]
LEVELS = ["low", "medium", "quartile", "high"]
# Chicory's interpreter takes ~10 s of CPU for one 4096-px PNG (and ~13 % of the cases draw 4096):
# on it the 2,000-case CI slice would add about half an hour. It runs the same module as
# java-compiled, and the whole corpus in the conformance run; --with-java-interpreted adds it here.
SLOW_PATHS = ["java-interpreted"]


def random_text(rng: random.Random) -> str:
    pool = rng.choice(POOLS)
    roll = rng.random()
    if roll < 0.70:
        length = rng.randint(1, 60)
    elif roll < 0.95:
        length = rng.randint(61, 900)
    elif roll < 0.99:
        length = rng.randint(900, 3100)
    else:
        length = rng.choice([0, 7089, 7090])
    text = "".join(rng.choice(pool) for _ in range(length))
    if rng.random() < 0.02:
        at = rng.randint(0, len(text))
        text = text[:at] + chr(rng.randint(0xD800, 0xDFFF)) + text[at:]
    return text


def random_payload(rng: random.Random) -> bytes:
    """Any bytes, with runs a text would have (digits, capitals, UTF-8)."""
    roll = rng.random()
    length = rng.randint(1, 60) if roll < 0.7 else rng.randint(61, 900) if roll < 0.95 else rng.choice([0, 2953, 2954, 7089, 7090])
    out = bytearray()
    while len(out) < length:
        kind = rng.random()
        if kind < 0.6:
            out.append(rng.randrange(256))
        else:
            out += random_text(rng)[:8].encode("utf-8", "surrogatepass")
    return bytes(out[:length])


def random_case(rng: random.Random, id: str) -> dict:
    if rng.random() < 0.15:
        return {"id": id, "data_hex": random_payload(rng).hex(), "options": random_options(rng)}
    return {"id": id, "text": random_text(rng), "options": random_options(rng)}


def random_options(rng: random.Random) -> dict:
    options = {}
    if rng.random() < 0.9:
        options["ec-level"] = rng.choice(LEVELS)
    if rng.random() < 0.9:
        options["min-size"] = rng.choice([1, 2, 50, 200, 333, 1024, 4096]) if rng.random() < 0.95 else rng.choice([0, 4097, 2**32 - 1])
    if rng.random() < 0.9:
        options["quiet-zone"] = rng.randint(0, 16) if rng.random() < 0.95 else rng.choice([17, 2**32 - 1])
    if rng.random() < 0.3:
        options["scale"] = rng.randint(1, 20) if rng.random() < 0.9 else rng.choice([0, 21, 2**32 - 1])
    # Colours as hosts take them: every hex form, sometimes transparent, sometimes the same twice.
    for name in ("dark", "light"):
        if rng.random() < 0.3:
            digits = rng.choice([3, 4, 6, 8])
            options[name] = "#" + "".join(rng.choice("0123456789abcdefABCDEF") for _ in range(digits))
    if rng.random() < 0.02:
        options["dark"] = options["light"] = "#" + "".join(rng.choice("0123456789abcdef") for _ in range(6))
    # The symbol options: Micro QR (short texts fit; longer ones are
    # data-too-long, high is invalid-options), a version fixed or a minimum
    # (sometimes both: invalid-options), a mask, EC boost, ECI (with Micro QR:
    # invalid-options on every path); each sometimes out of range, the
    # bounds depending on micro.
    micro = rng.random() < 0.1
    if micro:
        options["micro"] = True
    elif rng.random() < 0.05:
        options["micro"] = False
    top = 4 if micro else 40
    for name in ("version", "min-version"):
        if rng.random() < 0.15:
            options[name] = rng.randint(1, top) if rng.random() < 0.9 else rng.choice([0, top + 1, 2**32 - 1])
    if rng.random() < 0.2:
        options["mask"] = rng.randint(0, 3 if micro else 7) if rng.random() < 0.9 else rng.choice([4 if micro else 8, 2**32 - 1])
    if rng.random() < 0.2:
        options["boost-ec"] = rng.random() < 0.8
    if rng.random() < 0.2:
        options["eci"] = rng.random() < 0.8
    # The SVG options, only valid ones (their refusals fail the SVG calls
    # alone, which an outcome cannot hold; each host tests those): a title of
    # any XML text (markup characters, CR, non-BMP), CSS class names.
    if rng.random() < 0.1:
        options["view-box-only"] = rng.random() < 0.8
    if rng.random() < 0.1:
        pool = "<>&\"' \t\n\rab\u00e9\u4e2d\U0001f600"
        options["title"] = "".join(rng.choice(pool) for _ in range(rng.randint(0, 40)))
    if rng.random() < 0.1:
        names = ["".join(rng.choice("abcXYZ019-_") for _ in range(rng.randint(1, 8))) for _ in range(rng.randint(1, 3))]
        options["class"] = " ".join(names)
    return options


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int)
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--chunk", type=int, default=5000)
    parser.add_argument("--with-java-interpreted", action="store_true", help="also fuzz Chicory's interpreter (slow)")
    args = parser.parse_args()
    paths = run.PATHS if args.with_java_interpreted else [p for p in run.PATHS if p not in SLOW_PATHS]
    if not args.with_java_interpreted:
        os.environ["QRGLUE_JAVA_ENGINES"] = "COMPILED,NATIVE,EXTISM"  # hosts/java's runner: all but the interpreter
    rng = random.Random(args.seed)
    start = time.monotonic()
    divergent = []
    done = 0
    with tempfile.TemporaryDirectory(prefix="qrglue-fuzz-") as tmp:
        corpus = Path(tmp)
        while done < args.count:
            size = min(args.chunk, args.count - done)
            cases = [random_case(rng, f"fuzz-{args.seed}-{done + i}") for i in range(size)]
            (corpus / "cases.json").write_text(json.dumps({"cases": cases}, ensure_ascii=True))
            results = run.run_runners(corpus)
            problems = run.compare([c["id"] for c in cases], results, None, paths)
            if problems:
                print("\n".join(problems))
                bad = {p.split(":", 1)[0] for p in problems if p.startswith("fuzz-")}
                divergent += [c for c in cases if c["id"] in bad]
            done += size
            print(f"fuzz: {done}/{args.count} cases, {len(divergent)} divergent, {time.monotonic() - start:.0f} s", file=sys.stderr)
    if divergent:
        path = DIVERGENCES
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"cases": divergent}, indent=1, ensure_ascii=True) + "\n")
        print(f"fuzz: {len(divergent)} divergent case(s) written to {path.relative_to(REPO)}")
        print(f"fuzz: {args.count - len(divergent)} passed, {len(divergent)} failed")
        return 1
    print(f"fuzz: {args.count} cases x {len(paths)} paths agree (seed {args.seed}, {time.monotonic() - start:.0f} s)")
    print(f"fuzz: {args.count} passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
