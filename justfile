# qrglue: one QR generator in Rust, called through wasm from Rust, Node and Python.
# `just bench` builds everything and compares the bridges; `just test` runs every test.
#
# One scheme: recipes are grouped by what they do (setup, build, test, bench, run), in
# that order below, hosts in the same order in each (rust, node, python, web, http).
# Each doc comment is one line; the why lives in the README next to what a recipe drives.
# Private recipes (_name) hold what more than one recipe needs.

set shell := ["bash", "-euo", "pipefail", "-c"]
# Recipes print their results, not their commands; QRGLUE_VERBOSE=1 shows the build tools' output.
set quiet

cargo := env_var_or_default("CARGO", "cargo")
verbose := env_var_or_default("QRGLUE_VERBOSE", "")
q := if verbose == "" { "-q" } else { "" }
# wasm-bindgen-cli refuses a module made by any other version than guest/bindgen's exact pin.
wasm_bindgen_version := "0.2.130"
# hosts/c/include/qrglue.h is this cbindgen's output (just build-capi checks it).
cbindgen_version := "0.29.2"
wasm_target := "wasm32-unknown-unknown"
wasm_out := "target/wasm"
# The prebuilt tools of tools/requirements.txt, first on every recipe's PATH: the pins win.
export PATH := justfile_directory() / "target/tools/bin" + ":" + env_var("PATH")
# Go tools at pinned versions, built once: vegeta (bench-http), nats-server (the wasmCloud lattice).
go_cache := env_var_or_default("XDG_CACHE_HOME", env_var("HOME") / ".cache") / "qrglue"
vegeta_version := "v12.13.0"
vegeta := go_cache / "vegeta-" + vegeta_version / "vegeta"
nats_version := "v2.12.2"
nats_server := go_cache / "nats-server-" + nats_version / "nats-server"

# List the recipes.
default:
    @just --list --unsorted

# ================================ setup ================================

# The Debian packages of tools/system/packages.txt (chromium, the arm64 cross gcc and its libc headers, qemu-user, ...): apt-get only when one is missing.
[group('setup')]
setup-system:
    bash tools/system/install.sh

# The Rust wasm target and the pinned prebuilt tools.
[group('setup')]
setup-rust: setup-tools
    rustup target list --installed | grep -qx {{wasm_target}} || rustup target add {{wasm_target}}

# The pinned prebuilt tools of tools/requirements.txt (wasm-tools, wasmtime, wash) in target/tools.
[group('setup')]
setup-tools:
    bash tools/setup.sh

# The linters: clippy and rustfmt (the toolchain's), ruff and mypy (hosts/python's venv), tsc (hosts/node's lock).
_setup-lint: setup-rust
    for component in clippy rustfmt; do \
        rustup component list --installed | grep -q "^$component" || rustup component add $component; \
    done
    cmp -s hosts/python/requirements-dev.txt hosts/python/.venv/.requirements-installed || just build-python
    just _npm hosts/node

# What runs linux-arm64-gnu's dist here: qemu-user, arm64 Node 20 and CPython 3.11 at the pins of tools/arm64/runtimes.lock.
_setup-arm64-runtimes: setup-system
    bash tools/arm64/runtimes.sh

_setup-vegeta: (_go-install "github.com/tsenart/vegeta/v12@" + vegeta_version vegeta)

_setup-nats: (_go-install "github.com/nats-io/nats-server/v2@" + nats_version nats_server)

# A Go tool at its pinned version, built once into the cache.
_go-install MODULE BIN:
    [ -x "{{BIN}}" ] || GOBIN="$(dirname "{{BIN}}")" GOFLAGS=-mod=mod go install {{MODULE}}

# DIR's locked npm dependencies, when node_modules is missing or older than the lock (hosts/node/README.md: not `npm ci`).
_npm DIR:
    if [ ! -f {{DIR}}/node_modules/.package-lock.json ] \
        || [ {{DIR}}/package-lock.json -nt {{DIR}}/node_modules/.package-lock.json ]; then \
        cd {{DIR}} && npm install {{q}} --no-save --no-audit --no-fund; \
    fi

# A report venv with tests/bench/requirements.txt (matplotlib), refreshed when the pins change.
_report-venv:
    [ -x target/report-venv/bin/python ] || python3 -m venv target/report-venv
    if ! cmp -s tests/bench/requirements.txt target/report-venv/.installed; then \
        target/report-venv/bin/pip install --disable-pip-version-check -q -r tests/bench/requirements.txt \
        && cp tests/bench/requirements.txt target/report-venv/.installed; \
    fi

# ================================ build ================================

# Build everything: the guests, the contract file, every host package and the page's browser.
[group('build')]
build: setup-system build-wasm contract build-node build-python build-go build-java build-web

# From guest/core/src/contract.rs (checked against wit/qr.wit): target/contract.json and the hosts' generated option layers.
[group('build')]
contract:
    {{cargo}} run --locked --profile host -q -p qrglue-contract -- write target/contract.json

# target/wasm/qrglue.component.wasm, qrglue.raw.wasm, qrglue.raw-nosimd.wasm and qrglue.extism.wasm (guest/extism).
[group('build')]
build-wasm: setup-rust
    {{cargo}} build {{q}} --locked --release --target {{wasm_target}} -p qrglue-component -p qrglue-raw -p qrglue-extism
    wasm-tools component new target/{{wasm_target}}/release/qrglue_component.wasm \
        -o target/{{wasm_target}}/release/qrglue.component.wasm
    just _install-wasm target/{{wasm_target}}/release/qrglue.component.wasm qrglue.component.wasm
    just _install-wasm target/{{wasm_target}}/release/qrglue_raw.wasm qrglue.raw.wasm
    just _install-wasm target/{{wasm_target}}/release/qrglue_extism.wasm qrglue.extism.wasm
    just _build-raw-nosimd

# qrglue.raw-nosimd.wasm and qrglue.extism-nosimd.wasm: the guests without simd128, for engines without wasm SIMD (Chicory); README "The paths".
_build-raw-nosimd:
    # .cargo/config.toml's rustflags stay (the 64 MiB cap); --config appends `-simd128`, and the
    # last target-feature wins. Its own target dir: neither build invalidates the other's cache.
    CARGO_TARGET_DIR=target/nosimd {{cargo}} build {{q}} --locked --release --target {{wasm_target}} -p qrglue-raw -p qrglue-extism \
        --config 'target.{{wasm_target}}.rustflags = ["-C", "target-feature=-simd128"]'
    # Re-encoded canonically (print, then parse): wasm-ld leaves call_indirect's table index as a padded
    # 5-byte LEB, which an MVP reader (wasm3) refuses; the canonical form is the single byte 0x00.
    wasm-tools print target/nosimd/{{wasm_target}}/release/qrglue_raw.wasm \
        | wasm-tools parse -o target/nosimd/qrglue.raw-nosimd.canonical.wasm
    just _install-wasm target/nosimd/qrglue.raw-nosimd.canonical.wasm qrglue.raw-nosimd.wasm
    # Proof that no SIMD instruction is left, and none of reference types: it validates with both off.
    wasm-tools validate --features=-simd,-reference-types {{wasm_out}}/qrglue.raw-nosimd.wasm
    # The Extism plug-in for Extism's Chicory SDK (hosts/java, Engine.EXTISM): SIMD off is all it needs.
    just _install-wasm target/nosimd/{{wasm_target}}/release/qrglue_extism.wasm qrglue.extism-nosimd.wasm
    wasm-tools validate --features=-simd {{wasm_out}}/qrglue.extism-nosimd.wasm

# target/wasm/qrglue.bindgen.wasm (wasm-bindgen-cli's input, run by build-node), and wasm-bindgen-cli at its pin.
[group('build')]
build-bindgen: setup-rust
    # Not `cargo install --locked`: its published lock pins webpki-roots 1.0.11, which this
    # registry does not serve. The CLI's own version is exact either way.
    if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen {{wasm_bindgen_version}}" ]; then \
        {{cargo}} install {{q}} wasm-bindgen-cli --version {{wasm_bindgen_version}}; \
    fi
    {{cargo}} build {{q}} --locked --release --target {{wasm_target}} -p qrglue-bindgen
    just _install-wasm target/{{wasm_target}}/release/qrglue_bindgen.wasm qrglue.bindgen.wasm

# SRC as target/wasm/NAME, replaced only when its bytes changed: the Rust host embeds the guests, and relinks on any mtime.
_install-wasm SRC NAME:
    mkdir -p {{wasm_out}}
    cmp -s "{{SRC}}" "{{wasm_out}}/{{NAME}}" \
        || { cp "{{SRC}}" "{{wasm_out}}/.{{NAME}}.new" && mv "{{wasm_out}}/.{{NAME}}.new" "{{wasm_out}}/{{NAME}}"; }
    wasm-tools validate "{{wasm_out}}/{{NAME}}"

# The Rust binaries in the `host` profile: qrglue (the CLI), qrglue-conformance, qrglue-wasi-http.
_build-rust-bins: build-wasm
    # The default members, never `-p`: cargo unifies features over the packages it builds,
    # so one set of packages means one build of wasmtime for these, the tests and the bench.
    {{cargo}} build {{q}} --locked --profile host

# Node: jco's glue, wasm-bindgen's glue, both .wasm files and the napi-rs addon, in hosts/node (hosts/node/scripts/build.sh).
[group('build')]
build-node: build-wasm build-bindgen
    bash hosts/node/scripts/build.sh
    # The Extism path's own package (hosts/node/extism: @extism/extism, pinned by its lock).
    just _npm hosts/node/extism

# Python: the venv with the pinned dev requirements, both .wasm files in the package, editable install.
[group('build')]
build-python: build-wasm
    bash hosts/python/scripts/build.sh

# Go: qrglue.raw.wasm for go:embed, the C library for cgo, go.sum's modules through the proxy, the CLI and runners in hosts/go/bin.
[group('build')]
build-go: _go-embed build-capi
    cd hosts/go && go mod download && go build -tags qrglue_native -o bin/qrglue ./cmd/qrglue \
        && go build -tags qrglue_native -o bin/qrglue-conformance ./cmd/qrglue-conformance
    # The raw path on Wasmtime (module hosts/go/wasmtime: wasmtime-go's prebuilt static library, through cgo).
    cd hosts/go/wasmtime && go mod download && go build -o ../bin/qrglue-conformance-wasmtime ./cmd/qrglue-conformance-wasmtime
    # The Extism path (module hosts/go/extism: guest/extism through Extism's Go SDK, on wazero).
    cd hosts/go/extism && go mod download && go build -o ../bin/qrglue-conformance-extism ./cmd/qrglue-conformance-extism \
        && go build -o ../bin/qrglue-bench-extism ./cmd/qrglue-bench-extism && go build -o ../bin/qrglue-engine-probe ./cmd/qrglue-engine-probe
    # The raw path on Wasmer 2.0 (module hosts/go/wasmer: wasmer-go's prebuilt libwasmer, through cgo; qrglue.raw-nosimd.wasm).
    cd hosts/go/wasmer && go mod download && go build -o ../bin/qrglue-conformance-wasmer ./cmd/qrglue-conformance-wasmer \
        && go build -o ../bin/qrglue-engine-wasmer ./cmd/qrglue-engine-wasmer

# The C ABI library over the core (hosts/c): target/addon/libqrglue_capi.{a,so}; fails if hosts/c/include/qrglue.h is not cbindgen's.
[group('build')]
build-capi: setup-rust _setup-cbindgen
    {{cargo}} build {{q}} --locked --profile addon -p qrglue-capi
    mkdir -p target/capi
    cbindgen --quiet --config hosts/c/cbindgen.toml --crate qrglue-capi --output target/capi/qrglue.h hosts/c
    cmp -s target/capi/qrglue.h hosts/c/include/qrglue.h \
        || { echo "hosts/c/include/qrglue.h is not what cbindgen makes of hosts/c/src/lib.rs: just capi-header"; exit 1; }

# hosts/c/include/qrglue.h regenerated by cbindgen (after a change of hosts/c/src/lib.rs's C ABI).
[group('build')]
capi-header: _setup-cbindgen
    cbindgen --quiet --config hosts/c/cbindgen.toml --crate qrglue-capi --output hosts/c/include/qrglue.h hosts/c

# cbindgen at its pin, built once by cargo install.
_setup-cbindgen:
    if [ "$(cbindgen --version 2>/dev/null)" != "cbindgen {{cbindgen_version}}" ]; then \
        {{cargo}} install {{q}} --locked cbindgen --version {{cbindgen_version}}; \
    fi

# target/wasm/qrglue.raw.wasm as hosts/go/qrglue.raw.wasm (git-ignored), replaced only when its bytes changed; the
# Extism plug-in and the module without SIMD (hosts/go/wasmer's) likewise.
_go-embed: build-wasm
    cmp -s target/wasm/qrglue.raw.wasm hosts/go/qrglue.raw.wasm \
        || cp target/wasm/qrglue.raw.wasm hosts/go/qrglue.raw.wasm
    cmp -s target/wasm/qrglue.raw-nosimd.wasm hosts/go/wasmer/qrglue.raw-nosimd.wasm \
        || cp target/wasm/qrglue.raw-nosimd.wasm hosts/go/wasmer/qrglue.raw-nosimd.wasm
    cmp -s target/wasm/qrglue.extism.wasm hosts/go/extism/qrglue.extism.wasm \
        || cp target/wasm/qrglue.extism.wasm hosts/go/extism/qrglue.extism.wasm

# Java: hosts/java's jar (Chicory's build-time compiler turns qrglue.raw-nosimd.wasm into bytecode; hosts/c's library for FFM) and its libs, on the JDK 25 of tools/java/jdk.sh.
[group('build')]
build-java: setup-system build-wasm build-capi
    cd hosts/java && JAVA_HOME="$(bash ../../tools/java/jdk.sh)" mvn -B -q -DskipTests package

# The page's locked npm deps, and Debian's chromium (setup-system).
[group('build')]
build-web: setup-system build-node
    bash hosts/web/scripts/setup.sh

# target/dist/: the npm tarballs (qrglue, its platform packages qrglue-<triple>) and the wheels (qrglue, qrglue-native abi3 per platform).
[group('build')]
dist: build-node build-python _dist-arm64
    rm -rf target/dist
    node hosts/node/scripts/dist.mjs target/dist
    bash hosts/python/scripts/dist.sh target/dist
    cd target/dist && for f in *; do echo "dist: target/dist/$f ($(stat -c %s "$f") bytes)"; done

# linux-arm64-gnu's addon and abi3 wheel, cross-built into target/cross (rustup's target, Debian's gcc-aarch64-linux-gnu).
_dist-arm64: setup-system build-python
    bash tools/arm64/build.sh

# Everything the node, python, rust, go and java servers need (tests/http/README.md), the CLI of tier cli included.
[group('build')]
build-http: build-http-node build-http-python build-http-rust build-http-go build-http-java _build-rust-bins

# The Rust server, target/addon/qrglue-server (tiers axum, static).
[group('build')]
build-http-rust:
    {{cargo}} build {{q}} --locked --profile addon -p qrglue-server

# The Node server: the qrglue package and hosts/node/server's locked npm deps (fastify).
[group('build')]
build-http-node: build-node (_npm "hosts/node/server")

# The Java server (Netty; hosts/java/server): the qrglue jar installed into ~/.m2, then the server's classes and libs.
[group('build')]
build-http-java: build-java
    cd hosts/java && JAVA_HOME="$(bash ../../tools/java/jdk.sh)" mvn -B -q -DskipTests install
    cd hosts/java/server && JAVA_HOME="$(bash ../../../tools/java/jdk.sh)" mvn -B -q -DskipTests package

# The Python server: the venv (uvicorn and httptools are in hosts/python/requirements-dev.txt).
[group('build')]
build-http-python: build-python

# The Go server, hosts/go/bin/qrglue-server (its own module hosts/go/server: skip2/go-qrcode for tier 0; native with cgo).
[group('build')]
build-http-go: build-go
    cd hosts/go/server && go mod download && go build -tags qrglue_native -o ../bin/qrglue-server .

# Host wasi-http: the proxy component (plain and static), our own server qrglue-wasi-http, jco serve.
[group('build')]
build-http-wasi-http: build-http-proxy _build-rust-bins

# target/wasm/qrglue.http.wasm (guest/http-proxy plugged with the component) and qrglue.http-static.wasm.
[group('build')]
build-http-proxy: build-wasm (_npm "hosts/node")
    {{cargo}} build {{q}} --locked --release --target {{wasm_target}} -p qrglue-http-proxy
    # The static variant is a feature of the same crate: its own target dir, so neither build invalidates the other.
    CARGO_TARGET_DIR=target/http-static \
        {{cargo}} build {{q}} --locked --release --target {{wasm_target}} -p qrglue-http-proxy --features static
    wasm-tools component new target/{{wasm_target}}/release/qrglue_http_proxy.wasm -o {{wasm_out}}/qrglue.http-proxy.wasm
    bash tools/plug.sh {{wasm_out}}/qrglue.http-proxy.wasm {{wasm_out}}/qrglue.component.wasm {{wasm_out}}/qrglue.http.wasm
    wasm-tools component new target/http-static/{{wasm_target}}/release/qrglue_http_proxy.wasm \
        -o {{wasm_out}}/qrglue.http-static.wasm
    for name in http-proxy http http-static; do wasm-tools validate {{wasm_out}}/qrglue.$name.wasm; done

# ================================ test ================================

# Run every test in the repo: everything built once, then the suites below in two lanes, one per core (tools/test-lanes.sh).
[group('test')]
test: _test-built
    # Balanced on their times in CI (~1,600 s a lane with raw_abi in fuzz-deep-ci; the table at the end has this run's).
    # Both lanes start with what compiles (cargo fuzz's build and cargo test; clippy and rustdoc), and
    # the two hostile HTTP suites (test-http, test-http-proxy) come one after the other, not together.
    bash tools/test-lanes.sh \
        "fuzz-deep-ci test-rust test-http test-python test-java" \
        "lint docs test-node test-web test-dist test-http-proxy conformance fuzz-ci soak-ci test-go"

# What every recipe of `just test` depends on, built once before the lanes start (they run with --no-deps).
_test-built: setup-system _setup-lint _go-embed (_npm "hosts/node") contract build build-http build-http-wasi-http dist _setup-arm64-runtimes _setup-nats _setup-vegeta _report-venv

# Warnings as errors: rustfmt, the docs' names (tools/check_docs.py), clippy (host and wasm32), ruff, mypy, tsc, gofmt, go vet, Spotless (Java).
[group('test')]
lint: _setup-lint _go-embed
    {{cargo}} fmt --all --check
    {{cargo}} run --locked --profile host -q -p qrglue-contract -- check
    python3 tools/check_docs.py
    {{cargo}} clippy {{q}} --locked --workspace --all-targets \
        --exclude qrglue-component --exclude qrglue-raw --exclude qrglue-extism --exclude qrglue-bindgen --exclude qrglue-http-proxy -- -D warnings
    {{cargo}} clippy {{q}} --locked --target {{wasm_target}} \
        -p qrglue-component -p qrglue-raw -p qrglue-extism -p qrglue-bindgen -p qrglue-http-proxy -- -D warnings
    cd hosts/python && .venv/bin/ruff check -q . && .venv/bin/mypy
    # tsc derives declarations from each entry's JS, then checks the hand-written .d.ts against them.
    cd hosts/node && rm -rf node_modules/.cache/qrglue-js-types \
        && node_modules/.bin/tsc -p tsconfig.js-types.json && node_modules/.bin/tsc -p tsconfig.json
    # gofmt -l lists the files it would change: any is a failure. go vet needs the embedded .wasm (_go-embed)
    # and, for the native path's files, the committed header (hosts/c/include/qrglue.h), not the library.
    unformatted="$(gofmt -l hosts/go)"; [ -z "$unformatted" ] || { echo "gofmt: not formatted: $unformatted"; exit 1; }
    cd hosts/go && go vet ./... && go vet -tags qrglue_native ./...
    cd hosts/go/server && go vet -tags qrglue_native ./...
    cd hosts/go/wasmtime && go vet ./...
    cd hosts/go/extism && go vet ./...
    cd hosts/go/wasmer && go vet ./...
    # palantir-java-format through Spotless (versions pinned in hosts/java/pom.xml).
    cd hosts/java && JAVA_HOME="$(bash ../../tools/java/jdk.sh)" mvn -B -q spotless:check
    cd hosts/java/server && JAVA_HOME="$(bash ../../../tools/java/jdk.sh)" mvn -B -q spotless:check
    echo "lint: rustfmt, docs' names, clippy (host + wasm32), ruff, mypy, tsc, gofmt, go vet, spotless: clean"

# The day-to-day loop: golden vectors and error kinds on every host, then the whole conformance run.
[group('test')]
test-fast: build-wasm build-node build-python build-go
    {{cargo}} test {{q}} --locked --profile host --lib --test golden --test api
    {{cargo}} test {{q}} --locked --profile host --test host -- golden::
    cd hosts/node && node --test tests/golden.test.js tests/errors.test.js
    cd hosts/python && .venv/bin/python -m pytest -q -p no:cacheprovider tests/test_golden.py tests/test_errors.py \
        -k "golden or error_kinds"
    cd hosts/go && go test -count=1 -tags qrglue_native -run 'Golden|ErrorOrder' .
    python3 tests/conformance/run.py

# Rust: the core, the host on every path, the CLI, the query grammar and the axum server.
[group('test')]
test-rust: setup-system build-wasm contract
    {{cargo}} test --locked --profile host
    # Not default members (the wasi:http guest builds the first for wasm32; the others are the addon profile's).
    {{cargo}} test --locked --profile host -p qrglue-http-query --features core
    {{cargo}} test --locked --profile host -p qrglue-server -p qrglue-capi

# Node: every path (golden, errors, agreement, traps, limits, concurrency, cli, package) with node:test.
[group('test')]
test-node: build-node contract
    cd hosts/node && node --test

# Python: every path (golden, errors, agreement, traps, limits, concurrency, cli, package) with pytest.
[group('test')]
test-python: build-python contract
    cd hosts/python && .venv/bin/python -m pytest -q

# Go: raw (wazero), native (cgo), raw on Wasmtime and on Wasmer (golden, errors, bad input, traps, panics, memory, goroutines under -race), the CLI.
[group('test')]
test-go: build-go contract
    cd hosts/go && go test -race -count=1 -tags qrglue_native ./...
    cd hosts/go/wasmtime && go test -race -count=1 ./...
    cd hosts/go/extism && go test -race -count=1 ./...
    cd hosts/go/wasmer && go test -race -count=1 ./...
    # A build without the native path (no cgo needed): --path native is a path that cannot run, exit 3.
    cd hosts/go && go test -count=1 -run 'PathNative|Golden' ./cmd/qrglue .

# Java: both Chicory paths and the FFM one (golden corpus, contract file, errors, traps, panics, threads, memory, CLI) with JUnit 5.
[group('test')]
test-java: build-java contract
    cd hosts/java && JAVA_HOME="$(bash ../../tools/java/jdk.sh)" mvn -B -ntp test

# Dist: what `just dist` wrote, installed into a clean npm project and a clean venv (the golden PNG; the addon from its platform package); linux-arm64-gnu's under qemu-user.
[group('test')]
test-dist: dist _setup-arm64-runtimes
    cd hosts/node && node --test dist-test/installed.mjs dist-test/installed-arm64.mjs
    cd hosts/python && .venv/bin/python -m pytest -q -p no:cacheprovider dist-test

# Web: the page in headless Chromium per path, its bench panel, report.svg and report.html with no overlapping text.
[group('test')]
test-web: build-web _report-venv
    cd hosts/web && node --test

# HTTP: each server's query parser on tests/http/query_cases.json, then every node, python, rust, go and java tier (tests/http).
[group('test')]
test-http: build-http contract
    node --test hosts/node/server/query.test.mjs
    cd hosts/python/server && ../.venv/bin/python -m pytest -q -p no:cacheprovider test_http_query.py
    cd hosts/go/server && go test -count=1 .
    cd hosts/java/server && JAVA_HOME="$(bash ../../../tools/java/jdk.sh)" mvn -B -q test
    hosts/python/.venv/bin/python -m pytest -q -p no:cacheprovider tests/http

# Host wasi-http: every tier through tests/http's suites, the component's imports, the two-host wasmCloud lattice.
[group('test')]
test-http-proxy: setup-system build-http-wasi-http build-python _setup-nats
    QRGLUE_NATS_SERVER="{{nats_server}}" hosts/python/.venv/bin/python -m pytest -q -p no:cacheprovider tests/http-proxy

# The wasmCloud lattice alone (also in test-http-proxy): NATS, two wash hosts behind nginx, one killed under load, none lost.
[group('test')]
test-wasmcloud-lattice: setup-system build-http-proxy build-python _setup-nats
    QRGLUE_NATS_SERVER="{{nats_server}}" hosts/python/.venv/bin/python -m pytest -q -s -p no:cacheprovider \
        tests/http-proxy/test_wasmcloud_lattice.py

# Every case of tests/vectors through every path of every host: equal to expected.json and to each other.
[group('test')]
conformance: build
    python3 tests/conformance/run.py

# Differential fuzzing: N seeded random cases through every path; divergences go to target/fuzz/divergences.json.
[group('test')]
fuzz N="100000" SEED="20261122": build
    python3 tests/conformance/fuzz.py {{N}} --seed {{SEED}}

# The seeded fuzz slice CI runs (`just test`, with fuzz-deep-ci and a one-minute soak).
[group('test')]
fuzz-ci: build
    just --no-deps fuzz 2000 1

# The coverage-guided targets' CI slice: each for 20 s (after installing the pinned nightly and cargo-fuzz, once; fuzz/fuzz.sh).
[group('test')]
fuzz-deep-ci: _build-rust-bins
    bash fuzz/fuzz.sh 20

# Coverage-guided fuzzing (cargo fuzz, fuzz/README.md): every target for SECONDS; writes target/fuzz/report.json.
[group('test')]
fuzz-deep SECONDS="600": _build-rust-bins
    bash fuzz/fuzz.sh {{SECONDS}}

# The fuzz seeds (fuzz/seeds/core, fuzz/seeds/query) from tests/vectors and tests/http/query_cases.json.
[group('test')]
fuzz-seeds:
    python3 fuzz/make_seeds.py

# Every server tier under vegeta and every in-process path in a loop for MINUTES, RSS and fds each second (tests/soak/soak.py).
[group('test')]
soak MINUTES="1" *flags: build-http build-http-wasi-http build-node build-python _setup-vegeta
    cd hosts/go && go build -tags qrglue_native -o bin/qrglue-soak ./cmd/qrglue-soak
    python3 tests/soak/soak.py --vegeta "{{vegeta}}" --minutes {{MINUTES}} {{flags}}

# The soak's CI slice (`just test`): one minute, Java left out (its JIT warm-up alone trips the bound in a minute: docs/guarantees.md).
[group('test')]
soak-ci: build-http build-http-wasi-http build-node build-python _setup-vegeta
    just --no-deps soak 1 --exclude java

# HTTP fuzzing: seeded random and mutated requests against every server and tier for SECONDS each.
[group('test')]
fuzz-http SECONDS="30" SEED="20261124": setup-system build-http build-http-wasi-http _setup-nats
    QRGLUE_NATS_SERVER="{{nats_server}}" QRGLUE_FUZZ_HTTP_SECONDS={{SECONDS}} QRGLUE_FUZZ_HTTP_SEED={{SEED}} hosts/python/.venv/bin/python -m pytest -q \
        -p no:cacheprovider tests/http/test_fuzz.py tests/http-proxy/test_wasi_http.py -k fuzzed

# Core: our mask choice against stock qrcode's on N seeded random inputs.
[group('test')]
diff-mask N="100000" SEED="0x5eed0f9e112024":
    QRGLUE_MASK_CASES={{N}} QRGLUE_MASK_SEED={{SEED}} \
        {{cargo}} test --locked --release -p qrglue-core --test mask_differential -- --nocapture

# Bless tests/vectors/expected.json for added cases: adds entries, never changes one (a changed output fails).
# `just bless png` (or `png,svg`, `svg`): a deliberate re-bless of those outputs' digests only, after proving the
# pixels unchanged (guest/core/tests/png_pixels.rs); any other changed digest still fails.
[group('test')]
bless outputs="": build-wasm
    QRGLUE_BLESS={{ if outputs == "" { "1" } else { outputs } }} {{cargo}} test {{q}} --locked --release -p qrglue-core --test golden
    git diff --stat tests/vectors/expected.json

# ================================ docs ================================

# The API reference from the code's own doc comments, into target/docs/: rustdoc (qrglue-core, qrglue-host), TypeDoc (hosts/node), go doc -all (hosts/go), pdoc (hosts/python), javadoc (hosts/java); warnings are errors.
[group('docs')]
docs: build-python _go-embed (_npm "hosts/node")
    rm -rf target/docs && mkdir -p target/docs/go
    # missing_docs is on in both crates (#![warn]): with -D warnings an undocumented public item fails.
    RUSTDOCFLAGS="-D warnings" {{cargo}} doc {{q}} --locked --no-deps -p qrglue-core -p qrglue-host --target-dir target/docs-build
    cp -r target/docs-build/doc target/docs/rust
    # The .d.ts of package.json's exports (hosts/node/tsconfig.typedoc.json): an undocumented export fails.
    cd hosts/node && node_modules/.bin/typedoc --tsconfig tsconfig.typedoc.json --logLevel Warn
    cd hosts/go && for pkg in . ./wasmtime ./extism ./wasmer; do \
        (cd "$pkg" && go doc -all .) > "../../target/docs/go/$(basename "$(cd "$pkg" && go list .)").txt"; \
    done
    # pdoc's warnings fail the build, but two of its limits: a TypedDict's flattened keys (it cannot
    # place them; the base documents them) and qrglue.Generator, imported lazily (PEP 562).
    hosts/python/.venv/bin/python -W error -W "ignore:Cannot determine where:UserWarning" \
        -W "ignore:Found 'Generator' in qrglue.__all__:UserWarning" -m pdoc -o target/docs/python \
        qrglue qrglue.raw qrglue.auto qrglue.native qrglue.extism qrglue.wasm3
    # javadoc, doclint all, a warning fails (hosts/java/pom.xml); its output only on failure. The
    # plugin's stale-data file goes first: it compares the source folders, not the files in them, so it
    # skipped javadoc after a file was edited in place and passed an undocumented method.
    cd hosts/java && rm -rf target/reports/apidocs target/maven-javadoc-plugin-stale-data.txt \
        && log="$(JAVA_HOME="$(bash ../../tools/java/jdk.sh)" mvn -B -ntp javadoc:javadoc 2>&1)" \
        || { grep -E '^\[(WARNING|ERROR)\]' <<<"$log" >&2; exit 1; }
    cp -r hosts/java/target/reports/apidocs target/docs/java
    echo "docs: target/docs/{rust,node,go,python,java}"

# ================================ bench ================================

# Build everything, benchmark every bridge, write target/bench/report.{html,json,md,svg} (--quick: a smoke run).
[group('bench')]
bench *flags: build-wasm
    bash tests/bench/run.sh {{flags}}

# The same as `just bench --quick`.
[group('bench')]
bench-quick: (bench "--quick")

# Core: the native stages (encode, PNG, SVG); writes target/bench/core.json.
[group('bench')]
bench-core:
    {{cargo}} bench --locked --profile release -p qrglue-core --bench stages

# Rust: native, component and raw interleaved, in the tests' `host` profile; writes target/bench/rust.json.
[group('bench')]
bench-rust: build-wasm
    {{cargo}} bench --locked --profile host --bench bridges

# Node: component, raw, wasm-bindgen, native addon and the npm peers interleaved; writes target/bench/node.json.
[group('bench')]
bench-node: build-node build-http-rust
    node hosts/node/bench/bench.mjs

# Python: component, raw, native and the PyPI peers interleaved; writes target/bench/python.json.
[group('bench')]
bench-python: build-python build-http-rust
    cd hosts/python && .venv/bin/python bench/bench.py --out ../../target/bench/python.json

# Go: raw (wazero) and native (cgo) interleaved, then cold starts; writes target/bench/go.json.
[group('bench')]
bench-go: build-go
    cd hosts/go && go run -tags qrglue_native ./cmd/qrglue-bench -out ../../target/bench/go.json

# Java: native (FFM), compiled and interpreted Chicory, Extism's Chicory SDK, ZXing and qrcodegen, each in forked JVMs (cold start, first call, steady state); writes target/bench/java.json.
[group('bench')]
bench-java: build-java
    cd hosts/java && "$(bash ../../tools/java/jdk.sh)/bin/java" -Dqrglue.repo="$PWD/../.." \
        -cp "target/qrglue.jar:target/qrglue-tests.jar:target/test-lib/*" dev.qrglue.JavaBench \
        --out ../../target/bench/java.json ${QRGLUE_BENCH_QUICK:+--quick}

# Extism against the raw ABI on Go, Node and Python, interleaved per host; writes target/bench/extism-{go,node,python}.json.
[group('bench')]
bench-extism: build-go build-node build-python
    hosts/go/bin/qrglue-bench-extism
    cd hosts/node && node extism/bench.mjs
    hosts/python/.venv/bin/python hosts/python/bench/bench_extism.py

# The engine table's own figures (tests/bench/engines.py): load, first png, peak RSS per engine in fresh processes, wasm3 in process; writes target/bench/engines.json.
[group('bench')]
bench-engines: build-go build-node build-python build-java _build-rust-bins
    python3 tests/bench/engines.py

# Browser: the page's own bench panel in headless Chromium; writes target/bench/browser.json.
[group('bench')]
bench-browser: build-web
    node hosts/web/tools/bench.mjs

# The server experiment (tests/http/README.md): every server and tier under vegeta on loopback (--quick: a smoke run).
[group('bench')]
bench-http *flags: setup-system build-http build-http-wasi-http _setup-vegeta _setup-nats _report-venv
    QRGLUE_NATS_SERVER="{{nats_server}}" python3 tests/bench/http_bench.py --vegeta "{{vegeta}}" {{flags}}
    target/report-venv/bin/python tests/bench/report.py > /dev/null
    echo "report: target/bench/report.md (section 'HTTP servers')"

# ================================ run ================================

# Serve GET /qrcode?text=... on 127.0.0.1:PORT; HOST TIER as in tests/http/README.md; --workers N, --request-timeout SECS (lattice: --hosts N).
[group('run')]
serve HOST TIER PORT="8080" *FLAGS:
    case "{{HOST}}" in node|python|rust|go|java|wasi-http) ;; \
        *) echo "serve: HOST is node, python, rust, go, java or wasi-http, not '{{HOST}}'" >&2; exit 2;; esac
    just build-http-{{HOST}}
    if [ "{{TIER}}" = cli ]; then just _build-rust-bins; fi
    if [ "{{TIER}}" = lattice ]; then just setup-system _setup-nats; fi
    QRGLUE_NATS_SERVER="{{nats_server}}" exec bash hosts/{{HOST}}/server/serve.sh {{TIER}} {{PORT}} {{FLAGS}}

# Serve the page on http://127.0.0.1:PORT (COOP/COEP, application/wasm); Ctrl-C stops.
[group('run')]
web PORT="8090": build-node
    node hosts/web/serve.mjs {{PORT}}

# The qrglue CLI, e.g. `just qrglue png "hello" -o hello.png --path raw` (paths relative to where you run just).
[group('run')]
[positional-arguments]
[no-cd]
qrglue *args: build-wasm
    {{cargo}} build --locked --profile host -q --manifest-path {{justfile_directory()}}/Cargo.toml
    {{justfile_directory()}}/target/host/qrglue "$@"
