"""The report's Extism section: target/bench/extism-{go,node,python}.json
(`just bench-extism`: each host's raw path and its Extism path, interleaved
in one process) as a table next to each other, and the "What to pick"
paragraph built from it. Imported by report.py; nothing here is
hand-written about speed: every figure and ratio comes from those files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

HOSTS = ["go", "node", "python"]
FitLine = Callable[[list[tuple[float, float]]], "tuple[float, float] | None"]


def load(bench: Path) -> dict[str, dict]:
    files = {h: json.loads((bench / f"extism-{h}.json").read_text()) for h in HOSTS if (bench / f"extism-{h}.json").exists()}
    # Java's pair comes from JavaBench's forks (target/bench/java.json, `just bench-java`): the raw ABI on
    # Chicory's build-time compiler and guest/extism through Extism's Chicory SDK, the same forks and counts
    # (no png-repeat nor per-byte probes there).
    java = bench / "java.json"
    if java.exists():
        data = json.loads(java.read_text())
        rename = {"compiled": "raw", "extism": "extism"}
        measurements = [{**m, "path": rename[m["path"]]} for m in data["measurements"] if m["path"] in rename]
        if any(m["path"] == "extism" for m in measurements):
            files["java"] = {"measurements": measurements, "quick": data.get("quick"),
                             "engines": "raw: Chicory 1.7.5 compiled at build time; extism: org.extism.sdk:chicory-sdk-core "
                                        "0.3.0 on the same Chicory, compiled at run time (both qrglue's nosimd builds)"}
    return files


def _find(host: dict, path: str, op: str, size: int | None = None) -> dict | None:
    return next((m for m in host["measurements"] if m["path"] == path and m["op"] == op
                 and (size is None or m.get("bytes") == size)), None)


def build(files: dict[str, dict], expected_png_sha256: str, fit_line: FitLine) -> list[dict]:
    """One row per (host, path): png on the reference URL (its digest checked),
    guest-only per png, noop, and the a + b·bytes fits of consume and produce."""
    rows = []
    for host, data in files.items():
        for path in ("raw", "extism"):
            png, repeat, noop = (_find(data, path, op) for op in ("png", "png-repeat", "noop"))
            if png is None:
                continue
            fits = {}
            for op in ("consume", "produce"):
                points = [(m["bytes"], m["median_ns"]) for m in data["measurements"] if m["path"] == path and m["op"] == op]
                fits[op] = fit_line(points)
            rows.append({
                "host": host, "path": path, "engines": data.get("engines"), "quick": data.get("quick"),
                "png_ns": png["median_ns"], "png_p10_ns": png["p10_ns"], "png_p90_ns": png["p90_ns"],
                "digest_match": png.get("sha256") == expected_png_sha256,
                "guest_only_ns": repeat["median_ns"] if repeat else None,
                "noop_ns": noop["median_ns"] if noop else None, "noop_p10_ns": noop["p10_ns"] if noop else None,
                "noop_p90_ns": noop["p90_ns"] if noop else None,
                "consume_ns_per_byte": fits["consume"][1] if fits["consume"] else None,
                "produce_ns_per_byte": fits["produce"][1] if fits["produce"] else None,
            })
    return rows


def section(rows: list[dict], us: Callable[[float | None], str]) -> list[str]:
    if not rows:
        return []
    lines = ["## Extism against the hand-written raw ABI", "",
             "The same core behind two boundaries on each host, interleaved in one process (`just bench-extism`): "
             "`raw` is qrglue.raw.wasm with the host's hand-written glue, `extism` is guest/extism (extism-pdk) "
             "through the host's Extism SDK (guest/extism/README.md). png on the reference URL per call; guest-only = "
             "`png-repeat` per png; per-byte = the slope of `consume` (into the guest) and `produce` (out of it) over "
             "the payload sizes. Node's two paths are both awaited per call (the SDK is asynchronous), so its raw "
             "noop here is above the main table's.", "",
             "| host | path | png us (p10–p90) | x raw | guest-only us | noop us (p10–p90) | in ns/byte | out ns/byte | golden digest |",
             "|---|---|---|---|---|---|---|---|---|"]
    raw = {r["host"]: r for r in rows if r["path"] == "raw"}
    nb = lambda v: "—" if v is None else f"{v:.3f}"  # noqa: E731
    for r in rows:
        base = raw.get(r["host"])
        ratio = f"{r['png_ns'] / base['png_ns']:.2f}" if base else "—"
        lines.append(f"| {r['host']} | {r['path']} | {us(r['png_ns'])} ({us(r['png_p10_ns'])}–{us(r['png_p90_ns'])}) | {ratio} "
                     f"| {us(r['guest_only_ns'])} | {us(r['noop_ns'])} ({us(r['noop_p10_ns'])}–{us(r['noop_p90_ns'])}) "
                     f"| {nb(r['consume_ns_per_byte'])} | {nb(r['produce_ns_per_byte'])} "
                     f"| {'match' if r['digest_match'] else '**MISMATCH**'} |")
    engines = {r["host"]: r["engines"] for r in rows if r["engines"]}
    lines += [""] + [f"- {h}: {e}" for h, e in engines.items()] + [""]
    return lines


def advice(rows: list[dict]) -> str | None:
    """The Extism paragraph of "What to pick", from the rows."""
    pairs = [(r, next((x for x in rows if x["host"] == r["host"] and x["path"] == "raw"), None))
             for r in rows if r["path"] == "extism"]
    pairs = [(e, r) for e, r in pairs if r]
    if not pairs:
        return None
    per_host = "; ".join(
        f"{e['host']} {e['png_ns'] / r['png_ns']:.2f}x the raw png ({e['png_ns'] / 1000:.0f} against {r['png_ns'] / 1000:.0f} us), "
        f"noop {e['noop_ns'] / 1000:.1f} against {r['noop_ns'] / 1000:.2f} us"
        + (f", the render {100 * e['guest_only_ns'] / e['png_ns']:.0f} % of its png call" if e["guest_only_ns"] else "")
        + (f", {e['consume_ns_per_byte']:.2f} against {r['consume_ns_per_byte']:.3f} ns per byte in"
           if e["consume_ns_per_byte"] is not None and r["consume_ns_per_byte"] is not None else "")
        for e, r in pairs)
    return ("Extism or the hand-written raw ABI: Extism's PDK and SDKs replace the per-host alloc/pointer glue (one input, "
            "one output, errors as strings: guest/extism/README.md), and give byte-identical output on every corpus case "
            f"here; the price, measured in one process per host: {per_host}. Its fixed cost per call (the SDK's call "
            "context, the kernel's input and output blocks) and its per-byte copy through the kernel dominate small calls "
            "and large payloads (the JS and Go SDKs move bytes through host-function calls, tens of ns a byte). Own the raw glue "
            "where the per-call cost matters (a hot path, large payloads) and the hosts are few; take Extism where "
            "plug-ins come from others or the host languages are many and a few tens of microseconds a call do not matter.")
