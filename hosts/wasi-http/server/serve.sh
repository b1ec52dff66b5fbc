#!/usr/bin/env bash
# Serve the qrglue wasi:http proxy component (guest/http-proxy) on
# 127.0.0.1:PORT, in the foreground: host wasi-http of `just serve`.
#
#   hosts/wasi-http/server/serve.sh TIER [PORT] [--workers N] [--request-timeout SECS] [--hosts N]
#
# (PORT defaults to 8080.) `just serve wasi-http TIER [PORT]` builds what it
# needs first. --workers N: the tokio worker threads of qrglue-wasi-http and
# of wasmtime serve (TOKIO_WORKER_THREADS) (default one per core); jco serve
# is one Node process and ignores it. --request-timeout SECS (default 10) is
# qrglue-wasi-http's request and write timeout; the other servers accept it
# for the shared test driver and ignore it: none of them can be told to time
# out a slow client (see the limits below and hosts/wasi-http/README.md).
# --hosts N (tier lattice only, default 2): how many `wash host`s nginx balances.
#
# Tiers: the component (qrglue.http.wasm) or the static one (golden bytes from
# memory: that server's ceiling) under each server. All need `just
# build-http-proxy`; the qrglue ones target/host/qrglue-wasi-http too.
#   qrglue            qrglue-wasi-http (our own server, this folder): a fresh instance per request,
#                     with timeouts
#   qrglue-reuse      qrglue-wasi-http --max-instance-reuse-count $QRGLUE_REUSE_COUNT (default 10000):
#                     each instance serves up to that many requests, one at a time
#   qrglue-static     qrglue-wasi-http, the static component
#   wasmtime          wasmtime serve, a fresh instance per request (its default)
#   wasmtime-reuse    wasmtime serve --max-instance-reuse-count $QRGLUE_REUSE_COUNT (default 10000)
#   wasmtime-static   wasmtime serve, the static component
#   jco               jco serve (one instance for every request, jco's default)
#   jco-static        jco serve, the static component
#   wasmcloud         wasmCloud's `wash dev` (wash 2.10.3, tools/requirements.txt) on the same
#                     qrglue.http.wasm: a project dir under target/wasmcloud/PORT whose
#                     .wash/config.yaml names the prebuilt component (build.command `true`) and
#                     dev.address; wash's own state under target/wasmcloud/home; loopback only
#   lattice           wasmCloud in production shape: nats-server, two `wash host`s with the
#                     workload started through NATS, Debian's nginx in front (lattice.py);
#                     needs nats-server (QRGLUE_NATS_SERVER, `just _setup-nats`) and nginx;
#                     --request-timeout is nginx's client header/body/send/keep-alive timeout;
#                     --hosts N sets the number of wash hosts (default 2)
#
# Limits (see hosts/wasi-http/README.md): qrglue-wasi-http has those of
# hosts/rust/server (hyper: 431 past a 16 KiB head or 100 header lines, the
# request timeout for a head, idle keep-alive included, and for a write that
# makes no progress). For the others: the component answers 431 to a head
# over 16 KiB; wasmtime serve (hyper http1) itself buffers up to ~400 KiB
# (431 beyond), holds at most 1000 connections and has NO header-read or idle
# timeout; jco serve (node:http in a worker) allows 16 KiB of headers (431
# beyond), headersTimeout 60 s, requestTimeout 300 s, keep-alive 5 s.
#
# The server runs until SIGINT/SIGTERM; this script's process stays its parent
# and stops it (jco serve runs the component in a child node process).
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
tiers="qrglue, qrglue-reuse, qrglue-static, wasmtime, wasmtime-reuse, wasmtime-static, jco, jco-static, wasmcloud, lattice"
tier="${1:?usage: serve.sh TIER [PORT] (tiers: $tiers)}"
port="${2:-8080}"
shift $(( $# >= 2 ? 2 : 1 ))
host_flags=()
request_timeout=10
lattice_hosts=2
while [ $# -gt 0 ]; do
    case "$1" in
        --workers) export TOKIO_WORKER_THREADS="${2:?--workers N}"; host_flags+=(--workers "$2"); shift 2 ;;
        --request-timeout) host_flags+=(--request-timeout "${2:?--request-timeout SECS}"); request_timeout="$2"; shift 2 ;;
        --hosts) lattice_hosts="${2:?--hosts N}"; shift 2
            # Only the lattice has hosts to count: elsewhere the flag would be silently meaningless.
            [ "$tier" = lattice ] || { echo "serve.sh: --hosts is for tier lattice only, not '$tier'" >&2; exit 2; }
            [[ "$lattice_hosts" =~ ^[1-9][0-9]*$ ]] || { echo "serve.sh: --hosts N: a whole number ≥ 1, not '$lattice_hosts'" >&2; exit 2; } ;;
        *) echo "serve.sh: unknown flag '$1' (--workers N, --request-timeout SECS, --hosts N)" >&2; exit 2 ;;
    esac
done
# The pinned wasmtime of tools/requirements.txt (just setup-tools), first on PATH.
export PATH="$root/target/tools/bin:$PATH"

wasm="$root/target/wasm/qrglue.http.wasm"
static="$root/target/wasm/qrglue.http-static.wasm"

# wash captures a std backtrace for every wasmtime::Error it builds, two per
# request even when the request succeeds, when RUST_BACKTRACE=1 is in the
# environment (as it is on many machines): ~9 ms of CPU a request in libunwind
# (hosts/wasi-http/UPSTREAM.md, section 4). RUST_LIB_BACKTRACE=0 turns off
# only those captures; a panic still prints its backtrace.
export RUST_LIB_BACKTRACE="${RUST_LIB_BACKTRACE:-0}"  # set to 1 to measure the "before"

# Our own server: exec'd, so that its exit status (0 after SIGTERM) is this
# script's; it sets up its pooling allocator itself (the same sizes as below).
case "$tier" in
    lattice)
        # nginx in front of --hosts `wash host`s (default two) joined by NATS
        # (lattice.py, the one definition of that deployment); nginx times out
        # slow clients after --request-timeout. Exec'd: SIGTERM stops every
        # process of it, exit 0.
        echo "serve.sh: lattice on http://127.0.0.1:$port/ (nginx -> $lattice_hosts wash hosts)" >&2
        exec python3 "$root/hosts/wasi-http/server/lattice.py" --port "$port" --hosts "$lattice_hosts" \
            --request-timeout "$request_timeout" ;;
    qrglue*)
        bin="$root/target/host/qrglue-wasi-http"
        [ -x "$bin" ] || { echo "serve.sh: $bin is missing: run \`just _build-rust-bins\`" >&2; exit 1; }
        case "$tier" in
            qrglue) host_flags+=("$wasm") ;;
            qrglue-reuse) host_flags+=(--max-instance-reuse-count "${QRGLUE_REUSE_COUNT:-10000}" "$wasm") ;;
            qrglue-static) host_flags+=("$static") ;;
            *) echo "serve.sh: unknown tier '$tier' ($tiers)" >&2; exit 2 ;;
        esac
        [ -f "${host_flags[-1]}" ] || { echo "serve.sh: ${host_flags[-1]} is missing: run \`just build-http-proxy\`" >&2; exit 1; }
        echo "serve.sh: $tier on http://127.0.0.1:$port/ ($bin --port $port ${host_flags[*]})" >&2
        exec "$bin" --port "$port" "${host_flags[@]}" ;;
esac

# wasmtime serve's allocator (README "Cost per request"): the pooling
# allocator keeping 2 MiB of each linear memory resident between instances
# (the core grows to 21 pages = 1.3 MiB on its first png) cuts a fresh
# instance's png from ~470 to ~290 us: the pages are reset, not unmapped and
# faulted in again. Slots for 1,000 concurrent requests (wasmtime serve's
# default cap) of 2 core instances and 2 memories each, 64 MiB (the guests'
# declared maximum) per memory. QRGLUE_WASMTIME_FLAGS replaces these
# (e.g. "-O pooling-allocator=n": wasmtime's defaults).
default_flags="-O pooling-allocator=y -O pooling-memory-keep-resident=2097152 -O pooling-table-keep-resident=65536
 -O pooling-max-memory-size=67108864 -O pooling-total-core-instances=2200 -O pooling-total-memories=2200
 -O pooling-total-tables=2200 -O pooling-total-component-instances=1100 -O pooling-total-stacks=2200"
read -r -d '' -a extra <<< "${QRGLUE_WASMTIME_FLAGS-$default_flags}" || true
case "$tier" in
    wasmtime)           cmd=(wasmtime serve "${extra[@]}" --addr "127.0.0.1:$port" "$wasm") ;;
    wasmtime-reuse)     cmd=(wasmtime serve "${extra[@]}" --addr "127.0.0.1:$port" --max-instance-reuse-count "${QRGLUE_REUSE_COUNT:-10000}" "$wasm") ;;
    wasmtime-static)    cmd=(wasmtime serve "${extra[@]}" --addr "127.0.0.1:$port" "$static") ;;
    jco)                cmd=("$root/hosts/node/node_modules/.bin/jco" serve --host 127.0.0.1 --port "$port" "$wasm") ;;
    jco-static)         cmd=("$root/hosts/node/node_modules/.bin/jco" serve --host 127.0.0.1 --port "$port" "$static") ;;
    wasmcloud)
        # wash dev serves the component named by its project's config; `true`
        # as the build command: the component is prebuilt and not touched.
        project="$root/target/wasmcloud/$port"
        mkdir -p "$project/.wash" "$root/target/wasmcloud/home"
        printf 'version: 2.10.3\nbuild:\n  command: "true"\n  component_path: %s\ndev:\n  address: 127.0.0.1:%s\n' "$wasm" "$port" > "$project/.wash/config.yaml"
        export HOME="$root/target/wasmcloud/home"
        file="$wasm"; cmd=(wash -C "$project" dev --non-interactive) ;;
    *) echo "serve.sh: unknown tier '$tier' ($tiers)" >&2; exit 2 ;;
esac
file="${file:-${cmd[-1]}}"
[ -f "$file" ] || { echo "serve.sh: $file is missing: run \`just build-http-proxy\`" >&2; exit 1; }
echo "serve.sh: $tier on http://127.0.0.1:$port/ (${cmd[*]})" >&2
case "$tier" in
    wasmcloud) echo "serve.sh: request timeout 30 s for idle, trickling and keep-alive connections (wash dev's own, not configurable)" >&2 ;;
    jco*) echo "serve.sh: head limit 16 KiB (node:http), request timeout 60 s for the head, checked every 30 s (node:http defaults; jco serve cannot change them)" >&2 ;;
    *) echo "serve.sh: head limit 16 KiB (the component: 431, connection kept; wasmtime serve itself buffers ~400 KiB), request timeout: none (wasmtime serve has none)" >&2 ;;
esac

# A process group of its own, stopped as a whole: jco's child node process
# must not outlive us.
setsid "${cmd[@]}" &
server=$!
# Waits for the whole group, not only its leader: jco serve's child node
# process held the listening socket for a moment after its parent had exited
# (test_stop saw the port still accepting). SIGKILL after 5 s.
stop() {
    kill -TERM -- "-$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 -- "-$server" 2>/dev/null || exit 0; sleep 0.1; done
    kill -KILL -- "-$server" 2>/dev/null || true
    exit 0
}
trap stop INT TERM
wait "$server"
