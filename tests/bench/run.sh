#!/usr/bin/env bash
# `just bench [--quick]`: build everything, run every host's bridge bench, and
# merge them into target/bench/report.{html,json,md,svg} (tests/bench/README.md).
# Run from the repository root by the justfile, which passes its flags.
set -euo pipefail
cargo="${CARGO:-cargo}"
for flag in "$@"; do
    case "$flag" in
        --quick) export QRGLUE_BENCH_QUICK=1; echo "== quick run: few samples, figures indicative only" ;;
        *) echo "unknown flag: $flag (only --quick)"; exit 2 ;;
    esac
done
mkdir -p target/bench
rm -f target/bench/{core,rust,node,python,go,java,browser,report}.json target/bench/extism-{go,node,python}.json target/bench/engines.json
start=$SECONDS
# Each step's header with the seconds since the start: CI keeps the head of its output, so a slow
# step shows there.
step() { echo "== [$1] $2 (at $((SECONDS - start)) s)"; }
# The benches' native Rust builds (wasmtime in the host profile, the core's
# fat-LTO stage bench, the axum server for the rpc path) compile beside the
# Node, Python and web builds, which wait on npm, pip and maturin much of the
# time. Nothing is measured until both are done.
( "$cargo" bench -q --no-run --locked --profile host --bench bridges \
  && "$cargo" bench -q --no-run --locked --profile release -p qrglue-core --bench stages \
  && just build-http-rust ) > target/bench/native-builds.log 2>&1 &
native_builds=$!
just build
wait "$native_builds" || { cat target/bench/native-builds.log; echo "the benches' native builds failed"; exit 1; }
step "1/9" "rust: core stages (native), then native, component, raw (wasmtime)"; just bench-core; just bench-rust
step "2/9" "node: component (jco), raw, wasm-bindgen, native (napi-rs), node-qrcode"; just bench-node
step "3/9" "python: component (wasmtime-py), raw, native (PyO3), segno, python-qrcode"; just bench-python
step "4/9" "go: raw (wazero), native (cgo)"; just bench-go
step "5/9" "java: native (FFM), compiled and interpreted (Chicory), ZXing, qrcodegen"; just bench-java
step "6/9" "extism: the Extism plug-in against the raw ABI on Go, Node, Python"; just bench-extism
step "7/9" "engines: load, first png and peak RSS per engine (fresh processes), wasm3 in process"; just bench-engines
step "8/9" "browser: component, raw, wasm-bindgen in headless Chromium (the page's bench panel)"; just bench-browser
step "9/9" "report"
just _report-venv
target/report-venv/bin/python tests/bench/report.py
echo "== done in $((SECONDS - start)) s: open target/bench/report.html (the page; report.md is its plain-text twin, report.json the data, report.svg the charts)"
