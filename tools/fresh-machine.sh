#!/usr/bin/env bash
# Make this machine look new to the project, then run CI as CI runs it: a fresh
# clone of the committed HEAD, `CI=true bash .ci/run`, timed. What a green CI on a
# machine that has run the project before can hide (issue 32: a Debian package
# installed by hand once, never by the project's own files) fails here.
#
# What it removes (everything the project's own files install or fill):
#   - every package of tools/system/packages.txt (Essential ones, like bsdutils,
#     stay: Debian will not remove them), then what apt autoremoves with them;
#   - rustup's targets the recipes add (wasm32-unknown-unknown, aarch64-unknown-linux-gnu);
#   - cargo's registry, git checkouts and the binaries `cargo install` added
#     (wasm-bindgen-cli's, cbindgen's, just's), ~/.cargo/.crates*.json;
#   - npm's cache, pip's cache, pip's user site and ~/.local/bin (rust-just);
#   - Go's module and build caches, and the project's Go tools (~/.cache/qrglue);
#   - Maven's ~/.m2;
#   - the clone's target/ (the clone is new, so it has none).
# It never touches the work tree it is run from.
#
# Usage: bash tools/fresh-machine.sh --yes [--just-test] [LOG]
#   --just-test: run the README's `just test` alone (no `just bench` before it)
#   instead of .ci/run. LOG defaults to /tmp/qrglue-fresh-machine.log; its last
#   line says the time.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

if [ "${1:-}" != --yes ]; then
  sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
  echo
  echo "fresh-machine: nothing done; pass --yes to wipe the caches above and run CI." >&2
  exit 2
fi
shift
command=(bash .ci/run)
if [ "${1:-}" = --just-test ]; then
  command=(bash -c 'export PATH="$HOME/.local/bin:$PATH"; command -v just >/dev/null \
    || python3 -m pip install --user --quiet rust-just==1.59.0; just setup-system && just test')
  shift
fi
log=${1:-/tmp/qrglue-fresh-machine.log}
if [ "$(id -u)" -ne 0 ]; then
  echo "fresh-machine: run as root (it removes Debian packages)" >&2
  exit 1
fi
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "fresh-machine: WARNING: uncommitted changes are not part of the run (it clones HEAD)" >&2
fi

echo "fresh-machine: removing the project's Debian packages" >&2
mapfile -t listed < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' tools/system/packages.txt | awk '{print $1}')
remove=()
for pkg in "${listed[@]}"; do
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)" = installed ] || continue
  [ "$(dpkg-query -W -f='${Essential}' "$pkg")" = yes ] && continue
  remove+=("$pkg")
done
if [ ${#remove[@]} -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq --purge "${remove[@]}" >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get autoremove -y -qq --purge >/dev/null
fi
for pkg in "${listed[@]}"; do
  if [ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)" = installed ] \
      && [ "$(dpkg-query -W -f='${Essential}' "$pkg")" != yes ]; then
    echo "fresh-machine: $pkg is still installed" >&2
    exit 1
  fi
done

echo "fresh-machine: emptying the caches the project fills" >&2
for target in wasm32-unknown-unknown aarch64-unknown-linux-gnu; do
  rustup target list --installed | grep -qx "$target" && rustup target remove "$target" >/dev/null 2>&1
done
cargo_home=${CARGO_HOME:-$HOME/.cargo}
rm -rf "$cargo_home/registry" "$cargo_home/git" "$cargo_home/.crates.toml" "$cargo_home/.crates2.json"
for bin in wasm-bindgen wasm-bindgen-test-runner wasm2es6js just cargo-fuzz cbindgen; do
  rm -f "$cargo_home/bin/$bin"
done
rm -rf "$HOME/.npm" "$HOME/.cache/pip" "$HOME/.local/lib/python3"* "$HOME/.local/bin" \
  "$HOME/.cache/qrglue" "$HOME/.m2"
if command -v go >/dev/null; then
  go clean -modcache 2>/dev/null || true
  rm -rf "$(go env GOCACHE)"
fi

dir=$(mktemp -d /tmp/qrglue-fresh-XXXXXX)
git clone -q --no-local "$repo" "$dir/main"
# CI lays a copy of shared/ beside the clone.
[ -d "$repo/../shared" ] && cp -r "$repo/../shared" "$dir/shared"
echo "fresh-machine: CI=true ${command[*]} in $dir/main ($(git -C "$dir/main" rev-parse --short HEAD)); log: $log" >&2
start=$(date +%s)
status=0
(cd "$dir/main" && CI=true "${command[@]}" </dev/null) >"$log" 2>&1 || status=$?
took=$(($(date +%s) - start))
echo "fresh-machine: ${command[*]} exited $status after ${took} s ($((took / 60)) min $((took % 60)) s) on $(git -C "$dir/main" rev-parse --short HEAD)" \
  | tee -a "$log" >&2
exit "$status"
