"""The engine table's own measurements (`just bench-engines`): for each
engine, fresh processes that load qrglue's module (compile or parse it and
instantiate it), then render the reference png once; each child prints its
load and first-call times and the PNG's digest, and this parent reads the
child's peak RSS from os.wait4 (Java's engines through hosts/java's
EngineProbe, in fresh JVMs). Plus, for the engines no host bench runs, png,
guest-only (png-repeat) and noop measured in one process, interleaved with a
yardstick: wasm3 beside the raw path on wasmtime-py (Python), Wasmer's two
compilers beside the raw path on wazero (Go, hosts/go/wasmer's
qrglue-engine-wasmer).

Writes target/bench/engines.json, which report.py merges with each host's
bench file (png, guest-only, noop, cold starts) into the engine table.
QRGLUE_BENCH_QUICK=1: settings.json's quick sample counts. Standard library
only; run from the repository root after the builds (`just bench-engines`).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PY = str(REPO / "hosts" / "python" / ".venv" / "bin" / "python")
GO_PROBE = str(REPO / "hosts" / "go" / "bin" / "qrglue-engine-probe")
# hosts/go/wasmer's probe and in-process bench (Wasmer 2.0 through wasmer-go), built by `just build-go`.
WASMER = str(REPO / "hosts" / "go" / "bin" / "qrglue-engine-wasmer")
# hosts/java's EngineProbe (test classes), on the JDK the Java recipes use, with JavaBench's JIT flag.
JAVA_CP = ":".join(str(REPO / "hosts" / "java" / p) for p in ("target/qrglue.jar", "target/qrglue-tests.jar", "target/test-lib/*"))


def java() -> str:
    home = subprocess.run(["bash", str(REPO / "tools" / "java" / "jdk.sh")], capture_output=True, text=True, check=True)
    return str(Path(home.stdout.strip()) / "bin" / "java")

PY_CHILD = """
import hashlib, json, sys, time
import {module} as m
start = time.perf_counter()
g = m.Generator()
loaded = time.perf_counter()
png = g.png(sys.argv[1])
first = time.perf_counter()
print(json.dumps({{"load_ms": (loaded - start) * 1e3, "first_ms": (first - loaded) * 1e3,
                  "sha256": hashlib.sha256(png).hexdigest()}}))
"""

NODE_CHILD = """
import {{ readFileSync }} from 'node:fs';
import {{ createHash }} from 'node:crypto';
import {{ {init}, png }} from '{module}';
const text = process.argv[1];
const start = performance.now();
{load}
const loaded = performance.now();
const out = await png(text);
const first = performance.now();
console.log(JSON.stringify({{ load_ms: loaded - start, first_ms: first - loaded,
  sha256: createHash('sha256').update(out).digest('hex') }}));
"""

# Each engine: (name, what runs, module, command given the text, environment, whole-process?)
def engines(text: str) -> list[dict]:
    raw_js = (REPO / "hosts" / "node" / "lib" / "raw.js").as_uri()
    ext_js = (REPO / "hosts" / "node" / "extism" / "index.js").as_uri()
    raw_wasm = REPO / "hosts" / "node" / "wasm" / "qrglue.raw.wasm"
    jvm = [java(), "-XX:-DontCompileHugeMethods", "--enable-native-access=ALL-UNNAMED", "-cp", JAVA_CP, "dev.qrglue.EngineProbe"]
    return [
        {"engine": "V8", "host": "node", "module": "qrglue.raw.wasm",
         "argv": ["node", "--input-type=module", "-e", NODE_CHILD.format(
             init="initRaw", module=raw_js, load=f"initRaw(readFileSync({json.dumps(str(raw_wasm))}));"), text]},
        {"engine": "Wasmtime (wasmtime-py)", "host": "python", "module": "qrglue.raw.wasm",
         "argv": [PY, "-c", PY_CHILD.format(module="qrglue.raw"), text], "env": {"QRGLUE_CACHE_DIR": ""}},
        {"engine": "Wasmtime (wasmtime-py), cached", "host": "python", "module": "qrglue.raw.wasm",
         "argv": [PY, "-c", PY_CHILD.format(module="qrglue.raw"), text], "cached": True},
        {"engine": "wasm3 (pywasm3)", "host": "python", "module": "qrglue.raw-nosimd.wasm",
         "argv": [PY, "-c", PY_CHILD.format(module="qrglue.wasm3"), text]},
        {"engine": "wazero (compiler)", "host": "go", "module": "qrglue.raw.wasm",
         "argv": [GO_PROBE, "-engine", "wazero", "-text", text]},
        {"engine": "Wasmer 2.0 (Cranelift)", "host": "go", "module": "qrglue.raw-nosimd.wasm",
         "argv": [WASMER, "probe", "-compiler", "cranelift", "-text", text]},
        {"engine": "Wasmer 2.0 (Singlepass)", "host": "go", "module": "qrglue.raw-nosimd.wasm",
         "argv": [WASMER, "probe", "-compiler", "singlepass", "-text", text]},
        {"engine": "Wasmtime (Rust CLI, whole process)", "host": "rust", "module": "qrglue.raw.wasm",
         "argv": [str(REPO / "target" / "host" / "qrglue"), "png", "--path", "raw", "-o", "-", text], "whole": True},
        {"engine": "Chicory (compiled at build time)", "host": "java", "module": "qrglue.raw-nosimd.wasm",
         "argv": [*jvm, "COMPILED", text]},
        {"engine": "Chicory (interpreted)", "host": "java", "module": "qrglue.raw-nosimd.wasm",
         "argv": [*jvm, "INTERPRETED", text]},
        {"engine": "No wasm: the C library through FFM (Java)", "host": "java", "module": "libqrglue_capi.so",
         "argv": [*jvm, "NATIVE", text]},
        {"engine": "Extism go-sdk on wazero", "host": "go", "module": "qrglue.extism.wasm",
         "argv": [GO_PROBE, "-engine", "extism", "-text", text]},
        {"engine": "Extism JS SDK on V8", "host": "node", "module": "qrglue.extism.wasm",
         "argv": ["node", "--no-warnings", "--input-type=module", "-e", NODE_CHILD.format(
             init="init", module=ext_js, load="await init();"), text]},
        {"engine": "Extism libextism (Wasmtime)", "host": "python", "module": "qrglue.extism.wasm",
         "argv": [PY, "-c", PY_CHILD.format(module="qrglue.extism"), text]},
        {"engine": "Extism chicory-sdk (Java)", "host": "java", "module": "qrglue.extism-nosimd.wasm",
         "argv": [*jvm, "EXTISM", text]},
    ]


def sample(argv: list[str], env: dict[str, str], whole: bool) -> dict:
    """One fresh process: its JSON line (or, whole, its wall time and output's digest) and its peak RSS."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=REPO, env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    out, err = proc.stdout.read(), proc.stderr.read()  # type: ignore[union-attr]
    if status != 0:
        raise RuntimeError(f"{argv[0]} failed ({status}): {err.decode()[-2000:]}")
    if whole:
        import hashlib
        result = {"load_ms": None, "first_ms": None, "sha256": hashlib.sha256(out).hexdigest()}
    else:
        result = json.loads(out.decode().strip().splitlines()[-1])
    result["wall_ms"] = wall * 1e3
    result["peak_rss_kib"] = usage.ru_maxrss  # Linux: KiB
    return result


def in_process_wasm3(text: str, rounds: int) -> list[dict]:
    """png, guest-only and noop on wasm3, interleaved with the raw path on wasmtime-py, in one Python child."""
    child = f"""
import json, statistics, sys, time
import qrglue.raw, qrglue.wasm3
text, rounds = sys.argv[1], {rounds}
gens = {{"wasm3": qrglue.wasm3.Generator(), "wasmtime-py": qrglue.raw.Generator()}}
calls = {{}}
for name, g in gens.items():
    calls[(name, "png", 1)] = lambda g=g: g.png(text)
    calls[(name, "png-repeat", 5)] = lambda g=g: g.png_repeat(text, 5)
    calls[(name, "noop", 1)] = g.noop
samples = {{key: [] for key in calls}}
for key, call in calls.items():
    call()
for _ in range(rounds):
    for key, call in calls.items():
        n = 20 if key[1] == "noop" else 1
        start = time.perf_counter_ns()
        for _ in range(n):
            call()
        samples[key].append((time.perf_counter_ns() - start) / n / key[2])
print(json.dumps([{{"engine": k[0], "op": k[1], "median_ns": statistics.median(v), "p10_ns": sorted(v)[len(v) // 10],
                   "p90_ns": sorted(v)[(len(v) * 9) // 10], "samples": len(v)}} for k, v in samples.items()]))
"""
    out = subprocess.run([PY, "-c", child, text], cwd=REPO, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def in_process_wasmer(text: str, rounds: int) -> list[dict]:
    """png, guest-only and noop on Wasmer's two compilers, interleaved with the raw path on wazero, in one Go process."""
    out = subprocess.run([WASMER, "bench", "-text", text, "-rounds", str(rounds)], cwd=REPO, capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out)


def main() -> int:
    settings = json.loads((REPO / "tests" / "bench" / "settings.json").read_text())
    quick = os.environ.get("QRGLUE_BENCH_QUICK") == "1"
    mode = settings["quick" if quick else "full"]
    cases = json.loads((REPO / "tests" / "vectors" / "cases.json").read_text())["cases"]
    text = next(c["text"] for c in cases if c["id"] == settings["reference_text_id"])
    n = max(3, mode["cold_start_samples"])
    rows = []
    all_engines = engines(text)
    # Warm the caches that the cached row reads (and the OS's file cache for every binary).
    for e in all_engines:
        sample(e["argv"], e.get("env", {}), e.get("whole", False))
    results: dict[str, list[dict]] = {e["engine"]: [] for e in all_engines}
    for _ in range(n):  # interleaved: one sample of each engine per round
        for e in all_engines:
            results[e["engine"]].append(sample(e["argv"], e.get("env", {}), e.get("whole", False)))
    for e in all_engines:
        got = results[e["engine"]]
        med = lambda key: statistics.median(r[key] for r in got) if got[0][key] is not None else None  # noqa: E731
        digests = {r["sha256"] for r in got}
        rows.append({"engine": e["engine"], "host": e["host"], "module": e["module"], "samples": len(got),
                     "load_ms": med("load_ms"), "first_ms": med("first_ms"), "wall_ms": med("wall_ms"),
                     "wall_p10_ms": min(r["wall_ms"] for r in got), "wall_p90_ms": max(r["wall_ms"] for r in got),
                     "peak_rss_mib": med("peak_rss_kib") / 1024, "sha256": digests.pop() if len(digests) == 1 else None})
        r = rows[-1]
        print(f"{r['engine']:<38} load {r['load_ms'] or 0:8.1f} ms  first {r['first_ms'] or 0:7.1f} ms  "
              f"wall {r['wall_ms']:7.1f} ms  rss {r['peak_rss_mib']:6.1f} MiB", file=sys.stderr)
    in_process = in_process_wasm3(text, mode["rounds"]) + in_process_wasmer(text, mode["rounds"])
    out = REPO / "target" / "bench" / "engines.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"quick": quick, "cold": rows, "in_process": in_process}, indent=1) + "\n")
    for m in in_process:
        print(f"{m['engine']:<20} {m['op']:<11} {m['median_ns'] / 1e3:9.1f} us", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
