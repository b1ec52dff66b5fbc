#!/usr/bin/env bash
# The project's Debian packages (tools/system/packages.txt), installed when any
# is missing: the one place the project runs apt-get (`just setup-system`).
# Does nothing, and needs no root, when every package is installed already.
# QRGLUE_SYSTEM_PACKAGES: another list (tools/fresh-machine.sh's tests).
set -euo pipefail
cd "$(dirname "$0")/../.."
list=${QRGLUE_SYSTEM_PACKAGES:-tools/system/packages.txt}

mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^[[:space:]]*$/d' "$list" | awk '{print $1}')
missing=()
for pkg in "${wanted[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  [ "$status" = installed ] || missing+=("$pkg")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
  echo "qrglue setup-system: missing Debian packages: ${missing[*]}" >&2
  echo "qrglue setup-system: as root, run: bash tools/system/install.sh (or install those packages)" >&2
  exit 1
fi
sudo=$([ "$(id -u)" -eq 0 ] || echo sudo)
echo "qrglue setup-system: installing Debian's ${missing[*]} (apt-get)" >&2
$sudo apt-get update -qq
# env after sudo: sudo's env_reset would drop a DEBIAN_FRONTEND set before it.
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  "${missing[@]}" >/dev/null
for pkg in "${missing[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
  if [ "$status" != installed ]; then
    echo "qrglue setup-system: $pkg is still not installed after apt-get" >&2
    exit 1
  fi
done
