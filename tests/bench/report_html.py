"""target/bench/report.html: the report a person reads in a minute.

One self-contained page (inline SVG charts drawn by matplotlib with their text
kept as text, no script, nothing loaded from the network), written by
report.py next to report.md and report.json from the same report dict:

1. the decision: per host language, a table of its paths (png us, x that
   host's native call, glue us, cold start, what it ships, sandboxed, typed
   contract) under a one-sentence recommendation computed from the rows;
2. per host, a linear bar chart of png time split into the guest's own time
   and the glue, the native call marked;
3. the byte-scaling fits as small multiples, one chart per host;
4. the server experiment: req/s per tier per host with each server's static
   ceiling, and the seed article's table (throughput, mean and p99 latency,
   response size, memory, each relative to tier 0, the host's peer library);
5. the engine table and the peers.

hosts/web/tests/report-html.test.mjs renders it in Chromium (no overlapping
text, every chart titled with axis labels, no console error, no request).
"""

from __future__ import annotations

import html
import io
from pathlib import Path

# What each kind of path ships, whether the Rust runs sandboxed, and what
# types the caller's side of the bridge (stated once, for the decision table).
PATH_TRAITS = {
    "native": ("a compiled build per platform", "no", "the addon's own signatures"),
    "component": ("one .wasm for every platform", "yes", "WIT, glue generated"),
    "component-stock": ("one .wasm for every platform", "yes", "WIT, glue generated"),
    "raw": ("one .wasm for every platform", "yes", "hand-written ABI (guest/raw/ABI.md)"),
    "bindgen": ("one .wasm, JavaScript only", "yes", "wasm-bindgen's generated JS"),
    "compiled": ("one .wasm for every platform", "yes", "hand-written ABI (guest/raw/ABI.md)"),
    "interpreted": ("one .wasm for every platform", "yes", "hand-written ABI (guest/raw/ABI.md)"),
    "rpc": ("a server beside the app", "process boundary", "HTTP query (tests/http)"),
}
# Where a host's native path differs from an addon's.
HOST_TRAITS = {
    ("rust", "native"): ("compiled into your binary (a crate)", "no", "the crate's Rust API"),
    ("go", "native"): ("a compiled C library per platform (cgo)", "no", "the C ABI (hosts/c, cbindgen header)"),
    ("java", "native"): ("a compiled C library per platform (in the jar)", "no", "the C ABI (hosts/c, FFM downcalls)"),
}
HOST_NAMES = {"rust": "Rust", "node": "Node", "python": "Python", "go": "Go", "java": "Java", "browser": "Browser"}
# Tier 0 of the seed article's table per host: the peer library's server (Rust has none: axum, as report.md).
TIER0 = {"rust": "axum", "node": "qrcode", "python": "segno", "go": "go-qrcode", "java": "zxing"}
GUEST = "#3b7dd8"
GLUE = "#f0a030"
PEER = "#999999"


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _us(ns: float | None) -> str:
    return "–" if ns is None else f"{ns / 1000:,.1f}"


def _svg(fig) -> str:  # type: ignore[no-untyped-def]
    """The figure as an inline <svg> in a <figure class=chart> whose data-texts
    lists each axes' title and axis labels: the page's test checks that each
    one is drawn as text in its chart."""
    import json

    import matplotlib.pyplot as plt

    required = [t for ax in fig.axes if ax.get_title() for t in (ax.get_title(), ax.get_xlabel(), ax.get_ylabel())]
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    text = buf.getvalue()
    return f"<figure class=chart data-texts='{_e(json.dumps(required))}'>{text[text.index('<svg'):]}</figure>"


def _cold(report: dict, host: str, path: str) -> float | None:
    rows = [c for c in report.get("cold_start") or [] if c["host"] == host and c["path"] == path]
    uncached = [c for c in rows if not c["cached"]] or rows
    return uncached[0]["median_ns"] if uncached else None


def glue_cell(ns: float | None) -> str:
    # The guest's own work is timed in its own loop; where that exceeds the
    # whole call (noise, or a runtime that optimises the loop), no glue figure.
    return "–" if ns is None or ns < 0 else _us(ns)


def decision(report: dict, host: str, label) -> tuple[str, list[list[str]]]:  # type: ignore[no-untyped-def]
    """(one-sentence recommendation, table cells) for one host's own paths:
    the same decision in report.html and in report.md's "What to pick"."""
    rows = [r for r in report["png"] if r["host"] == host and not r["peer"]]
    native = next((r for r in rows if r["path"] == "native"), None)
    wasm = [r for r in rows if PATH_TRAITS.get(r["path"], ("", "", ""))[1] == "yes"]
    table = []
    for r in sorted(rows, key=lambda r: r["median_ns"]):
        ships, sandboxed, contract = HOST_TRAITS.get((host, r["path"])) or PATH_TRAITS.get(r["path"], ("?", "?", "?"))
        times = f"{r['median_ns'] / native['median_ns']:.2f}×" if native else "–"
        cold = _cold(report, host, r["path"])
        table.append([label(host, r["path"]), f"{_us(r['median_ns'])} ({_us(r['p10_ns'])}–{_us(r['p90_ns'])})", times,
                      glue_cell(r.get("glue_ns")), "–" if cold is None else f"{cold / 1e6:,.0f} ms",
                      ships, sandboxed, contract])
    if not rows:
        return "", table
    best_wasm = min(wasm, key=lambda r: r["median_ns"]) if wasm else None
    peers = [r for r in report["png"] if r["host"] == host and r["peer"]]
    sentence = []
    if native and best_wasm:
        sentence.append(f"Pick {label(host, best_wasm['path'])} for one sandboxed .wasm on every platform "
                        f"({_us(best_wasm['median_ns'])} us a png, {best_wasm['median_ns'] / native['median_ns']:.2f}× "
                        f"the native call's {_us(native['median_ns'])} us); pick native only where a build per "
                        "platform is acceptable and the Rust may run unsandboxed")
    elif best_wasm:
        sentence.append(f"Pick {label(host, best_wasm['path'])} ({_us(best_wasm['median_ns'])} us a png)")
    elif native:
        sentence.append(f"The native call is the only in-process path measured here ({_us(native['median_ns'])} us)")
    if peers:
        fastest_peer = min(peers, key=lambda r: r["median_ns"])
        ours = best_wasm or native
        ratio = fastest_peer["median_ns"] / ours["median_ns"]
        sentence.append(f"; {label(host, ours['path'])} is " + (f"{ratio:.1f}× faster than" if ratio >= 1 else
                        f"{1 / ratio:.1f}× slower than") + f" {fastest_peer['path']}, the fastest library measured here")
    return "".join(sentence) + ".", table


DECISION_HEADER = ["path", "png us (p10–p90)", "× native", "glue us", "cold start", "ships", "sandboxed", "typed contract"]


def decision_markdown(report: dict, label) -> list[str]:  # type: ignore[no-untyped-def]
    """report.md's "What to pick": per host, the sentence and the table."""
    lines: list[str] = []
    for host in HOST_NAMES:
        sentence, table = decision(report, host, label)
        if not table:
            continue
        lines += [f"**{HOST_NAMES[host]}.** {sentence}", "", "| " + " | ".join(DECISION_HEADER) + " |",
                  "|" + "---|" * len(DECISION_HEADER)]
        lines += ["| " + " | ".join(cells) + " |" for cells in table] + [""]
    return lines


def png_chart(report: dict, host: str, label) -> str:  # type: ignore[no-untyped-def]
    """Linear bars: guest-only time and glue stacked, peers grey, the native call marked."""
    import matplotlib.pyplot as plt

    # qrglue's own paths only: the peers (10-100x slower) would flatten them; they have their own table.
    rows = sorted((r for r in report["png"] if r["host"] == host and not r["peer"]), key=lambda r: r["median_ns"])
    if not rows:
        return ""
    fig, ax = plt.subplots(figsize=(9, 0.9 + 0.32 * len(rows)))
    ys = range(len(rows))
    guest = [(r.get("guest_only_ns") or 0) / 1000 for r in rows]
    whole = [r["median_ns"] / 1000 for r in rows]
    guest = [min(g, w) for g, w in zip(guest, whole)]  # a guest loop timed above its whole call: all guest
    glue = [w - g if g else 0 for w, g in zip(whole, guest)]
    rest = [w if not g else 0 for w, g in zip(whole, guest)]
    # Only the kinds of bar this host has get a legend entry.
    if any(guest):
        ax.barh(ys, guest, color=GUEST, label="the guest's own work (png_repeat per png)")
    if any(glue):
        ax.barh(ys, glue, left=guest, color=GLUE, label="glue: crossing the bridge")
    if any(rest):
        ax.barh(ys, rest, color=PEER, label="whole call (no split measured)")
    native = next((r for r in rows if r["path"] == "native" and not r["peer"]), None)
    if native:
        ax.axvline(native["median_ns"] / 1000, color="#222", linestyle="--", linewidth=1,
                   label=f"native call, {_us(native['median_ns'])} us")
    ax.set_yticks(list(ys), [label(host, r["path"]) for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("microseconds per png (linear)", fontsize=8)
    ax.set_ylabel("path", fontsize=8)
    ax.set_title(f"{HOST_NAMES.get(host, host)}: png on the reference URL", fontsize=10)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    ax.tick_params(axis="x", labelsize=7)
    fig.tight_layout()
    return _svg(fig)


def bytes_charts(report: dict) -> str:
    """Small multiples: per host, lowering (consume) and lifting (produce) cost against bytes."""
    import matplotlib.pyplot as plt

    from matplotlib.ticker import NullFormatter

    # Hosts with at least one measured point; one colour per path in every chart.
    hosts = sorted({g["host"] for g in report.get("glue") or []
                    if any(b > 0 for k in ("consume_points", "produce_points") for b, _ in g.get(k) or [])},
                   key=list(HOST_NAMES).index)
    paths = sorted({g["path"] for g in report.get("glue") or []})
    colour = {p: plt.get_cmap("tab10")(i % 10) for i, p in enumerate(paths)}
    out = []
    for host in hosts:
        glue = [g for g in report["glue"] if g["host"] == host]
        fig, axes = plt.subplots(1, 2, figsize=(9, 2.6))
        for ax, kind in zip(axes, ("consume", "produce")):
            for g in glue:
                pts = [(b, ns) for b, ns in g.get(f"{kind}_points") or [] if b > 0]
                if pts:
                    ax.plot([b for b, _ in pts], [ns / 1000 for _, ns in pts], marker="o", markersize=3,
                            label=g["path"], color=colour[g["path"]])
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.yaxis.set_minor_formatter(NullFormatter())  # decades only: minor labels crowd a small chart
            ax.set_xlabel("bytes (log)", fontsize=8)
            ax.set_ylabel("us per call (log)", fontsize=8)
            ax.set_title(f"{HOST_NAMES.get(host, host)}: {'lowering bytes in' if kind == 'consume' else 'lifting bytes out'}"
                         f" ({kind})", fontsize=9)
            ax.tick_params(labelsize=7)
        handles, names = axes[0].get_legend_handles_labels()
        if handles:
            axes[1].legend(handles, names, fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
        fig.tight_layout()
        out.append(_svg(fig))
    return "\n".join(out)


def server_chart(http: dict) -> str:
    import matplotlib.pyplot as plt

    rows = http.get("rows") or []
    if not rows:
        return ""
    fig, ax = plt.subplots(figsize=(9, 0.9 + 0.26 * len(rows)))
    colors = [PEER if r["peer"] else (GLUE if "static" in r["tier"] else GUEST) for r in rows]
    ax.barh(range(len(rows)), [r["req_per_s"] for r in rows], color=colors)
    ax.set_yticks(range(len(rows)), [f"{r['host']} · {r['tier']}" for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("requests per second, server on 1 core (orange: the server's static ceiling, grey: peer library)",
                  fontsize=8)
    ax.set_title("GET /qrcode: req/s per tier", fontsize=10)
    ax.set_ylabel("server · tier", fontsize=8)
    ax.tick_params(axis="x", labelsize=7)
    fig.tight_layout()
    return _svg(fig)


def seed_tables(http: dict) -> str:
    """The seed article's table shape per host: each figure relative to tier 0 (the host's peer library)."""
    out = []
    rows = http.get("rows") or []
    for host in sorted({r["host"] for r in rows}):
        mine = [r for r in rows if r["host"] == host]
        base = next((r for r in mine if r["tier"] == TIER0.get(host)), None)

        def rel(value: float | None, base_value: float | None) -> str:
            return "" if not value or not base_value else f" <small>({value / base_value:.2f}×)</small>"

        body = []
        for r in mine:
            rss = r.get("peak_rss_bytes")
            body.append(
                f"<tr><td>{_e(r['tier'])}{' (tier 0)' if r is base else ''}</td>"
                f"<td class=n>{r['req_per_s']:,.0f}{rel(r['req_per_s'], base and base['req_per_s'])}</td>"
                f"<td class=n>{r['mean_ns'] / 1e6:,.1f}{rel(r['mean_ns'], base and base['mean_ns'])}</td>"
                f"<td class=n>{r['p99_ns'] / 1e6:,.1f}{rel(r['p99_ns'], base and base['p99_ns'])}</td>"
                f"<td class=n>{r.get('response_bytes') or '–'}{rel(r.get('response_bytes'), base and base.get('response_bytes'))}</td>"
                f"<td class=n>{'–' if not rss else f'{rss / 2**20:,.0f}'}{rel(rss, base and base.get('peak_rss_bytes'))}</td></tr>")
        caption = (f"relative to tier 0, {TIER0[host]}" if base else "no peer tier: absolute figures")
        out.append(f"<h3>{_e(HOST_NAMES.get(host, host))} <small>({caption})</small></h3><table><tr><th>tier</th>"
                   "<th>req/s</th><th>mean ms</th><th>p99 ms</th><th>response bytes</th><th>peak RSS MiB</th></tr>"
                   + "".join(body) + "</table>")
    return "\n".join(out)


def engines_table(report: dict) -> str:
    rows = report.get("engines") or []
    if not rows:
        return "<p>No engine table in this run (<code>just bench-engines</code>).</p>"
    def num(value: float | None) -> str:
        return "–" if value is None else f"{value:,.1f}"

    body = "".join(
        f"<tr><td>{_e(r['engine'])}</td><td>{_e(r.get('what', ''))}</td><td class=n>{_us(r.get('png_ns'))}</td>"
        f"<td class=n>{num(r.get('load_ms'))}</td><td class=n>{num(r.get('peak_rss_mib'))}</td>"
        f"<td>{'yes' if r.get('digest_match') else 'NO'}</td></tr>" for r in rows)
    return ("<table><tr><th>engine</th><th>what</th><th>png us</th><th>load ms</th><th>peak RSS MiB</th>"
            "<th>golden</th></tr>" + body + "</table>")


def peers_table(report: dict, peer_options: dict) -> str:
    rows = [r for r in report["png"] if r["peer"]]
    body = "".join(
        f"<tr><td>{_e(r['host'])}</td><td>{_e(r['path'])}</td><td class=n>{_us(r['median_ns'])}</td>"
        f"<td class=n>{r.get('png_bytes') or '–'}</td><td>{_e(peer_options.get(r['path'], ''))}</td></tr>" for r in rows)
    return ("<table><tr><th>host</th><th>library</th><th>png us</th><th>bytes</th><th>its options</th></tr>"
            + body + "</table>")


STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em auto; max-width: 1100px; color: #222; }
table { border-collapse: collapse; margin: 0.4em 0 1.2em; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
td.n { text-align: right; white-space: nowrap; }
small { color: #666; }
p.pick { font-weight: 600; margin: 0.2em 0; }
figure { margin: 0.6em 0; }
svg { display: block; max-width: 100%; height: auto; }
"""


def write(report: dict, out: Path, label, peer_options: dict) -> None:  # type: ignore[no-untyped-def]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.fonttype"] = "none"  # text stays text: searchable, and the test can measure it
    plt.rcParams["svg.hashsalt"] = "qrglue"  # stable ids, so two charts' clip paths never collide
    hosts = [h for h in HOST_NAMES if any(r["host"] == h for r in report["png"])]
    parts = [f"<!doctype html><html lang=en><head><meta charset=utf-8><title>qrglue: what each bridge costs</title>"
             f"<style>{STYLE}</style></head><body>",
             "<h1>qrglue: what each way of bringing Rust in costs</h1>",
             f"<p>One QR generator in Rust, png of the reference URL on every path (golden digest checked), "
             f"{'a quick smoke run: indicative only' if report.get('quick') else 'a full run'}. "
             "Medians with p10–p90; the glue is the whole call minus the guest's own work.</p>",
             "<section id=decision><h2>What to pick</h2>"]
    for host in hosts:
        sentence, table = decision(report, host, label)
        if not table:
            continue
        numeric = {1, 2, 3, 4}
        body = "".join("<tr>" + "".join(f"<td{' class=n' if i in numeric else ''}>{_e(c)}</td>" for i, c in enumerate(cells))
                       + "</tr>" for cells in table)
        parts.append(f"<div class=host><h3>{_e(HOST_NAMES[host])}</h3><p class=pick>{_e(sentence)}</p><table><tr>"
                     + "".join(f"<th>{_e(h)}</th>" for h in DECISION_HEADER) + "</tr>" + body + "</table></div>")
    parts.append("</section><h2 id=png>Where a png's time goes, per host</h2>")
    parts += [png_chart(report, host, label) for host in hosts]
    parts.append("<h2 id=bytes>Bytes across the bridge</h2>")
    parts.append(bytes_charts(report))
    http = report.get("http") or {}
    if http.get("rows"):
        parts.append("<h2 id=servers>The server experiment</h2>")
        parts.append(server_chart(http))
        parts.append(seed_tables(http))
    parts.append("<h2 id=engines>The same module on each engine</h2>")
    parts.append(engines_table(report))
    parts.append("<h2 id=peers>The libraries people use today</h2>")
    parts.append(peers_table(report, peer_options))
    parts.append("</body></html>\n")
    out.write_text("\n".join(parts), encoding="utf-8")
