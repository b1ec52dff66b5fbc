"""Name the hot functions of a stripped, static binary in a `perf record` profile.

How wash's per-request cost was found (hosts/wasi-http/UPSTREAM.md, section 4):
the released wash has no symbols, but its .eh_frame gives every function's
bounds, and the panic locations (`file.rs` + line) and strings a function
references say what it is. For the profile's samples (`perf record
--call-graph dwarf -p PID`), prints the functions with the most samples
inclusive (anywhere on the stack) and self (on top), each with those strings.

Usage: perf_stripped.py BINARY PERF_DATA [TOP]
"""

from __future__ import annotations

import bisect
import collections
import re
import subprocess
import sys


def main() -> int:
    binary, data = sys.argv[1], sys.argv[2]
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 12
    frames = subprocess.run(["readelf", "--debug-dump=frames", binary], check=True, capture_output=True, text=True).stdout
    fdes = sorted((int(a, 16), int(b, 16)) for a, b in re.findall(r"FDE cie=\S+ pc=([0-9a-f]+)\.\.([0-9a-f]+)", frames))
    starts = [a for a, _ in fdes]
    segments = []  # (file offset, vaddr, size) of each LOAD segment
    for line in subprocess.run(["readelf", "-lW", binary], check=True, capture_output=True, text=True).stdout.splitlines():
        p = line.split()
        if p and p[0] == "LOAD":
            segments.append((int(p[1], 16), int(p[2], 16), int(p[4], 16)))
    text = max(segments, key=lambda s: s[2])  # perf prints an unsymbolised address as a file offset

    def function(ip: int) -> int | None:
        if ip < 1 << 46 and text[0] <= ip < text[0] + text[2]:
            ip += text[1] - text[0]
        i = bisect.bisect_right(starts, ip) - 1
        return fdes[i][0] if i >= 0 and fdes[i][0] <= ip < fdes[i][1] else None

    out = subprocess.run(["perf", "script", "-i", data, "-F", "ip"], check=True, capture_output=True, text=True).stdout
    inclusive: collections.Counter[int] = collections.Counter()
    own: collections.Counter[int | str] = collections.Counter()
    total = 0
    for block in out.split("\n\n"):
        ips = [int(x.split()[0], 16) for x in block.split("\n") if x.strip()]
        if not ips:
            continue
        total += 1
        stack = [function(ip) for ip in ips]
        own[stack[0] if stack[0] is not None else "outside the binary (JIT code, kernel, vdso)"] += 1
        inclusive.update({f for f in stack if f is not None})
    blob = open(binary, "rb").read()  # noqa: SIM115

    def read(vaddr: int, n: int) -> bytes:
        for off, va, size in segments:
            if va <= vaddr < va + size:
                return blob[off + vaddr - va: off + vaddr - va + n]
        return b""

    def strings(start: int) -> list[str]:
        end = fdes[bisect.bisect_right(starts, start) - 1][1]
        asm = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f"--start-address={start}",
                              f"--stop-address={end}", binary], check=True, capture_output=True, text=True).stdout
        found = []
        for target in sorted({int(x, 16) for x in re.findall(r"# (0x[0-9a-f]+)", asm)}):
            head = read(target, 24)
            if len(head) == 24 and 0 < int.from_bytes(head[8:16], "little") < 300:  # a Location {file, line, col}
                name = read(int.from_bytes(head[:8], "little"), int.from_bytes(head[8:16], "little"))
                if name and all(32 <= c < 127 for c in name):
                    found.append(f"{name.decode()}:{int.from_bytes(head[16:20], 'little')}")
                    continue
            if m := re.match(rb"[ -~]{8,}", read(target, 80)):
                found.append(repr(m.group()[:60].decode()))
        return found[:4]

    print(f"{total} samples")
    for title, counter in (("inclusive", inclusive), ("self", own)):
        print(f"\n{title}:")
        for f, n in counter.most_common(top):
            label = f if isinstance(f, str) else f"{f:#x}  " + "  ".join(strings(f))
            print(f"{100 * n / total:5.1f}%  {label}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
