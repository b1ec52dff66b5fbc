#!/usr/bin/env bash
# `just fuzz-deep SECONDS` (and `just fuzz-deep-ci`, 20 s, in `just test`): every cargo fuzz
# target (fuzz/fuzz_targets) for SECONDS each, one after the other, on its
# working corpus in target/fuzz/corpus (grown run to run) and the committed
# seeds (fuzz/seeds). Crashes go to target/fuzz/artifacts/TARGET; minimize
# one with `cargo fuzz tmin` and keep it as a regression test in the
# normal cargo test suites. Writes target/fuzz/report.json (per target:
# seconds, executions, libFuzzer's cov: and ft:, corpus size) and exits 1
# if any target found a crash.
#
# raw_abi runs the raw module's machine code as the Rust host's engine
# compiles it (qrglue-precompile-raw, built by `just build` in target/host),
# in a wasmtime built here without Cranelift: libFuzzer's instrumented build
# of Cranelift took 567 CPU-seconds; the core runtime alone adds ~130.
#
# The pins: the nightly of fuzz/rust-toolchain.toml (cargo fuzz needs
# nightly; rustup installs it here, once) and cargo-fuzz itself (built once
# into target/cargo-fuzz). One crate, one build: the targets share every
# dependency.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:?usage: fuzz.sh SECONDS}
cargo_fuzz_version=0.13.2
targets=(core query writers raw_abi)
tools=../target/cargo-fuzz
out=../target/fuzz
toolchain=$(sed -n 's/^channel = "\(.*\)"$/\1/p' rust-toolchain.toml)

rustup toolchain list | grep -q "^$toolchain" || rustup toolchain install "$toolchain" --profile minimal
if ! "$tools/bin/cargo-fuzz" --version 2>/dev/null | grep -qF " $cargo_fuzz_version"; then
    # From the repository root: the stable toolchain builds the tool.
    (cd .. && cargo install -q cargo-fuzz --version "$cargo_fuzz_version" --locked --root target/cargo-fuzz)
fi
# cargo fuzz has no --locked: refuse a Cargo.lock that would change first.
cargo metadata --locked --format-version 1 > /dev/null
# ASan off (-s none): the targets and the code under test are safe Rust; a
# sanitizer would slow every execution for nothing it could find. The same
# flags for build and run, so run does not rebuild.
flags=(-s none --fuzz-dir . --target-dir ../target/fuzz-build)
"$tools/bin/cargo-fuzz" fuzz build "${flags[@]}"
mkdir -p "$out"
# Before every run: the module or the host's wasmtime may have changed since the last.
../target/host/qrglue-precompile-raw ../target/wasm/qrglue.raw.wasm "$out/qrglue.raw.cwasm"

failed=()
report="{"
for target in "${targets[@]}"; do
    mkdir -p "$out/corpus/$target" "$out/artifacts/$target"
    corpora=("$out/corpus/$target")
    [ -d "seeds/$target" ] && corpora+=("seeds/$target")
    extra=()
    [ -f "dicts/$target.dict" ] && extra+=("-dict=dicts/$target.dict")
    log="$out/$target.log"
    # -timeout: one input over 30 s is a finding (the slowest legal call, a
    # 4096 px PNG, takes milliseconds). -rss_limit_mb: the default 2 GB.
    if "$tools/bin/cargo-fuzz" fuzz run "${flags[@]}" "$target" "${corpora[@]}" -- \
        -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$out/artifacts/$target/" "${extra[@]}" > "$log" 2>&1; then
        status=ok
    else
        status=crash
        failed+=("$target")
        grep -E "panicked|ERROR|SUMMARY|artifact" "$log" | head -20 >&2 || true
    fi
    # The last status line: "#N DONE cov: C ft: F corp: K/..." (or the last
    # pulse before a crash).
    last=$(grep -E "^#[0-9]+" "$log" | tail -1)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
    corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<< "$last")
    echo "fuzz: $target $status: ${execs:-?} runs in ${seconds} s, cov ${cov:-?} ft ${ft:-?}, corpus ${corp:-?}"
    report+="\"$target\": {\"status\": \"$status\", \"seconds\": $seconds, \"runs\": ${execs:-null}, \"cov\": ${cov:-null}, \"ft\": ${ft:-null}, \"corpus\": ${corp:-null}},"
done
echo "${report%,}}" > "$out/report.json"
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: crashes in ${failed[*]} (inputs in target/fuzz/artifacts; logs in target/fuzz/*.log)" >&2
    exit 1
fi
