"""The report's engine table: one row per WebAssembly engine that runs
qrglue's raw module, each driven from the host where it lives. In-process
figures (png on the reference URL, guest-only = png-repeat per png, noop)
come from that host's bench file (its raw path, interleaved with the host's
other paths); wasm3's and Wasmer's from target/bench/engines.json's own
interleaved runs (beside the raw path on wasmtime-py and on wazero). Load,
first call, whole-process wall time and peak RSS come from engines.json's
fresh processes (tests/bench/engines.py). Imported by report.py."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

# (engine as engines.py names it, host file, path in it, cold-start op in it, what runs it)
ENGINES = [
    ("V8", "node", "raw", "cold-start", "Node's WebAssembly (Liftoff, then TurboFan)"),
    ("Wasmtime (Rust CLI, whole process)", "rust", "raw", "cold-start", "Wasmtime 48, Cranelift (hosts/rust)"),
    ("Wasmtime (wasmtime-py)", "python", "raw", "cold-start", "Wasmtime 50 through wasmtime-py's C API"),
    ("wazero (compiler)", "go", "raw", "cold-start", "wazero 1.12, its compiler (pure Go)"),
    ("wasm3 (pywasm3)", None, "wasm3", None, "wasm3 0.5.0, an interpreter, through pywasm3; qrglue.raw-nosimd.wasm"),
    ("Wasmer 2.0 (Cranelift)", None, "wasmer-cranelift", None,
     "Wasmer 2.0.0, the libwasmer wasmer-go 1.0.4 ships (2021; no wasm SIMD), its Cranelift compiler, through cgo "
     "(hosts/go/wasmer); qrglue.raw-nosimd.wasm"),
    ("Wasmer 2.0 (Singlepass)", None, "wasmer-singlepass", None,
     "the same Wasmer, its Singlepass compiler (one pass: fast to compile, slower code); qrglue.raw-nosimd.wasm"),
    ("Chicory (compiled at build time)", "java", "compiled", "cold-start",
     "Chicory 1.7.5, its build-time compiler (wasm to JVM bytecode, then HotSpot's JIT); qrglue.raw-nosimd.wasm"),
    ("Chicory (interpreted)", "java", "interpreted", "cold-start", "Chicory 1.7.5, its interpreter; qrglue.raw-nosimd.wasm"),
    ("No wasm: the C library through FFM (Java)", "java", "native", "cold-start",
     "reference row, not an engine: the Rust core compiled for this machine (hosts/c), called through Java's FFM"),
]
# The host each in-process-only row runs in (engines.py's own processes).
IN_PROCESS_HOST = {"wasm3": "python", "wasmer-cranelift": "go", "wasmer-singlepass": "go"}
# The yardstick each in-process-only row ran beside, in the same process.
YARDSTICK = {"wasm3": "wasmtime-py", "wasmer-cranelift": "wazero (yardstick)", "wasmer-singlepass": "wazero (yardstick)"}
# Engines of the seed's list that have no row of figures here, and why (what was tried).
NOT_RUN = [
    ("Wasmer 7 (the Rust crate)", "today's Wasmer has no prebuilt library any registry here serves (wasmer-go's newest, "
     "1.0.4, ships 2.0, the rows above; wasmer-python's wheels, 1.1.0, stop at CPython 3.10), and its Rust crate "
     "(experiments/wasmer: the raw glue on Wasmer 7.4.2's Cranelift and Singlepass, a corpus conformance pass) is a "
     "build of Wasmer's own Cranelift beside the main workspace's Wasmtime, more than CI's time allows (docs/go.md "
     "has its figures, measured by hand). Its LLVM back end: wasmer-compiler-llvm 7.4 needs an LLVM of its own major "
     "version through llvm-sys (a `LLVM_SYS_*_PREFIX` install), not tried here"),
    ("WasmEdge", "no registry reachable here serves it: the `wasmedge-sys` crate needs the WasmEdge C library "
     "installed, or downloads a release at build time (`standalone`/`bundled`), which cannot be fetched; Debian has "
     "no package; PyPI's `wasmedge` 0.0.1 (2021) is an empty placeholder; npm lists none"),
]


def load(bench: Path) -> dict | None:
    path = bench / "engines.json"
    return json.loads(path.read_text()) if path.exists() else None


def build(hosts: dict[str, dict], engines: dict | None, expected_png_sha256: str,
          find: Callable[..., dict | None]) -> list[dict]:
    cold = {r["engine"]: r for r in (engines or {}).get("cold", [])}
    in_process = {(m["engine"], m["op"]): m for m in (engines or {}).get("in_process", [])}
    rows = []
    for name, host, path, cold_op, what in ENGINES:
        if host is not None:
            data = hosts.get(host)
            if data is None:
                continue
            png, repeat, noop = (find(data, path, op, text_id) for op, text_id in
                                 (("png", "ref-02"), ("png-repeat", "ref-02"), ("noop", None)))
            started, cached = find(data, path, cold_op), find(data, path, cold_op + "-cached")
            digest_ok = png is not None and png.get("sha256") == expected_png_sha256
        else:
            png, repeat, noop = (in_process.get((path, op)) for op in ("png", "png-repeat", "noop"))
            started = cached = None
            digest_ok = cold.get(name, {}).get("sha256") == expected_png_sha256 and (
                png is None or png.get("sha256") in (None, expected_png_sha256))
        c = cold.get(name)
        if png is None and c is None:
            continue
        rows.append({
            "engine": name, "what": what, "host": host or IN_PROCESS_HOST.get(path, "rust"),
            "png_ns": png and png["median_ns"], "png_p10_ns": png and png["p10_ns"], "png_p90_ns": png and png["p90_ns"],
            "guest_only_ns": repeat and repeat["median_ns"], "noop_ns": noop and noop["median_ns"],
            "cold_start_ms": started and started["median_ns"] / 1e6, "cold_start_cached_ms": cached and cached["median_ns"] / 1e6,
            "load_ms": c and c["load_ms"], "first_ms": c and c["first_ms"], "wall_ms": c and c["wall_ms"],
            "wall_p10_ms": c and c["wall_p10_ms"], "wall_p90_ms": c and c["wall_p90_ms"],
            "peak_rss_mib": c and c["peak_rss_mib"],
            "digest_match": digest_ok and (c is None or c["sha256"] == expected_png_sha256),
        })
        yardstick = in_process.get((YARDSTICK.get(path), "png"))
        if host is None and yardstick:
            rows[-1]["yardstick"] = YARDSTICK[path]
            rows[-1]["yardstick_png_ns"] = yardstick["median_ns"]
    return rows


def section(rows: list[dict], engines: dict | None, us: Callable[[float | None], str]) -> list[str]:
    if not rows:
        return []
    ms = lambda v: "—" if v is None else f"{v:,.1f}"  # noqa: E731
    lines = ["## The engine table", "",
             "The raw module (`qrglue.raw.wasm`; engines without wasm SIMD, wasm3, Wasmer 2.0 and Chicory: "
             "`qrglue.raw-nosimd.wasm`) on each engine, from the host it lives in. "
             "png, guest-only (png-repeat per png) and noop: in-process medians from that host's bench (wasm3 and "
             "Wasmer: tests/bench/engines.py, beside wasmtime-py and wazero in one process; "
             "Java: JavaBench's forks, which have no png-repeat). load: compile (or parse) + instantiate in a "
             "fresh process, after the runtime started; first: the first png after it; wall and peak RSS: the whole "
             "fresh process (runtime start, load, one png), medians of interleaved samples with the range. Cold start "
             "(cached): the host bench's fresh-process figures without and with its compiled-code cache.", "",
             "| engine | host | png us (p10–p90) | guest-only us | noop us | load ms | first png ms | wall ms (range) | peak RSS MiB | cold start ms | cached start ms | digest |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        png = "—" if r["png_ns"] is None else f"{us(r['png_ns'])} ({us(r['png_p10_ns'])}–{us(r['png_p90_ns'])})"
        wall = "—" if r["wall_ms"] is None else f"{ms(r['wall_ms'])} ({ms(r['wall_p10_ms'])}–{ms(r['wall_p90_ms'])})"
        lines.append(f"| {r['engine']}: {r['what']} | {r['host']} | {png} | {us(r['guest_only_ns'])} | {us(r['noop_ns'])} "
                     f"| {ms(r['load_ms'])} | {ms(r['first_ms'])} | {wall} | {ms(r['peak_rss_mib'])} "
                     f"| {ms(r['cold_start_ms'])} | {ms(r['cold_start_cached_ms'])} | {'match' if r['digest_match'] else '**MISMATCH**'} |")
    w3 = next((r for r in rows if r["engine"] == "wasm3 (pywasm3)"), None)
    if w3 and w3.get("yardstick_png_ns"):
        lines += ["", f"wasm3's row comes from one Python process where the raw path on wasmtime-py ran beside it: "
                  f"png {us(w3['yardstick_png_ns'])} us there. On wasm3 the png-repeat probe measured slower per png than "
                  "a png call, which calls the same functions (not explained here: a loaded machine and an interpreter "
                  "sensitive to it); its png call is the figure to compare."]
    wasmer = [r for r in rows if r["engine"].startswith("Wasmer") and r.get("yardstick_png_ns")]
    if wasmer:
        lines += ["", "Wasmer's rows come from one Go process where the raw path on wazero ran beside them: png "
                  f"{us(wasmer[0]['yardstick_png_ns'])} us there (wazero on qrglue.raw.wasm, with SIMD)."]
    lines += ["", "Not in the table:", ""] + [f"- {name}: {why}." for name, why in NOT_RUN]
    extism = [r for r in (engines or {}).get("cold", []) if r["engine"].startswith("Extism")]
    if extism:
        lines += ["", "The Extism SDKs' own start, the same way (qrglue.extism.wasm): "
                  + "; ".join(f"{r['engine']}: load {ms(r['load_ms'])} ms, first png {ms(r['first_ms'])} ms, "
                              f"{ms(r['peak_rss_mib'])} MiB peak" for r in extism) + "."]
    return lines + [""]


def advice(rows: list[dict]) -> str | None:
    by = {r["engine"]: r for r in rows}
    jit = [r for r in rows if r["engine"] != "wasm3 (pywasm3)" and r["guest_only_ns"]]
    w3 = by.get("wasm3 (pywasm3)")
    if not jit:
        return None
    fastest = min(jit, key=lambda r: r["guest_only_ns"])
    # An engine's name without its parenthesis and its host, unless two rows share both (Wasmer's two
    # compilers in Go: "Wasmer 2.0 Cranelift (go)").
    stems = [(r["engine"].split(" (")[0], r["host"]) for r in rows]

    def short(r: dict) -> str:
        stem, _, detail = r["engine"].partition(" (")
        return f"{stem} {detail.rstrip(')')} ({r['host']})" if stems.count((stem, r["host"])) > 1 else f"{stem} ({r['host']})"

    parts = ["Which engine: guest-only per png (the engine's own speed on the same module) "
             + ", ".join(f"{short(r)} {r['guest_only_ns'] / 1000:.0f} us" for r in jit)
             + f", fastest {short(fastest)}"]
    if w3 and w3["png_ns"] and w3.get("yardstick_png_ns"):
        parts.append(f"wasm3, an interpreter, takes {w3['png_ns'] / w3['yardstick_png_ns']:.1f}x wasmtime-py's png call "
                     f"in the same process ({w3['png_ns'] / 1000:.0f} against {w3['yardstick_png_ns'] / 1000:.0f} us) "
                     f"but loads in {w3['load_ms']:.1f} ms in a {w3['peak_rss_mib']:.0f} MiB process: for a one-shot "
                     "command or a small device, not a server")
    loads = [r for r in rows if r["load_ms"] is not None and r["engine"] != "wasm3 (pywasm3)" and not r["engine"].startswith("No wasm")]
    if loads:
        parts.append("what differs most is start-up: " + ", ".join(f"{short(r)} loads in {r['load_ms']:.0f} ms" for r in loads)
                     + " with no compiled-code cache (V8 compiles lazily: its first png pays the rest), so keep the cache "
                       "where the host offers one; per host, use the engine already there (V8 in Node; wazero in Go, "
                       "no cgo; Wasmtime in Rust and Python)")
    return "; ".join(parts) + "."
