"""Merge each host's benchmark results into one report.

Reads target/bench/{rust,node,python,go,browser}.json (written by `just bench-rust`,
`bench-node`, `bench-python`, `bench-go`, `bench-browser`; schema and method in tests/bench/README.md) and writes
target/bench/report.json, report.md, report.svg and report.html (report_html.py: the page a person
reads first), then prints the table.

Everything in the report is computed from those files: the ratios, the glue
decomposition (a + b*bytes fits), the cold starts and the "What to pick"
text. Nothing here is hand-written about speed.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

import engine_table
import extism_report
import report_html

REPO = Path(__file__).resolve().parents[2]
BENCH = REPO / "target" / "bench"
REFERENCE = "ref-02"  # https://www.reddit.com/r/rustjerk/top/?t=all

# Table rows, in the order a reader compares them.
ROWS = [
    ("rust", "native"), ("rust", "component"), ("rust", "raw"),
    ("node", "native"), ("node", "component"), ("node", "raw"), ("node", "bindgen"), ("node", "rpc"),
    ("python", "native"), ("python", "component"), ("python", "component-stock"), ("python", "raw"), ("python", "rpc"),
    ("go", "native"), ("go", "raw"),
    ("java", "native"), ("java", "compiled"), ("java", "interpreted"),
    ("browser", "component"), ("browser", "raw"), ("browser", "bindgen"),
    ("node", "node-qrcode"), ("node", "qr-image"), ("python", "segno"), ("python", "python-qrcode"),
    ("go", "go-qrcode"), ("go", "barcode"),
    ("java", "zxing"), ("java", "qrcodegen"),
]
# SVG rows (op `svg`): qrglue's Node paths next to fast_qr, which makes SVG, not PNG.
SVG_ROWS = [("node", "native"), ("node", "component"), ("node", "raw"), ("node", "bindgen"), ("node", "fast_qr")]
# The other outputs (contract 0.2.0), on the reference URL: each qrglue path of a host next to its peers'
# equivalent call (node-qrcode's toString utf8, create() and toDataURL(); segno's terminal(compact=True), matrix
# and png_data_uri(); python-qrcode's print_ascii and get_matrix(), and no data-URL call, so no data-url row).
OUTPUT_OPS = ["text", "matrix", "data-url"]
OUTPUT_PEER_CALLS = {
    ("node-qrcode", "text"): "toString({type: 'utf8'})", ("node-qrcode", "matrix"): "create()",
    ("node-qrcode", "data-url"): "toDataURL()",
    ("segno", "text"): "terminal(compact=True)", ("segno", "matrix"): "make().matrix",
    ("segno", "data-url"): "png_data_uri()",
    ("python-qrcode", "text"): "print_ascii()", ("python-qrcode", "matrix"): "get_matrix()",
    ("go-qrcode", "text"): "ToSmallString(false)", ("go-qrcode", "matrix"): "Bitmap()",
}
# Rows a host may lack without the report calling them missing.
OPTIONAL_ROWS = {"component-stock"}
PEERS = {"node-qrcode", "qr-image", "fast_qr", "segno", "python-qrcode", "go-qrcode", "barcode", "zxing", "qrcodegen"}
# Each peer's options as its bench passes them (stated next to its figures; qrglue: EC level L, min-size 200, quiet zone 4).
PEER_OPTIONS = {
    "node-qrcode": "the seed article's options: EC level L, width 200, zlib level 9, RLE",
    "qr-image": "its defaults: EC level M, 5 px per module, margin 4",
    "fast_qr": "its defaults: EC level Q, margin 4, square modules in module units; SVG only",
    "go-qrcode": "skip2/go-qrcode's qrcode.Encode(text, Low, 200): EC level L, 200 px, its 4-module border, BestCompression",
    "barcode": "boombuler/barcode's qr.Encode(text, L, Auto), Scale to 200 x 200 (no quiet zone of its own), png.Encode",
    "zxing": "QRCodeWriter at EC level L, margin 4, 200 px, MatrixToImageWriter's PNG (ImageIO)",
    "qrcodegen": "EC level L, quiet zone 4, smallest integer scale reaching 200 px, a 1-bit image written by ImageIO",
}
LABELS = {"component": "component", "component-stock": "component (stock wasmtime-py glue)", "raw": "raw ABI", "native": "native (no wasm)",
          "bindgen": "wasm-bindgen", "rpc": "rpc (GET /qrcode on the axum server, keep-alive)",
          "component-thp": "component, GLIBC_TUNABLES=glibc.malloc.hugetlb=1 (own process)",
          "component-by-hand": "component, the same steps by hand with wasmtime-py (the floor)",
          "raw-by-hand": "raw, the same steps by hand with wasmtime-py (the floor)"}
# The in-process native path of each host has its own name.
HOST_LABELS = {("node", "native"): "native addon (napi-rs)", ("python", "native"): "native extension (PyO3)",
               ("go", "raw"): "raw ABI on wazero", ("go", "native"): "native (the C library through cgo)",
               ("java", "native"): "native (the C library through FFM)",
               ("java", "compiled"): "raw ABI, Chicory compiled to JVM bytecode", ("java", "interpreted"): "raw ABI, Chicory's interpreter",
               ("java", "extism"): "Extism plug-in, Extism's Chicory SDK"}


def output_golden(expected_case: dict, op: str) -> str:
    """The digest an output's row must carry, in expected.json's form: a text's UTF-8, the matrix's width and modules;
    a data URL's bench records the sha256 of the PNG it decodes to (`data:image/png;base64,` + base64 of the png)."""
    if op == "text":
        return expected_case["text_sha256"]["half-blocks"]
    if op == "matrix":
        return expected_case["matrix_sha256"]
    if op == "data-url":
        return expected_case["png_sha256"]
    raise ValueError(f"no golden digest for output {op!r}")


def label(host: str, path: str) -> str:
    return HOST_LABELS.get((host, path), LABELS.get(path, path))


# What each in-process way of bringing the Rust in buys, for "What to pick".
WHAT_IT_BUYS = {
    "native": "no wasm at all, but a compiled build per platform (OS, CPU, libc) to ship or build on install, "
              "and Rust runs unsandboxed in the host process",
    "component": "one .wasm for every platform, sandboxed (memory capped, a trap is an error), with a typed WIT contract "
                 "that generates the glue in every language",
    "raw": "one .wasm for every platform, sandboxed, with glue written and maintained by hand in each host",
    "bindgen": "one .wasm for every platform, sandboxed, with glue generated for JavaScript only (Node and browsers)",
    "rpc": "no binding at all: a Rust server in its own process (any language calls it; it scales and fails apart from yours), "
           "but a loopback round trip and HTTP parsing on every call",
}
# The sizes results actually come in: a second per-byte fit stops here, below
# the point where the allocator's behaviour changes (see the report's note).
SMALL_LIMIT = 256 * 1024


CORE_STAGES = [
    ("seed-png", "the seed article's function (qrcode + image, 8-bit, Default, NoFilter)"),
    ("encode-stock", "QR encode, qrcode's own mask choice"),
    ("encode", "QR encode, qrglue's mask scoring (same mask)"),
    ("png-stage", "PNG stage, matrix -> 1-bit PNG"),
    ("png-render", "PNG sub-stage 1, render (module rows -> packed 1-bit pixel rows)"),
    ("png-filter", "PNG sub-stage 2, filter (scanlines, None / Up repeats)"),
    ("png-deflate", "PNG sub-stage 3, deflate (qrglue's writer for this image)"),
    ("png-deflate-zlib-rs", "PNG sub-stage 3 as before, deflate (zlib-rs level 4, the tests' oracle)"),
    ("png-chunks", "PNG sub-stage 4, chunks (signature, IHDR, IDAT, IEND, CRCs)"),
    ("png", "png total (encode + PNG stage)"),
    ("png-colored", "png total, dark #336699 on transparent (2-entry palette + tRNS)"),
    ("svg", "svg total"),
]


def load_core() -> dict | None:
    """target/bench/core.json: the core's stages, natively (`just bench-core`)."""
    path = BENCH / "core.json"
    return json.loads(path.read_text()) if path.exists() else None


def load_hosts() -> dict[str, dict]:
    """Each host's results, checked against tests/bench/schema.json first: a
    harness that wrote another shape fails here, not as a wrong figure."""
    import jsonschema

    schema = json.loads((REPO / "tests" / "bench" / "schema.json").read_text())
    hosts = {}
    for name in ("rust", "node", "python", "go", "java", "browser"):
        path = BENCH / f"{name}.json"
        if path.exists():
            hosts[name] = json.loads(path.read_text())
            try:
                jsonschema.validate(hosts[name], schema)
            except jsonschema.ValidationError as error:
                sys.exit(f"{path}: not in the bench schema (tests/bench/schema.json): {error.message} at "
                         f"{'/'.join(map(str, error.absolute_path))}")
            if hosts[name]["host"] != name:
                sys.exit(f"{path}: says host {hosts[name]['host']!r}")
    return hosts


def find(host: dict, path: str, op: str, text_id=None, size=None) -> dict | None:
    for m in host.get("measurements", []):
        if m["path"] == path and m["op"] == op and (text_id is None or m.get("text_id") == text_id) and (size is None or m.get("bytes") == size):
            return m
    return None


def fit_line(points: list[tuple[float, float]]) -> tuple[float, float] | None:
    """a + b*bytes: a is the measured cost at 0 bytes (the call itself), b the
    least-squares slope of the rest through it, so a is never a negative
    artefact of fitting a 1 MiB point and a 0 B point with one line."""
    zero = [ns for b, ns in points if b == 0]
    sized = [(b, ns) for b, ns in points if b > 0]
    if not zero or not sized:
        return None
    a = zero[0]
    slope = sum(b * (ns - a) for b, ns in sized) / sum(b * b for b, _ in sized)
    return a, slope


def us(ns: float | None) -> str:
    return "—" if ns is None else f"{ns / 1000:,.1f}"


def core_stages(core: dict | None) -> list[dict]:
    if not core:
        return []
    out = []
    for op, what in CORE_STAGES:
        m = find(core, "native", op, REFERENCE)
        if m:
            out.append({"op": op, "what": what, "median_ns": m["median_ns"], "p10_ns": m["p10_ns"], "p90_ns": m["p90_ns"], "output_bytes": m.get("output_bytes")})
    return out


def build(hosts: dict[str, dict], expected: dict, core: dict | None = None) -> dict:
    golden = expected[REFERENCE]["png_sha256"]
    native = find(hosts.get("rust", {}), "native", "png", REFERENCE)
    native_ns = native["median_ns"] if native else None
    rows = []
    for host_name, path in ROWS:
        host = hosts.get(host_name)
        if not host:
            continue
        m = find(host, path, "png", REFERENCE)
        if not m:
            continue
        guest = find(host, path, "png-repeat", REFERENCE)
        peer = path in PEERS
        digest_ok = None if peer else (m.get("sha256") == golden)
        rows.append({
            "host": host_name,
            "path": path,
            "median_ns": m["median_ns"],
            "p10_ns": m["p10_ns"],
            "p90_ns": m["p90_ns"],
            "samples": m.get("samples"),
            "ratio_to_native": m["median_ns"] / native_ns if native_ns else None,
            "guest_only_ns": guest["median_ns"] if guest else None,
            "glue_ns": m["median_ns"] - guest["median_ns"] if guest else None,
            "png_bytes": m.get("output_bytes"),
            "digest_match": digest_ok,
            "peer": peer,
        })

    svg_rows = []
    for host_name, path in SVG_ROWS:
        m = find(hosts.get(host_name, {}), path, "svg", REFERENCE)
        if m:
            peer = path in PEERS
            svg_rows.append({
                "host": host_name, "path": path, "median_ns": m["median_ns"], "p10_ns": m["p10_ns"], "p90_ns": m["p90_ns"],
                "samples": m.get("samples"), "svg_bytes": m.get("output_bytes"), "peer": peer,
                "digest_match": None if peer else (m.get("sha256") == expected[REFERENCE]["svg_sha256"]),
            })

    outputs = []
    for op in OUTPUT_OPS:
        golden_output = output_golden(expected[REFERENCE], op)
        for host_name, host in hosts.items():
            for m in host.get("measurements", []):
                if m["op"] != op or m.get("text_id") != REFERENCE:
                    continue
                peer = m["path"] in PEERS
                outputs.append({
                    "host": host_name, "op": op, "path": m["path"], "median_ns": m["median_ns"], "p10_ns": m["p10_ns"],
                    "p90_ns": m["p90_ns"], "samples": m.get("samples"), "output_bytes": m.get("output_bytes"), "peer": peer,
                    "peer_call": OUTPUT_PEER_CALLS.get((m["path"], op)),
                    "digest_match": None if peer else (m.get("sha256") == golden_output),
                })

    glue = []
    for host_name, host in hosts.items():
        paths = sorted({m["path"] for m in host.get("measurements", []) if m["op"] in ("noop", "consume", "produce")})
        for path in paths:
            entry = {"host": host_name, "path": path}
            noop = find(host, path, "noop")
            entry["noop_ns"] = noop["median_ns"] if noop else None
            for op in ("consume", "produce"):
                pts = sorted((m["bytes"], m["median_ns"]) for m in host["measurements"] if m["path"] == path and m["op"] == op and m.get("bytes") is not None)
                entry[f"{op}_points"] = pts
                line = fit_line(pts)
                entry[f"{op}_fixed_ns"], entry[f"{op}_ns_per_byte"] = line if line else (None, None)
                small = fit_line([(b, ns) for b, ns in pts if b <= SMALL_LIMIT])
                entry[f"{op}_ns_per_byte_small"] = small[1] if small and max(pts)[0] > SMALL_LIMIT else None
            glue.append(entry)

    cold = []
    for host_name, host in hosts.items():
        for m in host.get("measurements", []):
            if m["op"] in ("cold-start", "cold-start-cached"):
                cold.append({"host": host_name, "path": m["path"], "cached": m["op"] == "cold-start-cached", "median_ns": m["median_ns"], "p10_ns": m["p10_ns"], "p90_ns": m["p90_ns"]})

    return {
        "reference_text_id": REFERENCE,
        "golden_png_sha256": golden,
        "machines": {name: host.get("machine") for name, host in hosts.items()},
        # The browser host (hosts/web/tools/bench.mjs) names the Chromium it drove.
        "browser_version": hosts.get("browser", {}).get("browser_version"),
        # Each host marks a QRGLUE_BENCH_QUICK run ("quick": true, or "smoke run" in its machine line).
        "quick": any(host.get("quick") or "smoke run" in (host.get("machine") or "") for host in hosts.values()),
        "png": rows,
        "svg": svg_rows,
        "outputs": outputs,
        "core_stages": core_stages(core),
        "glue": glue,
        "cold_start": cold,
        "advice": advice(rows, glue, cold, svg_rows),
    }


def in_process_choice(host: str, by: dict, glue: dict) -> str | None:
    """One sentence per host: every way of bringing the Rust in, fastest
    first, with its cost per png and per call and what it buys."""
    paths = [p for p in ("native", "raw", "component", "bindgen", "rpc") if (host, p) in by]
    if len(paths) < 2:
        return None
    paths.sort(key=lambda p: by[(host, p)]["median_ns"])
    fastest = by[(host, paths[0])]
    parts = []
    for p in paths:
        r = by[(host, p)]
        noop = glue.get((host, p), {}).get("noop_ns")
        extra = "" if p == paths[0] else f", +{us(r['median_ns'] - fastest['median_ns'])} us"
        parts.append(f"{label(host, p)} {us(r['median_ns'])} us per png{extra}"
                     + (f", {us(noop)} us per empty call" if noop is not None else "")
                     + f" ({WHAT_IT_BUYS[p]})")
    return f"**{host}**, bringing the Rust in, fastest first: " + "; ".join(parts) + "."


def go_advice(by: dict, cold: list[dict]) -> str | None:
    """Go's choice between its two paths, which differ in how the program is built as much as in speed:
    native needs cgo (a C toolchain and the Rust library per target), raw is pure Go (CGO_ENABLED=0 builds and
    cross-compiles) and compiles the module at start."""
    native, raw = by.get(("go", "native")), by.get(("go", "raw"))
    if not (native and raw):
        return None
    starts = {(c["path"], c["cached"]): c["median_ns"] for c in cold if c["host"] == "go"}
    start = lambda path, cached=False: f"{starts[(path, cached)] / 1e6:.1f} ms" if (path, cached) in starts else "not measured"
    peers = [r for r in by.values() if r["host"] == "go" and r["peer"]]
    peer = min(peers, key=lambda r: r["median_ns"], default=None)
    peer_part = (f"; Go's fastest own encoder here, {peer['path']}, takes {us(peer['median_ns'])} us "
                 f"({peer['median_ns'] / raw['median_ns']:.1f}x raw's time)") if peer else ""
    return (f"**go**: native (cgo) when every target has a C toolchain and the Rust library: {us(native['median_ns'])} us per png, "
            f"a cold start of {start('native')}; raw (wazero) when the program must stay pure Go (`CGO_ENABLED=0`, one "
            f"`go build` per target, cross-compiled): {us(raw['median_ns'])} us per png "
            f"({raw['median_ns'] / native['median_ns']:.1f}x native), a cold start of {start('raw')} "
            f"({start('raw', True)} with `QRGLUE_WAZERO_CACHE_DIR`){peer_part}.")


def advice(rows: list[dict], glue: list[dict], cold: list[dict], svg_rows: list[dict] | None = None) -> list[str]:
    """'What to pick', derived from the numbers (every sentence cites them)."""
    out = []
    by = {(r["host"], r["path"]): r for r in rows}
    glue_by = {(g["host"], g["path"]): g for g in glue}
    for host in ("node", "python", "go"):
        sentence = in_process_choice(host, by, glue_by)
        if sentence:
            out.append(sentence)
    go_choice = go_advice(by, cold)
    if go_choice:
        out.append(go_choice)
    for host in ("rust", "node", "python", "go", "browser"):
        comp, raw = by.get((host, "component")), by.get((host, "raw"))
        if comp and raw:
            ratio = comp["median_ns"] / raw["median_ns"]
            if ratio < 0.95:
                verdict = "the component is faster than the hand-written raw glue here: pick it"
            elif ratio <= 1.05:
                verdict = "the component costs the same as the raw ABI here (within 5 %): pick it for the typed contract"
            elif ratio <= 1.25:
                verdict = "the raw ABI is somewhat faster; the component is still close enough that its typed contract usually wins"
            else:
                verdict = "the raw ABI is clearly faster; pick it when calls are hot and you can own the glue"
            out.append(f"**{host}**: component {us(comp['median_ns'])} us vs raw {us(raw['median_ns'])} us per png (component/raw = {ratio:.2f}x): {verdict}.")
        peers = [r for r in rows if r["host"] == host and r["peer"]]
        best = min((r for r in rows if r["host"] == host and not r["peer"]), key=lambda r: r["median_ns"], default=None)
        for peer in peers:
            if best:
                options = f" ({PEER_OPTIONS[peer['path']]})" if peer["path"] in PEER_OPTIONS else ""
                out.append(f"**{host}**: {peer['path']}{options} takes {us(peer['median_ns'])} us and {peer['png_bytes']} B per png; qrglue's {label(host, best['path'])} path is {peer['median_ns'] / best['median_ns']:.1f}x faster at {best['png_bytes']} B.")
        svg_peers = [r for r in svg_rows or [] if r["host"] == host and r["peer"]]
        svg_ours = [r for r in svg_rows or [] if r["host"] == host and not r["peer"]]
        for peer in svg_peers:
            if svg_ours:
                fast = min(svg_ours, key=lambda r: r["median_ns"])
                wasm = min((r for r in svg_ours if r["path"] != "native"), key=lambda r: r["median_ns"], default=None)
                options = f" ({PEER_OPTIONS[peer['path']]})" if peer["path"] in PEER_OPTIONS else ""
                wasm_part = "" if wasm is None or wasm is fast else (
                    f"; its fastest wasm path, {label(host, wasm['path'])}, {peer['median_ns'] / wasm['median_ns']:.1f}x at {us(wasm['median_ns'])} us")
                out.append(f"**{host}**, SVG against SVG: {peer['path']}{options} takes {us(peer['median_ns'])} us and {peer['svg_bytes']} B per svg; "
                           f"qrglue's {label(host, fast['path'])} path is {peer['median_ns'] / fast['median_ns']:.1f}x faster at {us(fast['median_ns'])} us "
                           f"and {fast['svg_bytes']} B (EC level L){wasm_part}.")
    # The same .wasm in the browser's engine and in Node's (both V8): guest-only time per png, path by path.
    for path in ("component", "raw", "bindgen"):
        page, node = by.get(("browser", path)), by.get(("node", path))
        if page and node and page["guest_only_ns"] and node["guest_only_ns"]:
            out.append(f"**browser {label('browser', path)}**: guest-only {us(page['guest_only_ns'])} us per png in the page's worker vs "
                       f"{us(node['guest_only_ns'])} us in Node ({page['guest_only_ns'] / node['guest_only_ns']:.2f}x): the same guest in the same engine family; "
                       f"the whole call costs {us(page['median_ns'])} us vs {us(node['median_ns'])} us.")
    # Java: the three paths of one API (Engine.NATIVE, COMPILED, INTERPRETED), steady state and cold start.
    java = {p: by.get(("java", p)) for p in ("native", "compiled", "interpreted")}
    if java["native"] and java["compiled"]:
        starts = {c["path"]: c for c in cold if c["host"] == "java" and not c["cached"]}
        n, c, i = java["native"], java["compiled"], java["interpreted"]
        parts = [f"**java**: native (FFM) {us(n['median_ns'])} us per png, Chicory compiled {us(c['median_ns'])} us "
                 f"({c['median_ns'] / n['median_ns']:.0f}x)"]
        if i:
            parts.append(f", Chicory interpreted {us(i['median_ns'])} us ({i['median_ns'] / n['median_ns']:.0f}x)")
        if "native" in starts and "compiled" in starts:
            parts.append(f"; JVM start to the first PNG {starts['native']['median_ns'] / 1e6:.0f} ms native, "
                         f"{starts['compiled']['median_ns'] / 1e6:.0f} ms compiled")
        parts.append(". Pick native where hosts/c's library is built for the platform (`Engine.auto()` does), compiled "
                     "Chicory where only pure Java may run (no native code, the same bytes); the interpreter is the "
                     "fallback of last resort.")
        out.append("".join(parts))
    # One .wasm, three engines: wazero's compiler (Go) against V8 (Node) and wasmtime (Rust), guest-only time per png.
    wazero = by.get(("go", "raw"))
    if wazero and wazero["guest_only_ns"]:
        engines = [(engine, by.get((host, "raw"))) for engine, host in (("V8", "node"), ("wasmtime", "rust"))]
        against = [f"{engine}'s {us(r['guest_only_ns'])} us ({wazero['guest_only_ns'] / r['guest_only_ns']:.2f}x)"
                   for engine, r in engines if r and r["guest_only_ns"]]
        if against:
            out.append(f"**go raw** (qrglue.raw.wasm on wazero's compiler): guest-only {us(wazero['guest_only_ns'])} us per png against "
                       f"{' and '.join(against)} on the same module; the whole call costs {us(wazero['median_ns'])} us.")
    native = by.get(("rust", "native"))
    if native:
        wasm = [r for r in rows if not r["peer"] and r["path"] not in ("native", "rpc")]
        for addon in (by.get(("node", "native")), by.get(("python", "native")), by.get(("go", "native")), by.get(("java", "native"))):
            if addon:
                out.append(f"**{addon['host']}** {label(addon['host'], 'native')}: {us(addon['median_ns'])} us per png, "
                           f"{addon['ratio_to_native']:.2f}x Rust's own native call ({us(native['median_ns'])} us): what crossing into the host language costs without wasm.")
        if wasm:
            fastest = min(wasm, key=lambda r: r["median_ns"])
            out.append(f"The fastest wasm path is {fastest['host']} {fastest['path']} at {fastest['ratio_to_native']:.2f}x native ({us(native['median_ns'])} us natively): the bridge, not the guest, is what differs between hosts.")
    cached = {(c["host"], c["path"]): c for c in cold if c["cached"]}
    for c in cold:
        if not c["cached"] and (c["host"], c["path"]) in cached:
            k = cached[(c["host"], c["path"])]
            floor = cached.get((c["host"], f"{c['path']}-by-hand"))
            over_floor = (f", {(k['median_ns'] - floor['median_ns']) / 1e6:.1f} ms over the same steps done by hand with wasmtime-py "
                          f"({floor['median_ns'] / 1e6:.1f} ms, same run)") if floor else ""
            out.append(f"**{c['host']} {c['path']}** cold start: {c['median_ns'] / 1e6:.1f} ms, {k['median_ns'] / 1e6:.1f} ms with the compiled-code cache{over_floor}.")
    return out


# --- the server experiment (target/bench/http.json, `just bench-http`) -----
# Tier 0 of each host: its language's own library, or axum for the Rust and
# the wasi:http servers (no QR library is native to wasi:http).
HTTP_TIER0 = {"node": ("node", "qrcode"), "python": ("python", "segno"), "rust": ("rust", "axum"), "go": ("go", "go-qrcode"), "java": ("java", "zxing"),
              "wasi-http": ("rust", "axum")}
# The framework ceiling each tier is compared with: its own server's static tier.
HTTP_STATIC = {"wasmtime": "wasmtime-static", "wasmtime-reuse": "wasmtime-static", "jco": "jco-static",
               "qrglue": "qrglue-static", "qrglue-reuse": "qrglue-static"}


def load_http() -> dict | None:
    path = BENCH / "http.json"
    return json.loads(path.read_text()) if path.exists() else None


def http_section(http: dict) -> list[str]:
    """The experiment's table per host, absolute and relative to tier 0, with
    each tier's share of its own server's static ceiling, then the goals."""
    m = http["machine"]
    rows = http["rows"]
    by = {(r["host"], r["tier"]): r for r in rows}
    lines = ["## HTTP servers (the server experiment)", ""]
    if http.get("quick"):
        lines += ["**Quick run**: a few seconds per tier, figures indicative only.", ""]
    lines += [f"`GET /qrcode?text=<reference URL>` (tests/http/README.md), {m['load_generator']} with {m['connections']} connections "
              f"for {m['seconds_per_tier']:g} s per tier after {m['warmup_seconds']:g} s of warm-up, on 127.0.0.1; server pinned to "
              f"CPU {m['server_cpus']} with one worker, load generator to CPU {m['loadgen_cpus']} (`taskset`). "
              "Peak RSS: every process of the server, sampled every 50 ms.", ""]
    for host in HTTP_TIER0:
        host_rows = [r for r in rows if r["host"] == host]
        if not host_rows:
            continue
        tier0 = by.get(HTTP_TIER0[host])
        lines += [f"**{host}** (x tier 0 = req/s against {' '.join(HTTP_TIER0[host])})", "",
                  "| tier | req/s | x tier 0 | % of static | mean ms | p50 ms | p99 ms | max ms | non-2xx | response B | peak RSS MiB | golden |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in host_rows:
            ceiling = by.get((host, HTTP_STATIC.get(r["tier"], "static")))
            x0 = f"{r['req_per_s'] / tier0['req_per_s']:.1f}" if tier0 and tier0["req_per_s"] else "—"
            pct = f"{100 * r['req_per_s'] / ceiling['req_per_s']:.0f} %" if ceiling and ceiling["req_per_s"] and "static" not in r["tier"] else "—"
            golden = "peer" if r["peer"] else ("match" if r["digest_match"] else "**MISMATCH**")
            lines.append(f"| {r['tier']} | {r['req_per_s']:,.0f} | {x0} | {pct} | {r['mean_ns'] / 1e6:.2f} | {r['p50_ns'] / 1e6:.2f} | "
                         f"{r['p99_ns'] / 1e6:.2f} | {r['max_ns'] / 1e6:.1f} | {r['non_2xx']} | {r['response_bytes']} | "
                         f"{r['peak_rss_bytes'] / 2**20:.1f} | {golden} |")
        lines.append("")
    lines += ["Goals, on this run:", ""] + [f"- {g}" for g in http_goals(by)] + [""]
    return lines


def http_goals(by: dict) -> list[str]:
    out = []
    rate = lambda h, t: by[(h, t)]["req_per_s"] if (h, t) in by else None
    qrglue_node = [t for t in ("cli", "component", "raw", "bindgen", "native") if (("node", t)) in by]
    if rate("node", "qrcode") and qrglue_node:
        worst = min(qrglue_node, key=lambda t: rate("node", t))
        x = rate("node", worst) / rate("node", "qrcode")
        out.append(f"every qrglue tier in Node ≥ 30x node-qrcode: slowest is {worst} at {x:.1f}x ({'met' if x >= 30 else 'missed'})")
    qrglue_py = [t for t in ("cli", "component", "raw", "native") if ("python", t) in by]
    if rate("python", "segno") and qrglue_py:
        worst = min(qrglue_py, key=lambda t: rate("python", t))
        x = rate("python", worst) / rate("python", "segno")
        out.append(f"every qrglue tier in Python ≥ 10x segno: slowest is {worst} at {x:.1f}x ({'met' if x >= 10 else 'missed'})")
    axum = rate("rust", "axum")
    in_process = [t for t in ("component", "raw", "bindgen", "native") if ("node", t) in by]
    if axum and in_process:
        best = max(in_process, key=lambda t: rate("node", t))
        share = rate("node", best) / axum
        out.append(f"best in-process Node tier ≥ 70 % of axum: {best} at {100 * share:.0f} % ({'met' if share >= 0.7 else 'missed'})")
    # Our own server's goals are issue 23's: fresh ≥ 40 %, reuse ≥ 80 % of axum.
    for tier, goal in (("wasmtime-reuse", 0.6), ("wasmtime", 0.4), ("qrglue-reuse", 0.8), ("qrglue", 0.4)):
        if axum and rate("wasi-http", tier):
            share = rate("wasi-http", tier) / axum
            out.append(f"{tier} ≥ {100 * goal:.0f} % of axum: {100 * share:.0f} % ({'met' if share >= goal else 'missed'})")
    # Issue 41: the wasmCloud lattice behind the balancer ≥ 10x wash dev's 121
    # req/s (2026-11-26) per host. Every process of a tier shares the server's
    # one core, so only the one-host row is a per-host figure; the two-host
    # row is per core (two hosts and nginx splitting it), never divided by 2.
    share = lambda r, name: sum((r.get("cpu_share_by_process") or {}).get(name, []))
    if (one := by.get(("wasi-http", "lattice-1host"))) is not None:
        x = one["req_per_s"] / 121
        # On a machine others load too the tier gets only part of its core: req/s
        # per CPU-second its processes got is what a whole core would give.
        used = sum(sum(c) for c in (one.get("cpu_share_by_process") or {}).values())
        whole = f"; per CPU-second used {one['req_per_s'] / used:,.0f}, {one['req_per_s'] / used / 121:.1f}x" if used else ""
        out.append(f"wasmCloud lattice ≥ 10x wash dev's 121 req/s per host: one wash host behind nginx serves "
                   f"{one['req_per_s']:,.0f} req/s on the server's core, {x:.1f}x (core shares: wash "
                   f"{share(one, 'wash'):.2f}, nginx {share(one, 'nginx'):.2f}{whole}) ({'met' if x >= 10 else 'missed'})")
    if (two := by.get(("wasi-http", "lattice"))) is not None:
        wash = (two.get("peak_rss_bytes_by_process") or {}).get("wash", [])
        rss = f"; peak RSS per wash host {', '.join(f'{b / 2**20:.0f}' for b in sorted(wash))} MiB" if wash else ""
        out.append(f"the tested two-host lattice on that same one core: {two['req_per_s']:,.0f} req/s for both hosts "
                   f"and nginx together, per core, not per host (core shares: wash "
                   f"{' + '.join(f'{c:.2f}' for c in (two.get('cpu_share_by_process') or {}).get('wash', []))}, "
                   f"nginx {share(two, 'nginx'):.2f}){rss}")
    below = []
    for (host, tier), r in by.items():
        ceiling = by.get((host, HTTP_STATIC.get(tier, "static")))
        if r["peer"] or "static" in tier or tier == "cli" or not ceiling:
            continue
        if r["req_per_s"] < 0.5 * ceiling["req_per_s"]:
            below.append(f"{host} {tier} ({100 * r['req_per_s'] / ceiling['req_per_s']:.0f} %)")
    out.append("every in-process qrglue tier ≥ 50 % of its own server's static ceiling: "
               + ("met" if not below else "missed by " + ", ".join(below)))
    return out


def markdown(report: dict) -> str:
    lines = ["# qrglue benchmark report", ""]
    if report["quick"]:
        lines += ["**Quick run** (smoke test): few samples, figures are indicative only.", ""]
    lines += [f"`png` on the reference URL (`{REFERENCE}`), per call, medians with p10–p90 over interleaved rounds, one process per host.", ""]
    lines += ["| host | path | median us | p10–p90 us | x native | guest-only us | glue us | PNG bytes | golden digest |", "|---|---|---|---|---|---|---|---|---|"]
    for r in report["png"]:
        ratio = "—" if r["ratio_to_native"] is None else f"{r['ratio_to_native']:.2f}"
        digest = "peer (own encoder)" if r["peer"] else ("match" if r["digest_match"] else "**MISMATCH**")
        lines.append(f"| {r['host']} | {label(r['host'], r['path'])} | {us(r['median_ns'])} | {us(r['p10_ns'])}–{us(r['p90_ns'])} | {ratio} | {us(r['guest_only_ns'])} | {us(r['glue_ns'])} | {r['png_bytes']} | {digest} |")
    lines += ["", "Glue = host-side time per png minus the guest-only time per png (`png-repeat`) on the same path.", ""]
    if report.get("svg"):
        lines += [f"`svg` on the reference URL (`{REFERENCE}`), same method: qrglue's Node paths (EC level L, quiet zone 4) and fast_qr "
                  f"({PEER_OPTIONS['fast_qr']}), which makes SVG, not PNG.", ""]
        lines += ["| host | path | median us | p10–p90 us | SVG bytes | golden digest |", "|---|---|---|---|---|---|"]
        for r in report["svg"]:
            digest = "peer (own encoder)" if r["peer"] else ("match" if r["digest_match"] else "**MISMATCH**")
            lines.append(f"| {r['host']} | {label(r['host'], r['path'])} | {us(r['median_ns'])} | {us(r['p10_ns'])}–{us(r['p90_ns'])} | {r['svg_bytes']} | {digest} |")
        lines.append("")
    if report.get("outputs"):
        lines += ["## The other outputs against the peers' equivalent calls", "",
                  f"`text` (half blocks, quiet zone 4), `matrix` (the modules, no quiet zone) and `data-url` "
                  f"(the png as `data:image/png;base64,…`, its golden digest the decoded PNG's) on the reference "
                  f"URL (`{REFERENCE}`), EC level L, same method; each peer's call named (python-qrcode has no "
                  f"data-URL call).", ""]
        lines += ["| host | output | path | median us | p10–p90 us | x fastest qrglue path | golden digest |", "|---|---|---|---|---|---|---|"]
        for host in dict.fromkeys(r["host"] for r in report["outputs"]):
            for op in OUTPUT_OPS:
                group = [r for r in report["outputs"] if r["host"] == host and r["op"] == op]
                ours = [r for r in group if not r["peer"]]
                fastest = min((r["median_ns"] for r in ours), default=None)
                for r in sorted(group, key=lambda r: (r["peer"], r["median_ns"])):
                    name = f"{r['path']} {r['peer_call']}" if r["peer"] else label(host, r["path"])
                    ratio = f"{r['median_ns'] / fastest:.1f}" if fastest else "—"
                    digest = "peer (own encoder)" if r["peer"] else ("match" if r["digest_match"] else "**MISMATCH**")
                    lines.append(f"| {host} | {op} | {name} | {us(r['median_ns'])} | {us(r['p10_ns'])}–{us(r['p90_ns'])} | {ratio} | {digest} |")
        lines.append("")
    if report["core_stages"]:
        lines += ["## Where the guest's time goes (native, no wasm)", "", "| stage | median us | p10–p90 us | bytes |", "|---|---|---|---|"]
        for c in report["core_stages"]:
            lines.append(f"| {c['what']} | {us(c['median_ns'])} | {us(c['p10_ns'])}–{us(c['p90_ns'])} | {c['output_bytes'] or '—'} |")
        stage = {c["op"]: c for c in report["core_stages"]}
        if "png" in stage and "png-colored" in stage:
            lines += ["", f"Colours cost: the coloured, transparent png takes {stage['png-colored']['median_ns'] / stage['png']['median_ns']:.2f}x "
                      f"the plain one's time (same rounds, interleaved) for {stage['png-colored']['output_bytes']} B against {stage['png']['output_bytes']} B."]
        lines.append("")
    lines += ["## Glue decomposition", "", "Fixed cost per call (`noop`) and the cost per byte of lowering (`consume`) and lifting (`produce`), fitted as a + b·bytes over 0 B .. 1 MiB (a: the measured 0-byte call; b: least-squares slope). `produce` includes the guest's own work of filling the bytes, which the rust native row shows alone.", ""]
    lines += ["| host | path | noop us | lowering a us | lowering ns/byte | ns/byte ≤ 256 KiB | lifting a us | lifting ns/byte | ns/byte ≤ 256 KiB |", "|---|---|---|---|---|---|---|---|---|"]
    nb = lambda v: "—" if v is None else f"{v:.3f}"
    for g in report["glue"]:
        lines.append(f"| {g['host']} | {label(g['host'], g['path'])} | {us(g['noop_ns'])} | {us(g['consume_fixed_ns'])} | {nb(g['consume_ns_per_byte'])} | {nb(g['consume_ns_per_byte_small'])} | {us(g['produce_fixed_ns'])} | {nb(g['produce_ns_per_byte'])} | {nb(g['produce_ns_per_byte_small'])} |")
    lines += ["", "The ≤ 256 KiB columns fit only the points up to 256 KiB (shown when the run went past it)."]
    glue = {(g["host"], g["path"]): g for g in report["glue"]}
    default, thp = glue.get(("python", "component")), glue.get(("python", "component-thp"))
    if default and thp and default["produce_ns_per_byte"] and thp["produce_ns_per_byte"]:
        lines += ["", f"Python lifting, fast glue: {nb(default['produce_ns_per_byte'])} ns/byte over 0 B .. 1 MiB with glibc's defaults, "
                  f"{nb(thp['produce_ns_per_byte'])} ns/byte in a process started with glibc's THP tunable"
                  + (f", {nb(default['produce_ns_per_byte_small'])} ns/byte up to 256 KiB" if default["produce_ns_per_byte_small"] else "")
                  + ". wasmtime's C API lifts a list<u8> into one 40-byte Rust `Val` per byte before our glue sees it; past ~800 KiB that "
                  "temporary is larger than glibc's largest mmap threshold (32 MiB), so every call maps fresh 4 KiB pages and faults on each, "
                  "unless malloc's mappings get huge pages. The THP row is a different process, so compare its per-byte slope, not its fixed costs."]
    if report["cold_start"]:
        lines += ["", "## Cold start", "", "Import + compile + instantiate + first call, in a fresh process.", ""]
        lines += ["| host | path | compiled-code cache | median ms | p10–p90 ms |", "|---|---|---|---|---|"]
        for c in report["cold_start"]:
            lines.append(f"| {c['host']} | {label(c['host'], c['path'])} | {'yes' if c['cached'] else 'no'} | {c['median_ns'] / 1e6:.1f} | {c['p10_ns'] / 1e6:.1f}–{c['p90_ns'] / 1e6:.1f} |")
    if report.get("http"):
        lines += [""] + http_section(report["http"])
    lines += [""] + engine_table.section(report.get("engines", []), {"cold": report.get("engines_extism_cold", [])}, us)
    lines += [""] + extism_report.section(report.get("extism", []), us)
    # The decision first, as report.html shows it (report_html.decision: one sentence and one table per host);
    # the reasoning behind each host's figures after it.
    lines += ["", "## What to pick", ""] + report_html.decision_markdown(report, label)
    lines += ["## Why: what each path's figures say", ""] + [f"- {a}" for a in report["advice"]]
    lines += ["", "## Machine", ""] + [f"- {h}: {m}" for h, m in report["machines"].items()]
    if report.get("browser_version"):
        lines.append(f"- browser version: {report['browser_version']} (headless, driven by playwright-core from hosts/web/tools/bench.mjs)")
    return "\n".join(lines) + "\n"


def chart(report: dict, out: Path) -> None:
    """report.svg: one panel per experiment, stacked, one single-line label
    per row (`host · path`), each panel as tall as its rows need, so that no
    two labels overlap (hosts/web/tests/report-svg.test.mjs renders it in
    Chromium and checks every text box). Text stays text (svg.fonttype none),
    so a reader can search and copy it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.fonttype"] = "none"
    rows = [r for r in report["png"] if r["host"] != "browser"]
    browser = [r for r in report["png"] if r["host"] == "browser"]
    http = (report.get("http") or {}).get("rows") or []
    # (kind, rows, height in inches)
    panels: list[tuple[str, list[dict], float]] = [("png", rows, 0.8 + 0.26 * len(rows))]
    if browser:
        panels.append(("browser", browser, 0.8 + 0.26 * len(browser)))
    panels += [("consume", report["glue"], 3.2), ("produce", report["glue"], 3.2)]
    if http:
        panels.append(("http", http, 0.8 + 0.26 * len(http)))
    heights = [h for _, _, h in panels]
    fig, axes = plt.subplots(len(panels), 1, figsize=(11, sum(heights) + 0.6 * len(panels)),
                             gridspec_kw={"height_ratios": heights})
    for axis, (kind, data, _) in zip(axes, panels):
        if kind in ("png", "browser"):
            labels = [f"{r['host']} · {label(r['host'], r['path'])}" for r in data]
            med = [r["median_ns"] / 1000 for r in data]
            err = [[(r["median_ns"] - r["p10_ns"]) / 1000 for r in data],
                   [(r["p90_ns"] - r["median_ns"]) / 1000 for r in data]]
            axis.barh(range(len(data)), med, xerr=err, color=["#999" if r["peer"] else "#3b7dd8" for r in data])
            axis.set_yticks(range(len(data)), labels, fontsize=8)
            axis.set_xscale("log")
            axis.invert_yaxis()
            axis.set_xlabel("us per png (log), p10–p90 whiskers; grey: the libraries people use today", fontsize=8)
            axis.set_title("png on the reference URL, in process" if kind == "png"
                           else "png on the reference URL, in the browser (the page's worker)", fontsize=10)
        elif kind in ("consume", "produce"):
            for g in data:
                pts = [(b, ns) for b, ns in g[f"{kind}_points"] if b > 0]
                if pts:
                    axis.plot([b for b, _ in pts], [ns / 1000 for _, ns in pts], marker="o", markersize=3,
                              label=f"{g['host']} · {g['path']}")
            axis.set_xscale("log")
            axis.set_yscale("log")
            axis.set_xlabel("bytes", fontsize=8)
            axis.set_ylabel("us per call", fontsize=8)
            axis.set_title("lowering bytes into the guest (consume)" if kind == "consume"
                           else "lifting bytes out of the guest (produce)", fontsize=10)
            # Outside the axes, in columns: the legend never covers a curve or another label.
            axis.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
        else:
            colors = ["#999" if r["peer"] else ("#f0a030" if "static" in r["tier"] else "#3b7dd8") for r in data]
            axis.barh(range(len(data)), [r["req_per_s"] for r in data], color=colors)
            axis.set_yticks(range(len(data)), [f"{r['host']} · {r['tier']}" for r in data], fontsize=8)
            axis.invert_yaxis()
            axis.set_xlabel("requests per second, server on 1 core; orange: each server's static ceiling "
                            "(no work), grey: peer libraries", fontsize=8)
            axis.set_title("GET /qrcode, the server experiment", fontsize=10)
        axis.tick_params(axis="x", labelsize=7)
    fig.tight_layout()
    fig.savefig(out, format="svg")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-chart", action="store_true", help="skip report.svg (no matplotlib)")
    parser.add_argument("--chart", nargs=2, type=Path, metavar=("REPORT_JSON", "OUT_SVG"),
                        help="only draw the chart of an existing report.json (the chart's test does)")
    parser.add_argument("--html", nargs=2, type=Path, metavar=("REPORT_JSON", "OUT_HTML"),
                        help="only write the page of an existing report.json (the page's test does)")
    args = parser.parse_args()
    if args.chart:
        chart(json.loads(args.chart[0].read_text()), args.chart[1])
        return 0
    if args.html:
        report_html.write(json.loads(args.html[0].read_text()), args.html[1], label, PEER_OPTIONS)
        return 0
    hosts = load_hosts()
    http = load_http()
    if not hosts and not http:
        print("no target/bench/{rust,node,python,go,browser,http}.json: run the benchmarks first", file=sys.stderr)
        return 1
    expected = json.loads((REPO / "tests" / "vectors" / "expected.json").read_text())
    report = build(hosts, expected, load_core())
    report["http"] = http
    # The Extism section (tests/bench/extism_report.py), when `just bench-extism` wrote its files.
    report["extism"] = extism_report.build(extism_report.load(BENCH), expected[REFERENCE]["png_sha256"], fit_line)
    engines = engine_table.load(BENCH)
    report["engines"] = engine_table.build(hosts, engines, expected[REFERENCE]["png_sha256"], find)
    report["engines_extism_cold"] = [r for r in (engines or {}).get("cold", []) if r["engine"].startswith("Extism")]
    engine_advice = engine_table.advice(report["engines"])
    if engine_advice:
        report["advice"].append(engine_advice)
    extism_advice = extism_report.advice(report["extism"])
    if extism_advice:
        report["advice"].append(extism_advice)
    (BENCH / "report.json").write_text(json.dumps(report, indent=1) + "\n")
    md = markdown(report)
    (BENCH / "report.md").write_text(md)
    if not args.no_chart:
        chart(report, BENCH / "report.svg")
        report_html.write(report, BENCH / "report.html", label, PEER_OPTIONS)
    print(md)
    missing = [f"{h} {p}" for h, p in ROWS if h in hosts and not any(r["host"] == h and r["path"] == p for r in report["png"]) and p not in OPTIONAL_ROWS]
    mismatched = [f"{r['host']} {r['path']}" for r in report["png"] if r["digest_match"] is False]
    mismatched += [f"{r['host']} {r['path']} svg" for r in report["svg"] if r["digest_match"] is False]
    mismatched += [f"{r['host']} {r['path']} {r['op']}" for r in report.get("outputs", []) if r["digest_match"] is False]
    mismatched += [f"{r['host']} {r['path']} (extism bench)" for r in report.get("extism", []) if r["digest_match"] is False]
    mismatched += [f"{r['engine']} (engine table)" for r in report.get("engines", []) if r["digest_match"] is False]
    if missing:
        print(f"rows missing from the host results: {', '.join(missing)}", file=sys.stderr)
    if mismatched:
        print(f"DIGEST MISMATCH: {', '.join(mismatched)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
