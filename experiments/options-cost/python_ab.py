"""What do the options cost a Python call that names none (issue 24, item 4:
the reference png within 3 % of the build before the options)?

    python experiments/options-cost/python_ab.py OLD_DIR NEW_DIR [PAIRS] [ROUNDS]

OLD_DIR and NEW_DIR each hold a `qrglue` package with its two .wasm files
(`hosts/python/src` of a built tree; for an old commit: a `git worktree`,
its guests built, their .wasm copied into its `src/qrglue/`). Each of PAIRS
pairs runs one fresh process per package, old first, pinned to CPU 0: the
reference png (ref-02, no option named) on the component and raw paths (fast
glue), interleaved within the process in batches of ~3 ms, median of ROUNDS
batches. Prints each process's medians, then per path the median of the
old and new medians and of the per-pair ratios new/old, with their range:
processes alternate, so a machine that drifts moves both sides of a pair."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys

URL = "https://www.reddit.com/r/rustjerk/top/?t=all"

CHILD = r"""
import json, statistics, sys, time
import qrglue, qrglue.raw
URL, ROUNDS = sys.argv[1], int(sys.argv[2])
gens = {"component": qrglue.Generator(glue="fast"), "raw": qrglue.raw.Generator(glue="fast")}
assert gens["component"].png(URL) == gens["raw"].png(URL)
series = {name: [g.png, 1, []] for name, g in gens.items()}
def run(s, record):
    call, batch, samples = s
    t = time.perf_counter_ns()
    for _ in range(batch):
        call(URL)
    elapsed = time.perf_counter_ns() - t
    if record:
        samples.append(elapsed / batch)
    else:
        s[1] = max(1, round(3_000_000 * batch / max(1, elapsed)))
for _ in range(10):
    for s in series.values():
        run(s, False)
for _ in range(ROUNDS):
    for s in series.values():
        run(s, True)
print(json.dumps({name: statistics.median(s[2]) / 1e3 for name, s in series.items()}))
"""


def measure(package_dir: str, rounds: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": package_dir}
    out = subprocess.run(["taskset", "-c", "0", sys.executable, "-c", CHILD, URL, str(rounds)], env=env,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    old_dir, new_dir = sys.argv[1], sys.argv[2]
    pairs = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 60
    runs: list[tuple[dict[str, float], dict[str, float]]] = []
    for _ in range(pairs):
        old, new = measure(old_dir, rounds), measure(new_dir, rounds)
        print(f"old {json.dumps(old)}\nnew {json.dumps(new)}", flush=True)
        runs.append((old, new))
    for path in ("component", "raw"):
        olds, news = [o[path] for o, _ in runs], [n[path] for _, n in runs]
        ratios = [n / o for o, n in zip(olds, news, strict=True)]
        print(f"{path}: old {statistics.median(olds):.1f} us, new {statistics.median(news):.1f} us, "
              f"new/old {statistics.median(ratios):.3f} [{min(ratios):.3f}, {max(ratios):.3f}] over {pairs} pairs")


if __name__ == "__main__":
    main()
