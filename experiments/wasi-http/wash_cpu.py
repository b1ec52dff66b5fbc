"""CPU a wash host spends per request: /proc ticks over N sequential keep-alive requests.

Usage: wash_cpu.py PID PORT [N] [PATH]: PID a `wash host` serving the lattice's
workload on 127.0.0.1:PORT (Host qrglue.local). Prints user and system ms per
request and the wall time per request (one client, so no queueing).
"""
import http.client
import os
import sys
import time
from pathlib import Path

pid, port = int(sys.argv[1]), int(sys.argv[2])
n = int(sys.argv[3]) if len(sys.argv) > 3 else 300
path = sys.argv[4] if len(sys.argv) > 4 else "/qrcode?text=hi"
tick = os.sysconf("SC_CLK_TCK")


def cpu() -> tuple[int, int]:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]), int(fields[12])  # utime, stime (ticks)


conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
for _ in range(20):  # warm-up
    conn.request("GET", path, headers={"Host": "qrglue.local"})
    conn.getresponse().read()
u0, s0 = cpu()
t0 = time.monotonic()
for _ in range(n):
    conn.request("GET", path, headers={"Host": "qrglue.local"})
    r = conn.getresponse()
    r.read()
    assert r.status == 200, r.status
wall = time.monotonic() - t0
u1, s1 = cpu()
print(f"{path}: user {(u1 - u0) * 1000 / tick / n:.2f} ms/req, sys {(s1 - s0) * 1000 / tick / n:.2f} ms/req, "
      f"wall {wall * 1000 / n:.2f} ms/req over {n}")
