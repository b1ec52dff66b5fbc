"""Issue 39 item 4's load against one server, measured (not a test: the
figures of tests/http/README.md, "Bounded work for a client that never
reads"; test_hostile.py's never-read test asserts the bound).

    hosts/python/.venv/bin/python tests/http/never_read_load.py HOST/TIER... [--timeout SECS]

For each server (started as the suite starts it, with its request timeout):
30 clients each pipeline 200 requests for the 4096-pixel image in one write
and never read (a 4 KiB receive buffer). Prints how long until the server
has dropped them all, the most answers one of them got out of the server
(what its socket received plus what the server's still holds, in answers:
each was rendered; the server may hold one more in its own buffer), and how
long a normal request took meanwhile.
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import conftest  # noqa: E402
from test_hostile import PIPELINED, kernel_bytes, request, server_peers  # noqa: E402

TARGET = "/qrcode?text=never%20read&min-size=4096"
CLIENTS = 30


def measure(host: str, tier: str, timeout: float) -> str:
    conftest.REQUEST_TIMEOUT = timeout
    server = conftest.start(host, tier, Path(tempfile.mkdtemp(prefix=f"never-read-{host}-{tier}-")))
    socks: list[socket.socket] = []
    try:
        answer = len(server.get(TARGET)[2])
        burst = request("GET", TARGET) * PIPELINED
        started = time.monotonic()
        for _ in range(CLIENTS):
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect(("127.0.0.1", server.port))
            sock.settimeout(2)
            try:
                sock.sendall(burst)
            except OSError:
                pass
            socks.append(sock)
        ports = [sock.getsockname()[1] for sock in socks]
        most, normal, left = 0, float("nan"), CLIENTS
        while time.monotonic() - started < 120:
            most = max([most, *kernel_bytes(server, socks)])
            if normal != normal and time.monotonic() - started > 0.5:  # once, under the load
                asked = time.monotonic()
                conn = server.connect(timeout=60)
                try:
                    conn.request("GET", "/qrcode?text=hi")
                    conn.getresponse().read()
                    normal = time.monotonic() - asked
                except OSError:
                    pass
                finally:
                    conn.close()
            peers = server_peers(server)
            left = sum(port in peers for port in ports)
            if left == 0:
                break
            time.sleep(0.1)
        dropped = time.monotonic() - started
        return (f"{host}/{tier}: all {CLIENTS} dropped after {dropped:.1f} s ({left} left); at most {most} bytes "
                f"= {most / answer:.1f} answers of {answer} bytes for one client; a normal request {normal:.2f} s")
    finally:
        for sock in socks:
            sock.close()
        conftest.stop(server)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("servers", nargs="+", help="HOST/TIER, as in conftest.SERVERS")
    parser.add_argument("--timeout", type=float, default=conftest.REQUEST_TIMEOUT, help="--request-timeout")
    args = parser.parse_args()
    for spec in args.servers:
        host, tier = spec.split("/")
        print(measure(host, tier, args.timeout), flush=True)


if __name__ == "__main__":
    main()
