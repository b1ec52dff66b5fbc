"""The wasmCloud lattice behind its load balancer, one host killed under load.

The deployment is hosts/wasi-http/server/lattice.py's (tier `lattice`, whose
contract, hostile and fuzz runs are in test_wasi_http.py): on 127.0.0.1,
nats-server, a minimal OCI registry serving the unchanged qrglue.http.wasm,
two `wash host`s (wash 2.10.3) with the workload started on each through NATS,
and Debian's nginx in front. Here a bounded load goes through nginx from 8
threads, host 1 is killed with SIGKILL halfway, and no request may be lost:
nginx retries an idempotent GET that could not be sent to, or got no answer
from, the dead host on the live one (proxy_next_upstream), and stops sending
it new ones. Both hosts must have served part of the load before the kill.
"""

from __future__ import annotations

import http.client
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "hosts" / "wasi-http" / "server"))
from lattice import Lattice, default_nats

REQUESTS = 2000  # the load: bounded in count...
LOAD_SECONDS = 60.0  # ...and in time
THREADS = 8


@pytest.fixture()
def lattice(tmp_path: Path) -> Iterator[Lattice]:
    nats = default_nats()
    assert nats.is_file(), f"nats-server not at {nats}: QRGLUE_NATS_SERVER (just test-wasmcloud-lattice)"
    running = Lattice(work=tmp_path, nats=nats).start()
    try:
        yield running
    finally:
        running.stop()


def get(port: int, path: str = "/qrcode?text=hi") -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def upstreams(lattice: Lattice) -> list[list[tuple[str, str]]]:
    """For each request nginx answered: the hosts it tried, in order, with what
    each answered ("127.0.0.1:PORT", status or "502" for no answer)."""
    time.sleep(1.5)  # the access log is flushed every second
    tried = []
    for line in (lattice.work / "nginx-access.log").read_text().splitlines():
        _, addrs, statuses = line.split("|")
        tried.append(list(zip(addrs.split(", "), statuses.split(", "), strict=True)))
    return tried


def test_two_hosts_behind_nginx_and_one_is_killed_under_load(lattice: Lattice) -> None:
    # Each host serves the same bytes directly (routed by the Host header) and through nginx.
    direct = []
    for port in lattice.host_ports:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
        conn.request("GET", "/qrcode?text=hi", headers={"Host": "qrglue.local"})
        response = conn.getresponse()
        direct.append((response.status, response.read()))
        conn.close()
    status, golden = get(lattice.port)
    assert status == 200 and golden.startswith(b"\x89PNG")
    assert direct == [(200, golden), (200, golden)]

    answered = 0
    lost: list[str] = []
    lock = threading.Lock()
    counter = iter(range(REQUESTS))
    killed = threading.Event()
    started = time.monotonic()

    def worker() -> None:
        nonlocal answered
        while time.monotonic() - started < LOAD_SECONDS:
            with lock:
                n = next(counter, None)
            if n is None:
                return
            if n == REQUESTS // 2:
                os.killpg(lattice.host_procs[1].pid, signal.SIGKILL)
                killed.set()
            try:
                status, body = get(lattice.port)
                ok = status == 200 and body == golden
            except OSError as error:
                ok, status = False, repr(error)
            with lock:
                if ok:
                    answered += 1
                else:
                    lost.append(f"#{n} (after the kill: {killed.is_set()}): {status}")

    threads = [threading.Thread(target=worker) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(LOAD_SECONDS + 30)
    tried = upstreams(lattice)
    ports = [f"127.0.0.1:{port}" for port in lattice.host_ports]
    per_host = [sum(1 for hosts in tried if hosts[-1] == (port, "200")) for port in ports]
    retried = [hosts for hosts in tried if len(hosts) > 1]
    print(f"answered through nginx: {answered} of {REQUESTS}, lost: {len(lost)} {lost[:10]}; "
          f"answered by host 0: {per_host[0]}, host 1: {per_host[1]}; retried on the other host: {len(retried)}")
    assert killed.is_set() and lattice.host_procs[1].poll() is not None
    assert not lost, f"requests lost although nginx retries idempotent GETs: {lost[:20]}"
    assert answered == REQUESTS, f"only {answered} of {REQUESTS} within {LOAD_SECONDS} s"
    # nginx spread the load over both hosts before the kill, and host 0 took the rest.
    assert per_host[1] > 0 and per_host[0] > REQUESTS // 2, per_host
    # What nginx retried had been sent to the killed host first.
    assert all(hosts[0][0] == ports[1] and hosts[-1] == (ports[0], "200") for hosts in retried), retried[:10]
