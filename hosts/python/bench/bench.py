"""Benchmark the Python host: component (fast glue, stock glue) vs raw vs the
peers a Python user would pick (segno, python-qrcode), all in this one
process, interleaved in rounds after a warm-up. Writes the shared schema
(target/bench/<host>.json) and prints a table.

    python bench/bench.py [--out ../../target/bench/python.json]
    QRGLUE_BENCH_QUICK=1 python bench/bench.py     # CI smoke: a few seconds

Paths: "component" is what `qrglue.png` uses (the fast glue on the pinned
wasmtime-py); "component-stock" is wasmtime-py's own conversion; "raw" is
`qrglue.raw`; "native" is `qrglue.native`, the PyO3 extension (no wasm: its
png-repeat is the core alone, its cold start has no compiled-code cache);
"rpc" is the same png as a remote call: GET /qrcode on the Rust axum server
(hosts/rust/server, tier axum, one worker, a child process on 127.0.0.1)
through urllib3 with one kept-alive connection, golden-checked like the rest.
Method, as in the Rust and Node benches: every sample is a batch of calls
sized during warm-up to take about BATCH_NS (3 ms), reported per call. With
fixed batches of 10 (~0.3 ms of PyO3 png) the first calls after switching
from another path's code ran with cold caches and branch predictors: PyO3 png
measured 32.9 us in that order against 27.4 us alone, and its png-repeat of
20 pngs 30.2 against 27.5 for 100. Calls longer than BATCH_NS (the peers,
stock 1 MiB conversions) are one call per sample.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import qrcode
import qrcode.image.pure
import segno
import urllib3

import cold_start as cold_start_scripts
import qrglue
import qrglue.native
import qrglue.raw

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
QUICK = os.environ.get("QRGLUE_BENCH_QUICK") == "1"
# Rounds, batch time, sizes: tests/bench/settings.json (with the reasons), as in
# every host's bench; its "hosts.python" entries override the shared values.
_ALL_SETTINGS = json.loads((REPO / "tests/bench/settings.json").read_text())
_MODE = "quick" if QUICK else "full"
SETTINGS: dict[str, Any] = {**_ALL_SETTINGS[_MODE], **_ALL_SETTINGS["hosts"].get("python", {}).get(_MODE, {})}
# Target time of one sample's batch; the warm-up sizes each series' batch to it.
BATCH_NS = SETTINGS["batch_ms"] * 1_000_000
CASES = {c["id"]: c for c in json.loads((REPO / "tests/vectors/cases.json").read_text())["cases"]}
REF_IDS = [f"ref-{i:02d}" for i in range(1, 11)]
REFERENCE = "ref-02"
MIN_SIZE = 200


def machine() -> str:
    model = platform.processor() or "unknown cpu"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:  # "always [madvise] never": whether malloc's memory gets huge pages unasked
        thp = Path("/sys/kernel/mm/transparent_hugepage/enabled").read_text().split("[")[1].split("]")[0]
    except (OSError, IndexError):
        thp = "unknown"
    return f"{model}, {os.cpu_count()} logical cores, {platform.system()} {platform.machine()}, " \
           f"Python {platform.python_version()}, wasmtime-py {qrglue._loader.wasmtime_version()}, " \
           f"{' '.join(platform.libc_ver())}, THP {thp}"


def segno_scale(code: segno.QRCode) -> int:
    """The smallest scale that makes segno's png at least MIN_SIZE wide (qrglue's min-size 200), quiet zone 4."""
    return math.ceil(MIN_SIZE / code.symbol_size(scale=1, border=4)[0])


def segno_png(text: str) -> bytes:
    code = segno.make(text, error="l", micro=False)
    out = io.BytesIO()
    code.save(out, kind="png", scale=segno_scale(code), border=4)
    return out.getvalue()


def segno_png_data_uri(text: str) -> str:
    """segno's png_data_uri at the png row's scale and border."""
    code = segno.make(text, error="l", micro=False)
    return str(code.png_data_uri(scale=segno_scale(code), border=4))


def python_qrcode_png(text: str) -> bytes:
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_L, border=4,
                         image_factory=qrcode.image.pure.PyPNGImage)
    code.add_data(text)
    code.make(fit=True)
    code.box_size = math.ceil(MIN_SIZE / (code.modules_count + 8))
    out = io.BytesIO()
    code.make_image().save(out)
    return out.getvalue()


def segno_text(text: str) -> str:
    """segno's terminal(compact=True): half blocks, as qrglue's text (segno adds ANSI colours)."""
    out = io.StringIO()
    segno.make(text, error="l", micro=False).terminal(out=out, compact=True, border=4)
    return out.getvalue()


def python_qrcode_text(text: str) -> str:
    """python-qrcode's print_ascii (half blocks too) into a string."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_L, border=4)
    code.add_data(text)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out)
    return out.getvalue()


def python_qrcode_matrix(text: str) -> list[list[bool]]:
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_L, border=0)
    code.add_data(text)
    code.make(fit=True)
    return code.get_matrix()


DATA_URI_PREFIX = "data:image/png;base64,"


def output_digest(op: str, out: Any) -> tuple[int | None, str | None]:
    """Size and sha256 of a series' last output, in expected.json's form where it has one (png bytes, a text's
    UTF-8, a matrix's width in 4 little-endian bytes then its modules, a data URL's PNG: the URL's length, the
    sha256 of the PNG it carries, none when it is no base64 PNG URL); a peer's matrix has neither."""
    if op == "data-url" and isinstance(out, str):
        png = base64.b64decode(out[len(DATA_URI_PREFIX):], validate=True) if out.startswith(DATA_URI_PREFIX) else None
        return len(out), hashlib.sha256(png).hexdigest() if png is not None else None
    if op == "matrix" and hasattr(out, "modules"):
        data = out.width.to_bytes(4, "little") + bytes(out.modules)
        return len(data), hashlib.sha256(data).hexdigest()
    if isinstance(out, (bytes, str)):
        data = out.encode() if isinstance(out, str) else out
        return len(data), hashlib.sha256(data).hexdigest() if op in ("png", "text") else None
    return None, None


class Series:
    """Samples of one (path, op, text_id, bytes) measurement."""

    def __init__(self, path: str, op: str, text_id: str | None, size: int | None,
                 call: Callable[[], Any], per: int = 1) -> None:
        self.path, self.op, self.text_id, self.size = path, op, text_id, size
        self.call, self.per = call, per
        self.batch = 1  # calls per sample, sized by run(record=False) to ~BATCH_NS
        self.samples: list[float] = []
        self.output: Any = None

    def run(self, record: bool = True) -> None:
        call, batch = self.call, self.batch
        start = time.perf_counter_ns()
        for _ in range(batch):
            out = call()
        elapsed = time.perf_counter_ns() - start
        if record:
            self.samples.append(elapsed / batch / self.per)
        else:
            self.batch = max(1, min(100_000, round(BATCH_NS * batch / max(1, elapsed))))
        self.output = out

    def result(self) -> dict[str, Any]:
        xs = sorted(self.samples)
        q = statistics.quantiles(xs, n=10, method="inclusive") if len(xs) > 1 else [xs[0]] * 9
        output_bytes, digest = output_digest(self.op, self.output)
        return {"path": self.path, "op": self.op, "text_id": self.text_id, "bytes": self.size,
                "median_ns": statistics.median(xs), "p10_ns": q[0], "p90_ns": q[8],
                "samples": len(xs), "output_bytes": output_bytes, "sha256": digest}


# glibc's tunable for transparent huge pages on malloc's own mmaps (glibc >= 2.35).
THP_TUNABLE = "glibc.malloc.hugetlb=1"


def thp_tunable_supported() -> bool:
    libc, version = platform.libc_ver()
    try:
        return libc == "glibc" and tuple(int(x) for x in version.split(".")[:2]) >= (2, 35)
    except ValueError:
        return False


def build_glue_series(gens: dict[str, Any]) -> list[Series]:
    """noop, and lowering (consume) / lifting (produce) at sizes from 0 B to 1 MiB."""
    series: list[Series] = []
    sizes = SETTINGS["payload_sizes"]
    for path, gen in gens.items():
        series.append(Series(path, "noop", None, None, gen.noop))
        for size in sizes:
            data = bytes(i % 256 for i in range(size))
            series.append(Series(path, "consume", None, size, lambda g=gen, d=data: g.consume(d)))
            series.append(Series(path, "produce", None, size, lambda g=gen, n=size: g.produce(n)))
    return series


class RpcServer:
    """The axum server beside this process, and a keep-alive client to it."""

    BINARY = REPO / "target" / "addon" / "qrglue-server"

    def __init__(self) -> None:
        if not self.BINARY.exists():
            raise SystemExit(f"{self.BINARY} is missing: run `just build-http-rust`")
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        command = [str(self.BINARY), "--tier", "axum", "--port", str(self.port), "--workers", "1"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        self.pool = urllib3.HTTPConnectionPool("127.0.0.1", self.port, maxsize=1, retries=False)
        deadline = time.monotonic() + 30
        while True:
            try:
                if self.pool.request("GET", "/healthz").status == 200:
                    break
            except urllib3.exceptions.HTTPError:
                if time.monotonic() > deadline:
                    self.close()
                    raise
            time.sleep(0.05)

    def png(self, text: str) -> bytes:
        response = self.pool.request("GET", "/qrcode", fields={"text": text})
        if response.status != 200:
            raise RuntimeError(f"rpc: HTTP {response.status}: {response.data[:200]!r}")
        return bytes(response.data)

    def close(self) -> None:
        self.pool.close()
        self.process.terminate()
        self.process.wait(timeout=10)


def build_series(rpc: RpcServer | None = None) -> list[Series]:
    gens = {"component": qrglue.Generator(glue="fast"), "component-stock": qrglue.Generator(glue="stock"),
            "raw": qrglue.raw.Generator(), "native": qrglue.native.Generator()}
    ref_text = CASES[REFERENCE]["text"]
    series: list[Series] = []
    texts = [REFERENCE] if QUICK else REF_IDS
    for text_id in texts:
        text = CASES[text_id]["text"]
        for path, gen in gens.items():
            series.append(Series(path, "png", text_id, None, lambda g=gen, t=text: g.png(t)))
        if rpc is not None:
            series.append(Series("rpc", "png", text_id, None, lambda t=text: rpc.png(t)))
        series.append(Series("segno", "png", text_id, None, lambda t=text: segno_png(t)))
        series.append(Series("python-qrcode", "png", text_id, None, lambda t=text: python_qrcode_png(t)))
    # The other outputs, on the reference URL, each next to the peers' equivalent call: text (half blocks)
    # against segno's compact terminal() and python-qrcode's print_ascii(); the matrix against segno's
    # matrix and python-qrcode's get_matrix(); the png's data URL against segno's png_data_uri() (python-qrcode
    # has no data-URL call: it has no row there).
    for path, gen in gens.items():
        series.append(Series(path, "text", REFERENCE, None, lambda g=gen: g.text(ref_text)))
        series.append(Series(path, "matrix", REFERENCE, None, lambda g=gen: g.matrix(ref_text)))
        series.append(Series(path, "data-url", REFERENCE, None, lambda g=gen: g.png_data_uri(ref_text)))
    series.append(Series("segno", "text", REFERENCE, None, lambda: segno_text(ref_text)))
    series.append(Series("segno", "matrix", REFERENCE, None,
                         lambda: segno.make(ref_text, error="l", micro=False).matrix))
    series.append(Series("segno", "data-url", REFERENCE, None, lambda: segno_png_data_uri(ref_text)))
    series.append(Series("python-qrcode", "text", REFERENCE, None, lambda: python_qrcode_text(ref_text)))
    series.append(Series("python-qrcode", "matrix", REFERENCE, None, lambda: python_qrcode_matrix(ref_text)))
    repeat = SETTINGS["png_repeat_times"]
    for path, gen in gens.items():
        series.append(Series(path, "png-repeat", REFERENCE, None,
                             lambda g=gen: g.png_repeat(ref_text, repeat), per=repeat))
    return series + build_glue_series(gens)


def run_rounds(series: list[Series]) -> None:
    warmup, rounds = SETTINGS["warmup_rounds"], SETTINGS["rounds"]
    # wasmtime-py's stock conversions of 256 KiB and 1 MiB take 0.1-0.7 s a
    # call (~23 s of a full run at every 4th round): one warm-up call and
    # every 8th round (6 samples) for them.
    def slow(s: Series) -> bool:
        return s.path == "component-stock" and (s.size or 0) >= 262144
    for w in range(warmup):
        for s in series:
            if not (w and slow(s)):
                s.run(record=False)
    for r in range(rounds):
        for s in series:
            if not (r % 8 and slow(s)):
                s.run()


def glue_with_thp() -> list[dict[str, Any]]:
    """The fast component's glue series again, in a child interpreter started
    with glibc's THP tunable, as path "component-thp". Above ~800 KiB a
    list<u8> result makes wasmtime's C API allocate a >32 MiB temporary
    (one 40-byte Rust `Val` per byte), past glibc's largest mmap threshold, so
    every such call maps fresh 4 KiB pages; with the tunable they are 2 MiB
    pages. The difference is the page-fault share of the per-byte cost."""
    if not thp_tunable_supported():
        return []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "thp.json"
        tunables = ":".join(t for t in (os.environ.get("GLIBC_TUNABLES"), THP_TUNABLE) if t)
        child = subprocess.run([sys.executable, __file__, "--glue-only", "--out", str(out)],
                               env={**os.environ, "GLIBC_TUNABLES": tunables}, capture_output=True, text=True)
        if child.returncode:
            raise RuntimeError(f"the THP glue run failed:\n{child.stderr}")
        measurements = json.loads(out.read_text())["measurements"]
    for m in measurements:
        m["path"] = "component-thp"
    return measurements


def cold_start(samples: int) -> list[dict[str, Any]]:
    """import + compile-or-load + instantiate + first png, in fresh interpreters,
    interleaved: component/raw x without cache/with a warm cache, native
    (nothing to compile or cache: import + first png), and the by-hand floor
    of the cached component and raw paths (cold_start.py's scripts)."""
    results = []
    # Bytecode written and reused, as for an installed wheel (pip compiles it
    # at install): with PYTHONDONTWRITEBYTECODE every start would recompile
    # qrglue's modules from source (~15 ms), while wasmtime's come precompiled.
    base_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as cache:
        env_cached = {**base_env, "QRGLUE_CACHE_DIR": cache}
        env_uncached = {**base_env, "QRGLUE_CACHE_DIR": ""}
        modules = {"component": "qrglue", "raw": "qrglue.raw", "native": "qrglue.native"}
        text = CASES[REFERENCE]["text"]
        # One script per path: qrglue's import-to-first-png (cold_start.py's),
        # and the floor, the same steps by hand with wasmtime-py on the same
        # cached code, so qrglue's own share is measured in this run.
        scripts = {path: cold_start_scripts.QRGLUE.format(module=module, text=text) for path, module in modules.items()}
        variants = [(path, op, env) for path in ("component", "raw")
                    for op, env in (("cold-start", env_uncached), ("cold-start-cached", env_cached))]
        variants.append(("native", "cold-start", env_uncached))
        for path in ("component", "raw"):  # fill the cache once
            subprocess.run([sys.executable, "-c", scripts[path]], env=env_cached, check=True, capture_output=True)
        for path, script in cold_start_scripts.by_hand(cache, text).items():
            scripts[f"{path}-by-hand"] = script
            variants.append((f"{path}-by-hand", "cold-start-cached", env_cached))
        times: dict[tuple, list[float]] = {(p, o): [] for p, o, _ in variants}
        for _ in range(samples):
            for path, op, env in variants:
                done = subprocess.run([sys.executable, "-c", scripts[path]], env=env,
                                      check=True, capture_output=True, text=True)
                times[(path, op)].append(float(done.stdout.strip()))
        for (path, op), xs in times.items():
            s = Series(path, op, REFERENCE, None, lambda: None)
            s.samples = xs
            results.append(s.result())
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=str(REPO / "target" / "bench" / "python.json"))
    parser.add_argument("--glue-only", action="store_true",
                        help="only the fast component's noop/consume/produce series (used for the THP run)")
    args = parser.parse_args()

    rpc = None if args.glue_only else RpcServer()
    try:
        if args.glue_only:
            series = build_glue_series({"component": qrglue.Generator(glue="fast")})
        else:
            series = build_series(rpc)
        run_rounds(series)
    finally:
        if rpc is not None:
            rpc.close()
    measurements = [s.result() for s in series]
    if not args.glue_only:
        measurements += glue_with_thp() + cold_start(SETTINGS["cold_start_samples"])

    label = machine() + ("; QRGLUE_BENCH_QUICK smoke run, not for comparison" if QUICK else "")
    report = {"host": "python", "machine": label, "quick": QUICK, "measurements": measurements}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n")

    print(f"# {report['machine']}")
    print(f"{'path':16} {'op':18} {'text/bytes':>10} {'median us':>11} {'p10':>10} {'p90':>10} {'n':>4} {'out B':>7}")
    for m in measurements:
        label = m["text_id"] if m["bytes"] is None else str(m["bytes"])
        print(f"{m['path']:16} {m['op']:18} {label or '':>10} {m['median_ns'] / 1e3:11.2f} "
              f"{m['p10_ns'] / 1e3:10.2f} {m['p90_ns'] / 1e3:10.2f} {m['samples']:4d} "
              f"{m['output_bytes'] if m['output_bytes'] is not None else '':>7}")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
