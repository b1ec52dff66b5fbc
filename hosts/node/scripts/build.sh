#!/usr/bin/env bash
# Builds the package's generated parts (all gitignored): gen/ = jco output for
# the component, gen/bindgen/ = wasm-bindgen's glue and module, wasm/ = both
# .wasm files. Run from the repo root by
# `just build-node` after `just build-wasm`. Idempotent and quick: installs
# only when node_modules is missing or older than package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=../..

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # Not `npm ci`: the registry this project uses lacks some platform-only
  # optional packages of jco's dependencies (e.g. @rolldown/binding-darwin-x64
  # 1.3.2, @bytecodealliance/jco-node-fs-win32-x64-msvc 0.3.2: 404), so the lock
  # cannot list them and `npm ci` rejects it as out of sync. `npm install
  # --no-save` installs the lock's exact versions and never rewrites the lock.
  npm install --no-save --no-audit --no-fund
fi

mkdir -p wasm
cp "$repo/target/wasm/qrglue.component.wasm" "$repo/target/wasm/qrglue.raw.wasm" wasm/

# Flags chosen by measurement (README, "jco flags"): sync instantiation, so a
# trapped instance can be replaced synchronously; no lifting optimisation and
# no wasm-opt, as neither changed per-call time measurably.
rm -rf gen
npx --no-install jco transpile wasm/qrglue.component.wasm -o gen --name qrglue \
  --instantiation sync --quiet
# One patch to jco's output (UPSTREAM.md): JCO_DEBUG read once per
# instantiate() instead of on every call. It checks every line it replaces and
# fails the build when jco's output is not what it expects.
node scripts/patch-jco.mjs gen/qrglue.js

# The wasm-bindgen path (qrglue/bindgen): wasm-bindgen-cli (installed by `just
# build-bindgen` at guest/bindgen's exact wasm-bindgen version) turns
# target/wasm/qrglue.bindgen.wasm into gen/bindgen/qrglue.js (the glue) and
# gen/bindgen/qrglue_bg.wasm (the module that glue instantiates).
# --target web: its initSync({ module }) runs unchanged in Node (tried on Node
# 20), so the browser page shares this exact glue; the Node entry only reads
# the bytes. --experimental-reset-state-function: __wbg_reset_state() makes a
# fresh instance of the same module synchronously, the way out after a trap
# (initSync does nothing once an instance exists).
# The one warning filtered out says `strip = true` dropped the target_features
# section: wasm-bindgen then detects reference types from the runtime's
# externref intrinsics instead, and the guest keeps the release profile every
# guest is built with.
wasm-bindgen "$repo/target/wasm/qrglue.bindgen.wasm" --out-dir gen/bindgen --out-name qrglue \
  --target web --experimental-reset-state-function \
  2> >(grep -v 'the `target_features` custom section is missing' >&2)

# The native addon (qrglue/native): plain cargo, in the `addon` profile (release
# with panic = "unwind", so a Rust panic becomes a JS exception), then a copy
# named for this platform, the name lib/native.js loads. Copied only when the
# bytes change. Nothing is downloaded: no prebuilt binary, no @napi-rs/cli.
cargo=${CARGO:-cargo}
quiet=$([ -z "${QRGLUE_VERBOSE:-}" ] && echo -q || true)
(cd "$repo" && "$cargo" build $quiet --locked --profile addon -p qrglue-node-native)
case "$(uname -s)" in
  Darwin) built="$repo/target/addon/libqrglue_node_native.dylib" ;;
  *) built="$repo/target/addon/libqrglue_node_native.so" ;;
esac
addon="native/qrglue.$(node -p 'process.platform + "-" + process.arch').node"
cmp -s "$built" "$addon" || cp "$built" "$addon"
