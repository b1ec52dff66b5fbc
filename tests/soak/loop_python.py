"""In-process soak loop for Python (tests/soak/soak.py): every in-process path
of the package (component, raw, native) in one interpreter, round-robin over
the ten reference texts at a fixed rate until SECONDS pass; every result is
compared with the first (golden-checked) one. The soak samples this
process's RSS from outside. Exits 1 on a mismatch.

Usage: loop_python.py SECONDS CALLS_PER_SECOND"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import time
from pathlib import Path

import qrglue
import qrglue.native
import qrglue.raw

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    seconds, rate = float(sys.argv[1]), float(sys.argv[2])
    cases = json.loads((ROOT / "tests/vectors/cases.json").read_text())["cases"]
    expected = json.loads((ROOT / "tests/vectors/expected.json").read_text())
    texts = [(c["id"], c["text"]) for c in cases if re.fullmatch(r"ref-\d\d", c["id"])]
    paths = {"component": qrglue.Generator(), "raw": qrglue.raw.Generator(), "native": qrglue.native.Generator()}
    for name, gen in paths.items():
        for case_id, text in texts:
            if hashlib.sha256(gen.png(text)).hexdigest() != expected[case_id]["png_sha256"]:
                print(f"{name}: {case_id} is not its golden PNG", file=sys.stderr)
                return 1
    golden = {case_id: paths["native"].png(text) for case_id, text in texts}
    jobs = [(name, gen, case_id, text) for name, gen in paths.items() for case_id, text in texts]
    start, calls = time.monotonic(), 0
    while (elapsed := time.monotonic() - start) < seconds:
        name, gen, case_id, text = jobs[calls % len(jobs)]
        if gen.png(text) != golden[case_id]:
            print(f"{name}: {case_id} changed after {calls} calls", file=sys.stderr)
            return 1
        calls += 1
        # A fixed rate, not full speed: the machine is shared and growth
        # shows per call, not per second.
        ahead = calls / rate - elapsed
        if ahead > 0:
            time.sleep(ahead)
    print(json.dumps({"host": "python", "paths": list(paths), "calls": calls}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
