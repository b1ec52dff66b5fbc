# qrglue: one QR generator in Rust, called through wasm from Rust, Node and Python.
# `just bench` builds everything and compares the bridges; `just test` runs every test.

set shell := ["bash", "-euo", "pipefail", "-c"]
# Recipes print their results, not their commands: build steps stay quiet
# unless they fail. `QRGLUE_VERBOSE=1 just …` shows the build tools' progress.
set quiet

cargo := env_var_or_default("CARGO", "cargo")
verbose := env_var_or_default("QRGLUE_VERBOSE", "")
# Passed to cargo, npm and pip: quiet unless QRGLUE_VERBOSE is set.
q := if verbose == "" { "-q" } else { "" }
# The exact version of guest/bindgen's wasm-bindgen pin (=0.2.130): wasm-bindgen-cli
# refuses a module made by any other version of the crate.
wasm_bindgen_version := "0.2.130"
wasm_target := "wasm32-unknown-unknown"
# The prebuilt tools (wasm-tools, wasmtime) of tools/requirements.txt, first on
# every recipe's PATH: the pinned versions win over anything installed.
export PATH := justfile_directory() / "target/tools/bin" + ":" + env_var("PATH")
# The load generator of the server experiment (just bench-http): a Go module, pinned.
vegeta_version := "v12.13.0"
vegeta := env_var_or_default("XDG_CACHE_HOME", env_var("HOME") / ".cache") / "qrglue/vegeta-" + vegeta_version / "vegeta"
# NATS for the wasmCloud lattice test (tests/http-proxy/test_wasmcloud_lattice.py): a Go module, pinned.
nats_version := "v2.12.2"
nats_server := env_var_or_default("XDG_CACHE_HOME", env_var("HOME") / ".cache") / "qrglue/nats-server-" + nats_version / "nats-server"
wasm_out := "target/wasm"

# List the recipes.
default:
    @just --list --unsorted

### Setup ###

# Install what a fresh machine needs: the Rust wasm target and the prebuilt tools.
[group('setup')]
setup-rust: setup-tools
    rustup target list --installed | grep -qx {{wasm_target}} || rustup target add {{wasm_target}}

# The pinned prebuilt tools of tools/requirements.txt (wasm-tools, wasmtime) in target/tools: seconds, where cargo install took an hour.
[group('setup')]
setup-tools:
    bash tools/setup.sh

### Build ###

# Build everything: both .wasm guests, the contract file, every host package and the page's browser (Debian's chromium, apt-get when missing).
[group('build')]
build: build-wasm contract build-node build-python build-web

# Write target/contract.json from guest/core/src/contract.rs: the defaults, bounds, EC-level order, error kinds, raw-ABI codes and fixed messages every host's tests compare their own constants with.
[group('build')]
contract:
    {{cargo}} run --locked --release -q -p qrglue-vectors --bin contract -- target/contract.json

# Build target/wasm/qrglue.component.wasm and target/wasm/qrglue.raw.wasm.
[group('build')]
build-wasm: setup-rust
    {{cargo}} build {{q}} --locked --release --target {{wasm_target}} -p qrglue-component -p qrglue-raw
    mkdir -p {{wasm_out}}
    wasm-tools component new target/{{wasm_target}}/release/qrglue_component.wasm \
        -o {{wasm_out}}/.qrglue.component.wasm.new
    cp target/{{wasm_target}}/release/qrglue_raw.wasm {{wasm_out}}/.qrglue.raw.wasm.new
    # Replace a .wasm only when its bytes changed: the Rust host embeds both
    # files, and a new mtime alone would re-link wasmtime with fat LTO (minutes).
    for name in component raw; do \
        new={{wasm_out}}/.qrglue.$name.wasm.new; out={{wasm_out}}/qrglue.$name.wasm; \
        if cmp -s "$new" "$out"; then rm "$new"; else mv "$new" "$out"; fi; \
    done
    wasm-tools validate {{wasm_out}}/qrglue.component.wasm
    wasm-tools validate {{wasm_out}}/qrglue.raw.wasm

# Build target/wasm/qrglue.bindgen.wasm (guest/bindgen: the input of wasm-bindgen-cli, which build-node runs) and install wasm-bindgen-cli at the crate's exact version when it differs.
[group('build')]
build-bindgen: setup-rust
    # Not `cargo install --locked`: the lockfile published with wasm-bindgen-cli
    # 0.2.130 pins webpki-roots 1.0.11, which this registry does not serve, so a
    # locked install cannot resolve. The CLI's own version is exact either way.
    if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen {{wasm_bindgen_version}}" ]; then \
        {{cargo}} install {{q}} wasm-bindgen-cli --version {{wasm_bindgen_version}}; \
    fi
    {{cargo}} build {{q}} --locked --release --target {{wasm_target}} -p qrglue-bindgen
    mkdir -p {{wasm_out}}
    # Replaced only when its bytes changed, like build-wasm's outputs.
    new={{wasm_out}}/.qrglue.bindgen.wasm.new; out={{wasm_out}}/qrglue.bindgen.wasm; \
        cp target/{{wasm_target}}/release/qrglue_bindgen.wasm "$new"; \
        if cmp -s "$new" "$out"; then rm "$new"; else mv "$new" "$out"; fi

# Build target/wasm/qrglue.http.wasm: guest/http-proxy (a wasi:http proxy importing qrglue:qr/generator) plugged with qrglue.component.wasm by `wasm-tools compose`; and qrglue.http-static.wasm (tier static: the golden bytes from memory, no generator).
[group('build')]
build-http-proxy: build-wasm
    {{cargo}} build {{q}} --locked --release --target {{wasm_target}} -p qrglue-http-proxy
    # The static variant is a feature of the same crate: its own target dir, so
    # neither build invalidates the other.
    CARGO_TARGET_DIR=target/http-static {{cargo}} build {{q}} --locked --release --target {{wasm_target}} -p qrglue-http-proxy --features static
    wasm-tools component new target/{{wasm_target}}/release/qrglue_http_proxy.wasm -o {{wasm_out}}/qrglue.http-proxy.wasm
    bash tools/plug.sh {{wasm_out}}/qrglue.http-proxy.wasm {{wasm_out}}/qrglue.component.wasm {{wasm_out}}/qrglue.http.wasm
    wasm-tools component new target/http-static/{{wasm_target}}/release/qrglue_http_proxy.wasm -o {{wasm_out}}/qrglue.http-static.wasm
    for name in http-proxy http http-static; do wasm-tools validate {{wasm_out}}/qrglue.$name.wasm; done
    # jco serve (tiers wasi-http jco*) comes with hosts/node's devDependencies.
    if [ ! -x hosts/node/node_modules/.bin/jco ] || [ hosts/node/package-lock.json -nt hosts/node/node_modules/.package-lock.json ]; then \
        cd hosts/node && npm install {{q}} --no-save --no-audit --no-fund; \
    fi

### Benchmark ###

# Each host's paths interleaved in one process, merged into
# target/bench/report.{json,md,svg}; `--quick` is a ~90 s smoke run.
[doc("Build everything, benchmark every bridge, write target/bench/report.{json,md,svg} (--quick: smoke run)")]
[group('bench')]
bench *flags: build-wasm
    #!/usr/bin/env bash
    set -euo pipefail
    case " {{flags}} " in *" --quick "*) export QRGLUE_BENCH_QUICK=1; echo "== quick run: few samples, figures indicative only";; esac
    for extra in {{flags}}; do [ "$extra" = --quick ] || { echo "unknown flag: $extra (only --quick)"; exit 2; }; done
    mkdir -p target/bench
    rm -f target/bench/{core,rust,node,python,browser,report}.json
    start=$SECONDS
    # The benches' native Rust builds (wasmtime in the host profile, ~3 min of
    # the ~10 a fresh clone took; the core's fat-LTO stage bench; the axum
    # server for the rpc path) compile beside the Node, Python and web builds,
    # which wait on npm, pip and maturin much of the time. Nothing is measured
    # until both are done.
    ( {{cargo}} bench -q --no-run --locked --profile host --bench bridges \
      && {{cargo}} bench -q --no-run --locked --profile release -p qrglue-core --bench stages \
      && just build-http-rust ) > target/bench/native-builds.log 2>&1 &
    native_builds=$!
    just build
    wait "$native_builds" || { cat target/bench/native-builds.log; echo "the benches' native builds failed"; exit 1; }
    echo "== [1/5] rust: core stages (native), then native, component, raw (wasmtime)"; just bench-core; just bench-rust
    echo "== [2/5] node: component (jco), raw, wasm-bindgen, native (napi-rs), node-qrcode";  just bench-node
    echo "== [3/5] python: component (wasmtime-py), raw, native (PyO3), segno, python-qrcode"; just bench-python
    echo "== [4/5] browser: component, raw, wasm-bindgen in headless Chromium (the page's bench panel)"; just bench-browser
    echo "== [5/5] report"
    just _report-venv
    target/report-venv/bin/python tests/bench/report.py
    echo "== done in $((SECONDS - start)) s: target/bench/report.md, report.json, report.svg"

# The server experiment (tests/http/README.md): every host's server and tier pinned to core 0, driven by vegeta (pinned, installed here) on core 1, 50 connections, 30 s per tier (--quick: 3 s); writes target/bench/http.json and the report's HTTP section. Loopback only; fails on any non-2xx answer.
[group('bench')]
bench-http *flags: build-http build-http-wasi-http _setup-vegeta
    #!/usr/bin/env bash
    set -euo pipefail
    quick=
    for flag in {{flags}}; do case "$flag" in --quick) quick=--quick;; *) echo "unknown flag: $flag (only --quick)"; exit 2;; esac; done
    python3 tests/bench/http_bench.py --vegeta "{{vegeta}}" $quick
    just _report-venv
    target/report-venv/bin/python tests/bench/report.py > /dev/null
    echo "report: target/bench/report.md (section 'HTTP servers')"

# vegeta (the load generator of the experiment, a Go module) at its pinned version, built once into ~/.cache/qrglue.
_setup-vegeta:
    if [ ! -x "{{vegeta}}" ]; then \
        GOBIN="$(dirname "{{vegeta}}")" GOFLAGS=-mod=mod go install github.com/tsenart/vegeta/v12@{{vegeta_version}}; \
    fi

# The same as `just bench --quick`.
[group('bench')]
bench-quick: (bench "--quick")

# A venv with the report's pinned tools (matplotlib).
_report-venv:
    if [ ! -x target/report-venv/bin/python ]; then python3 -m venv target/report-venv; fi
    if ! cmp -s tests/bench/requirements.txt target/report-venv/.installed; then \
        target/report-venv/bin/pip install --disable-pip-version-check -q -r tests/bench/requirements.txt \
        && cp tests/bench/requirements.txt target/report-venv/.installed; fi

### Test ###

# Run every test in the repo.
[group('test')]
test: lint test-rust test-node test-python test-web test-http test-http-proxy conformance fuzz-ci

# Lint, warnings as errors: rustfmt; README and docs/ name only files and recipes that exist (tools/check_docs.py); clippy on the workspace (host, all targets) and the wasm32 guests; ruff and mypy --strict on hosts/python; tsc on hosts/node's .d.ts.
[group('test')]
lint: _setup-lint
    {{cargo}} fmt --all --check
    python3 tools/check_docs.py
    {{cargo}} clippy {{q}} --locked --workspace --exclude qrglue-component --exclude qrglue-raw --exclude qrglue-bindgen --exclude qrglue-http-proxy --all-targets -- -D warnings
    {{cargo}} clippy {{q}} --locked --target {{wasm_target}} -p qrglue-component -p qrglue-raw -p qrglue-bindgen -p qrglue-http-proxy -- -D warnings
    cd hosts/python && .venv/bin/ruff check -q . && .venv/bin/mypy
    # tsc derives declarations from each entry's JS, then checks the hand-written .d.ts against them (typecheck/entries.ts).
    cd hosts/node && rm -rf node_modules/.cache/qrglue-js-types && node_modules/.bin/tsc -p tsconfig.js-types.json && node_modules/.bin/tsc -p tsconfig.json
    echo "lint: rustfmt, docs' names, clippy (host + wasm32), ruff, mypy, tsc: clean"

# The lint tools: clippy and rustfmt are the rustup toolchain's components (their version is the toolchain's: no rust-toolchain file pins it); ruff and mypy from hosts/python/requirements-dev.txt (the venv `just build-python` makes, refreshed when the pins change); typescript from hosts/node/package-lock.json.
_setup-lint: setup-rust
    for component in clippy rustfmt; do \
        rustup component list --installed | grep -q "^$component" || rustup component add $component; \
    done
    cmp -s hosts/python/requirements-dev.txt hosts/python/.venv/.requirements-installed || just build-python
    # The same condition and install as hosts/node/scripts/build.sh (npm install --no-save: see hosts/node/README.md).
    if [ ! -f hosts/node/node_modules/.package-lock.json ] || [ hosts/node/package-lock.json -nt hosts/node/node_modules/.package-lock.json ]; then \
        cd hosts/node && npm install {{q}} --no-save --no-audit --no-fund; \
    fi

# The day-to-day loop (no lint, no CLIs): core unit tests, golden vectors and API; the Rust host's golden vectors (every path); Node's and Python's golden vectors and error kinds (every path); the whole conformance run (205 cases x 10 paths). 24 s measured on a built tree (2 cores, load average 8 from other builds); after a change, cargo first rebuilds what changed (the Rust host in the `host` profile, no fat LTO).
[group('test')]
test-fast: build-wasm build-node build-python
    {{cargo}} test {{q}} --locked --profile host --lib --test golden --test api
    {{cargo}} test {{q}} --locked --profile host --test host -- golden::
    cd hosts/node && node --test test/golden.test.js test/errors.test.js
    cd hosts/python && .venv/bin/python -m pytest -q -p no:cacheprovider tests/test_golden.py tests/test_errors.py -k "golden or error_kinds"
    python3 tests/conformance/run.py

# Every case of tests/vectors through every path of every host: equal to expected.json (kinds and messages too) and to each other.
[group('test')]
conformance: build
    python3 tests/conformance/run.py

# Differential fuzzing: N seeded random cases through every path; divergent cases go to target/fuzz/divergences.json and fail the run.
[group('test')]
fuzz N="100000" SEED="20261122": build
    python3 tests/conformance/fuzz.py {{N}} --seed {{SEED}}

# The seeded fuzz slice CI runs (a fixed seed, 2,000 cases).
[group('test')]
fuzz-ci: (fuzz "2000" "1")

# Bless tests/vectors/expected.json for cases added to cases.json: adds entries, never changes an existing one (a changed golden output fails).
[group('test')]
bless: build-wasm
    QRGLUE_BLESS=1 {{cargo}} test {{q}} --locked --release -p qrglue-core --test golden
    git diff --stat tests/vectors/expected.json

# Rust: the core (golden vectors, decode, bounds), the guests through wasmtime, and the HTTP query contract (hosts/rust/http-query).
[group('test')]
test-rust: build-wasm contract
    {{cargo}} test --locked --profile host
    # Not a default member (the wasi:http guest builds it for wasm32 too): its unit tests by name.
    {{cargo}} test --locked --profile host -p qrglue-http-query
    # The Rust server's own tests (a handler's panic is a JSON 500; methods and Host): not a default member either.
    {{cargo}} test --locked --profile host -p qrglue-server

### Node host (hosts/node: npm package `qrglue`) ###

# Node: install the locked npm deps when needed, jco transpile into hosts/node/gen, wasm-bindgen-cli (--target web) into hosts/node/gen/bindgen, copy both .wasm into hosts/node/wasm, build the napi-rs addon (cargo --profile addon) into hosts/node/native/qrglue.<platform>-<arch>.node.
[group('build')]
build-node: build-wasm build-bindgen
    bash hosts/node/scripts/build.sh

# Node: golden vectors, errors, decode, fast-check agreement, trap recovery, native addon (panic, soak, threads), npm pack + install.
[group('test')]
test-node: build-node contract
    cd hosts/node && node --test

# Node: component vs raw vs wasm-bindgen vs native addon vs the npm peers (node-qrcode, qr-image; fast_qr for SVG), interleaved; writes target/bench/node.json (QRGLUE_BENCH_QUICK=1: smoke run).
[group('bench')]
bench-node: build-node build-http-rust
    node hosts/node/bench/bench.mjs

### Web page (hosts/web: the Node host's glue in a browser) ###

# Serve the page on http://127.0.0.1:PORT (COOP/COEP for a fine timer, application/wasm); Ctrl-C stops.
[group('web')]
web PORT="8090": build-node
    node hosts/web/serve.mjs {{PORT}}

# The page's npm deps (locked) and Debian's chromium (apt-get when /usr/bin/chromium is missing).
[group('build')]
build-web: build-node
    bash hosts/web/scripts/setup.sh

# Web: the server, then the page in headless Chromium per path (golden bytes, jsQR on screenshots, every error message, URL state, corpus), the bench panel, and report.svg rendered with no overlapping text.
[group('test')]
test-web: build-web _report-venv
    cd hosts/web && node --test

# Browser: the page's own bench panel (component, raw, wasm-bindgen in its worker) in headless Chromium; writes target/bench/browser.json (QRGLUE_BENCH_QUICK=1: the panel's quick mode).
[group('bench')]
bench-browser: build-web
    node hosts/web/tools/bench.mjs

### HTTP servers (tests/http/README.md: one endpoint, one server per host and tier) ###

# Serve GET /qrcode?text=... on http://127.0.0.1:PORT (Ctrl-C stops). HOST TIER: node qrcode|cli|component|raw|bindgen|native|static; python segno|cli|component|raw|native|static; rust axum|static; wasi-http qrglue|wasmtime|jco[-reuse|-static]|wasmcloud (hosts/wasi-http/server/serve.sh). FLAGS: --workers N (default: one per core), --request-timeout SECS (default 10).
[group('http')]
serve HOST TIER PORT="8080" *FLAGS:
    case "{{HOST}}" in node|python|rust|wasi-http) ;; *) echo "serve: HOST is node, python, rust or wasi-http, not '{{HOST}}'" >&2; exit 2;; esac
    just build-http-{{HOST}}
    if [ "{{TIER}}" = cli ]; then just _build-rust-bins; fi
    exec bash hosts/{{HOST}}/server/serve.sh {{TIER}} {{PORT}} {{FLAGS}}

# Everything the HTTP servers need: each host's build, hosts/node/server's npm deps (fastify), the Python server's (uvicorn, in hosts/python/.venv), target/addon/qrglue-server (release with panic = "unwind": a handler's panic is a 500, not the end of the process) and the qrglue CLI (tier cli, target/host/qrglue).
[group('build')]
build-http: build-http-node build-http-python build-http-rust _build-rust-bins

# The Node server: the qrglue package and hosts/node/server's locked npm deps (tier cli also needs _build-rust-bins, which just serve runs).
[group('build')]
build-http-node: build-node
    if [ ! -f hosts/node/server/node_modules/.package-lock.json ] || [ hosts/node/server/package-lock.json -nt hosts/node/server/node_modules/.package-lock.json ]; then \
        cd hosts/node/server && npm ci {{q}} --no-audit --no-fund; \
    fi

# The Python server: the venv (uvicorn and httptools are in requirements-dev.txt).
[group('build')]
build-http-python: build-python

# The Rust server (crate qrglue-server: tiers axum, static).
[group('build')]
build-http-rust:
    {{cargo}} build {{q}} --locked --profile addon -p qrglue-server

# The wasi:http tiers: the proxy component (plain and static) and our own server, qrglue-wasi-http.
[group('build')]
build-http-wasi-http: build-http-proxy _build-rust-bins

# The Rust binaries, all in the `host` profile: target/host/qrglue (the CLI, tier cli), qrglue-conformance (the runner) and qrglue-wasi-http (tiers wasi-http qrglue*). Always the default members, never `-p`: cargo unifies features over the packages it builds, so one set means one build of wasmtime for these, the tests and the bench.
_build-rust-bins: build-wasm
    {{cargo}} build {{q}} --locked --profile host

# HTTP: each server's query parser on the shared cases (tests/http/query_cases.json; hosts/rust/http-query's run in test-rust), then every server and tier of tests/http/README.md started on a free port, checked (golden PNG, every 400/405 body, 1,000 concurrent requests, bad input, 200 idle and trickling connections, the request timeout, SIGTERM), stopped.
[group('test')]
test-http: build-http contract
    node --test hosts/node/server/contract.test.mjs
    cd hosts/python/server && ../.venv/bin/python -m pytest -q -p no:cacheprovider test_http_contract.py
    hosts/python/.venv/bin/python -m pytest -q -p no:cacheprovider tests/http

# HTTP fuzzing (tests/http/test_fuzz.py): seeded random and mutated requests against every server and tier for SECONDS each; never a crash, a hang or a malformed reply. `just test` runs 3 s each.
[group('test')]
fuzz-http SECONDS="30" SEED="20261124": build-http build-http-wasi-http
    QRGLUE_FUZZ_HTTP_SECONDS={{SECONDS}} QRGLUE_FUZZ_HTTP_SEED={{SEED}} hosts/python/.venv/bin/python -m pytest -q -p no:cacheprovider tests/http/test_fuzz.py tests/http-proxy/test_wasi_http.py -k fuzzed

# Host wasi-http (the guest/http-proxy component under qrglue-wasi-http, wasmtime serve and jco, fresh, reused and static, and under wasmCloud) through tests/http's shared endpoint tests, plus their imports (only wasi:io and wasi:http), the plugged core, and the two-host wasmCloud lattice.
[group('test')]
test-http-proxy: build-http-wasi-http build-python _setup-nats
    QRGLUE_NATS_SERVER="{{nats_server}}" hosts/python/.venv/bin/python -m pytest -q -p no:cacheprovider tests/http-proxy

# The wasmCloud lattice alone (also in test-http-proxy: ~15 s): NATS, two wash hosts, one killed under load.
[group('test')]
test-wasmcloud-lattice: build-http-proxy build-python _setup-nats
    QRGLUE_NATS_SERVER="{{nats_server}}" hosts/python/.venv/bin/python -m pytest -q -s -p no:cacheprovider tests/http-proxy/test_wasmcloud_lattice.py

_setup-nats:
    if [ ! -x "{{nats_server}}" ]; then \
        GOBIN="$(dirname "{{nats_server}}")" GOFLAGS=-mod=mod go install github.com/nats-io/nats-server/v2@{{nats_version}}; \
    fi

### Python host (hosts/python) ###

# Python: venv with the pinned dev requirements, both .wasm files in the package, editable install (stamps skip pip when nothing changed).
[group('build')]
build-python: build-wasm
    bash hosts/python/scripts/build.sh

# Python: pytest (golden vectors, errors, decode, hypothesis, threads, traps, wheel, fast glue, leak).
[group('test')]
test-python: build-python contract
    cd hosts/python && .venv/bin/python -m pytest -q

# Python: component (stock, fast) vs raw vs segno/python-qrcode -> target/bench/python.json.
[group('bench')]
bench-python: build-python build-http-rust
    cd hosts/python && .venv/bin/python bench.py --out ../../target/bench/python.json

### Core (guest/core: crate qrglue-core) ###
# Its tests (golden vectors, API, 5,000-case mask differential) run in `test-rust`.

# Core: mask choice vs stock qrcode on N seeded random inputs, all versions/levels/modes (e.g. `just diff-mask 100000`).
[group('test')]
diff-mask N="100000" SEED="0x5eed0f9e112024":
    QRGLUE_MASK_CASES={{N}} QRGLUE_MASK_SEED={{SEED}} {{cargo}} test --locked --release -p qrglue-core --test mask_differential -- --nocapture

# Core: native stage benchmark (seed function, stock vs our encode, PNG stage, png, svg); writes target/bench/core.json (QRGLUE_BENCH_QUICK=1: smoke run).
[group('bench')]
bench-core:
    {{cargo}} bench --locked --profile release -p qrglue-core --bench stages

### Rust host (hosts/rust: library qrglue-host; cli/: binary qrglue) ###
# Its tests run in `test-rust` (`cargo test --profile host` includes the crate).

# (`--profile host`, the profile of the tests: the bench reuses their build of wasmtime. Cargo.toml says why the hosts that link wasmtime have their own profile.)
# Rust: native vs component vs raw (wasmtime), interleaved; writes target/bench/rust.json (QRGLUE_BENCH_QUICK=1: smoke run).
[group('bench')]
bench-rust: build-wasm
    {{cargo}} bench --locked --profile host --bench bridges

# (`[no-cd]`: FILE paths are relative to where you run just, not to the repo root.)
# The qrglue CLI, e.g. `just qrglue png "hello" -o hello.png --path raw`.
[group('build')]
[positional-arguments]
[no-cd]
qrglue *args: build-wasm
    {{cargo}} build --locked --profile host -q --manifest-path {{justfile_directory()}}/Cargo.toml
    {{justfile_directory()}}/target/host/qrglue "$@"
