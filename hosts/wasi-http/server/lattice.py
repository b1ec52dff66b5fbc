"""A wasmCloud lattice behind nginx on loopback, serving qrglue.http.wasm.

Tier `lattice` of hosts/wasi-http/server/serve.sh (tests/http-proxy's suites,
`just bench-http`) and the fixture of tests/http-proxy/test_wasmcloud_lattice.py:
the one place this deployment is defined. All on 127.0.0.1:

- nats-server (the pinned Go module, `just _setup-nats`; QRGLUE_NATS_SERVER);
- a minimal read-only OCI registry in this process serving the unchanged
  qrglue.http.wasm (wasmCloud 2 pulls a workload's component from a registry:
  there is no local-file source outside `wash dev`);
- HOSTS `wash host`s (wash 2.10.3), joined by NATS, each serving HTTP on its
  own port; the workload is started on each by the JSON request wasmCloud's
  Kubernetes runtime-operator sends on `runtime.host.<id>.workload.start`,
  a fresh instance per request (wash's default; --pool-size asks for warm ones);
- Debian's nginx as the load balancer on PORT, its config generated into the
  work directory (`nginx_conf`): it times out slow clients, keeps a pool of
  keep-alive connections to each host, and retries an idempotent request on
  the other host when one fails to connect or answers 502/503/504.

Run as a server (`lattice.py --port PORT [--hosts N] [--request-timeout SECS]
[--work DIR]`) it serves until SIGTERM or SIGINT, then stops everything and
exits 0. Standard library only (the bench runs it with the system Python).
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import http.server
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
WASM = ROOT / "target" / "wasm" / "qrglue.http.wasm"
WASH = ROOT / "target" / "tools" / "bin" / "wash"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"  # Debian's, tools/system/packages.txt
# The virtual host the workload is routed by (its wasi:http host interface's
# `config.host`); nginx sets it on every request it passes on.
HOSTNAME = "qrglue.local"
HOSTS = 2
# Warm instances per host (the workload's `poolSize`; --pool-size): 0, wash's
# default, a store built, instantiated and dropped per request, as our own
# server's tier qrglue does. Measured (hosts/wasi-http/UPSTREAM.md, section 4):
# 4 warm instances did not lower wash's CPU per request (0.56-0.59 ms against
# 0.45-0.57 ms, sequential, loaded machine), so the component keeps wasi:http's
# fresh instance per request. `maxInvocations` retires a warm instance.
POOL_SIZE = 0
MAX_INVOCATIONS = 10000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, seconds: float, what: str, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if proc is not None and proc.poll() is not None:
                raise RuntimeError(f"{what} exited with {proc.returncode}") from None
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not listen on {port} within {seconds:.0f} s") from None
            time.sleep(0.1)


class Registry(http.server.ThreadingHTTPServer):
    """Just enough of the OCI distribution API for a pull of one artifact."""

    def __init__(self, wasm: bytes) -> None:
        self.blobs: dict[str, bytes] = {}
        config = b"{}"
        layer_digest = self.add(wasm)
        config_digest = self.add(config)
        manifest = json.dumps({
            "schemaVersion": 2,
            "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "config": {"mediaType": "application/vnd.wasm.config.v0+json", "digest": config_digest, "size": len(config)},
            "layers": [{"mediaType": "application/wasm", "digest": layer_digest, "size": len(wasm)}],
        }).encode()
        self.manifest, self.manifest_digest = manifest, "sha256:" + hashlib.sha256(manifest).hexdigest()
        self.requests: list[str] = []
        super().__init__(("127.0.0.1", 0), RegistryHandler)

    def add(self, data: bytes) -> str:
        digest = "sha256:" + hashlib.sha256(data).hexdigest()
        self.blobs[digest] = data
        return digest


class RegistryHandler(http.server.BaseHTTPRequestHandler):
    server: Registry

    def log_message(self, *args: object) -> None:
        pass

    def do_HEAD(self) -> None:
        self.answer(head=True)

    def do_GET(self) -> None:
        self.answer(head=False)

    def answer(self, head: bool) -> None:
        self.server.requests.append(f"{self.command} {self.path}")
        path = self.path.split("?")[0]
        body, ctype, digest = b"{}", "application/json", None
        if path.rstrip("/") == "/v2":
            pass
        elif "/manifests/" in path:
            body, ctype, digest = self.server.manifest, "application/vnd.oci.image.manifest.v1+json", self.server.manifest_digest
        elif "/blobs/" in path and path.rsplit("/", 1)[1] in self.server.blobs:
            digest = path.rsplit("/", 1)[1]
            body, ctype = self.server.blobs[digest], "application/octet-stream"
        else:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        if digest:
            self.send_header("Docker-Content-Digest", digest)
        self.end_headers()
        if not head:
            self.wfile.write(body)


class Nats:
    """A bare NATS client (the text protocol): subscribe, request/reply."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.buf = b""
        self.readline()  # INFO
        self.sock.sendall(b'CONNECT {"verbose":false,"pedantic":false}\r\nPING\r\n')
        if self.readline() != b"PONG":
            raise RuntimeError("NATS did not answer PING")

    def readline(self) -> bytes:
        while b"\r\n" not in self.buf:
            data = self.sock.recv(65536)
            if not data:
                raise RuntimeError("NATS closed the connection")
            self.buf += data
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def read_msg(self) -> tuple[str, bytes]:
        while True:
            line = self.readline()
            if line == b"PING":
                self.sock.sendall(b"PONG\r\n")
                continue
            if line.startswith(b"MSG "):
                parts = line.split()
                size = int(parts[-1])
                while len(self.buf) < size + 2:
                    self.buf += self.sock.recv(65536)
                payload, self.buf = self.buf[:size], self.buf[size + 2:]
                return parts[1].decode(), payload

    def sub(self, subject: str, sid: int) -> None:
        self.sock.sendall(f"SUB {subject} {sid}\r\n".encode())

    def request(self, subject: str, payload: bytes, sid: int) -> bytes:
        inbox = f"_INBOX.qrglue.{sid}"
        self.sub(inbox, sid)
        self.sock.sendall(f"PUB {subject} {inbox} {len(payload)}\r\n".encode() + payload + b"\r\n")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # heartbeats arrive meanwhile
            subject_got, body = self.read_msg()
            if subject_got == inbox:
                return body
        raise RuntimeError(f"no reply on {subject} within 30 s")

    def close(self) -> None:
        self.sock.close()


def start_request(workload_id: str, image: str, pool_size: int) -> bytes:
    """The runtime-operator's workload.start: one component, wasi:http's incoming handler."""
    component: dict = {"name": "qrglue", "image": image, "imagePullPolicy": "IMAGE_PULL_POLICY_IF_NOT_PRESENT"}
    if pool_size > 0:
        component |= {"poolSize": pool_size, "maxInvocations": MAX_INVOCATIONS}
    return json.dumps({
        "workloadId": workload_id,
        "workload": {
            "namespace": "default",
            "name": "qrglue",
            "witWorld": {
                "components": [component],
                "hostInterfaces": [{"namespace": "wasi", "package": "http", "version": "0.2.0",
                                    "interfaces": ["incoming-handler"], "config": {"host": HOSTNAME}}],
            },
        },
    }).encode()


def nginx_conf(work: Path, port: int, upstreams: list[int], request_timeout: float) -> str:
    """The balancer's config (for real machines: hosts/wasi-http/README.md, "Deploying")."""
    t = f"{max(1, round(request_timeout))}s"
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=10s;" for p in upstreams)
    return f"""# Generated by hosts/wasi-http/server/lattice.py: the lattice's load balancer.
daemon off;
worker_processes 1;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    # Which host answered each request (a retried one names both, comma-separated):
    # what test_wasmcloud_lattice.py counts. Buffered: written every second.
    log_format upstream '$status|$upstream_addr|$upstream_status';
    access_log {work}/nginx-access.log upstream buffer=64k flush=1s;
    client_body_temp_path {work}/nginx-tmp/body;
    proxy_temp_path {work}/nginx-tmp/proxy;
    fastcgi_temp_path {work}/nginx-tmp/fastcgi;
    uwsgi_temp_path {work}/nginx-tmp/uwsgi;
    scgi_temp_path {work}/nginx-tmp/scgi;
    server_tokens off;
    # Slow clients are the balancer's to time out: a head or a body that
    # does not arrive, an answer that is not read, an idle keep-alive.
    client_header_timeout {t};
    client_body_timeout {t};
    send_timeout {t};
    keepalive_timeout {t};
    keepalive_requests 10000;
    # The contract's 16 KiB head (each server of tests/http answers 431 past it).
    large_client_header_buffers 4 16k;
    # Bodies are streamed to the host, not buffered here: the component
    # answers a POST's 405 before its body arrives (Expect: 100-continue too).
    client_max_body_size 4m;
    proxy_request_buffering off;
    upstream wash {{
{servers}
        # A pool of idle keep-alive connections to the hosts (per nginx worker).
        keepalive 64;
        keepalive_requests 10000;
        keepalive_timeout 20s;
    }}
    server {{
        # A 16 KiB send buffer per client socket (the kernel doubles it), not the
        # autotuned 4 MB: a client that pipelines requests and never reads then
        # stalls nginx's write after a few answers, so the hosts render a few of
        # its requests, not all it sent, before send_timeout drops it (issue 39;
        # tests/http-proxy's never-read test, as for every server of tests/http).
        listen 127.0.0.1:{port} sndbuf=16k;
        # What nginx refuses itself (a request line or head it cannot parse,
        # an HTTP/1.1 request without Host, a head past 16 KiB: its 494)
        # gets the contract's JSON (tests/http/README.md), as from the component.
        # (A URI, not a named location: a request line nginx could not parse has none.)
        error_page 400 /.balancer/400;
        error_page 494 =431 /.balancer/431;
        location = /.balancer/400 {{
            internal;
            default_type "application/json; charset=utf-8";
            return 400 '{{"kind":"bad-request","message":"the request could not be parsed"}}';
        }}
        location = /.balancer/431 {{
            internal;
            default_type "application/json; charset=utf-8";
            return 431 '{{"kind":"request-header-fields-too-large","message":"the request head is over 16 KiB"}}';
        }}
        # The methods the contract refuses (guest/http-query's NotAllowed) are refused here
        # with the contract's 405, as the component refuses them: a body sent with one is
        # then never streamed to a host that has already answered and closed (nginx saw
        # that as a 502 on a 2 MB POST, a race the hostile suite caught).
        error_page 405 /.balancer/405;
        location = /.balancer/405 {{
            internal;
            default_type "application/json; charset=utf-8";
            add_header Allow "GET, HEAD" always;
            return 405 '{{"kind":"method-not-allowed","message":"only GET and HEAD are allowed"}}';
        }}
        location / {{
            if ($request_method ~ ^(POST|PUT|DELETE|CONNECT|OPTIONS|TRACE|PATCH)$) {{
                return 405;
            }}
            proxy_pass http://wash;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            # The workload is routed by this virtual host, whatever the client sent.
            proxy_set_header Host {HOSTNAME};
            proxy_connect_timeout 1s;
            proxy_send_timeout 10s;
            proxy_read_timeout 10s;
            # Another host for a request that could not be sent or got no
            # answer: only idempotent methods (nginx never retries a POST
            # unless told `non_idempotent`), at most once more, within 5 s.
            proxy_next_upstream error timeout http_502 http_503 http_504;
            proxy_next_upstream_tries 2;
            proxy_next_upstream_timeout 5s;
            proxy_max_temp_file_size 0;
        }}
    }}
}}
"""


@dataclass
class Lattice:
    """nats-server, the registry, HOSTS wash hosts with the workload, nginx in front."""

    work: Path
    nats: Path
    port: int = 0
    hosts: int = HOSTS
    pool_size: int = POOL_SIZE
    request_timeout: float = 10.0
    host_env: dict[str, str] = field(default_factory=dict)
    procs: list[subprocess.Popen] = field(default_factory=list)
    host_procs: list[subprocess.Popen] = field(default_factory=list)
    host_ports: list[int] = field(default_factory=list)
    host_ids: list[str] = field(default_factory=list)
    nginx: subprocess.Popen | None = None
    registry: Registry | None = None
    _logs: list = field(default_factory=list)

    def log(self, name: str):
        f = open(self.work / name, "w")  # noqa: SIM115 (closed in stop)
        self._logs.append(f)
        return f

    def start(self) -> Lattice:
        self.work = self.work.resolve()
        self.work.mkdir(parents=True, exist_ok=True)
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self) -> None:
        if not self.nats.is_file():
            raise RuntimeError(f"nats-server not found at {self.nats} (just _setup-nats; QRGLUE_NATS_SERVER)")
        self.registry = Registry(WASM.read_bytes())
        threading.Thread(target=self.registry.serve_forever, daemon=True).start()
        nats_port = free_port()
        self.procs.append(subprocess.Popen([str(self.nats), "-a", "127.0.0.1", "-p", str(nats_port)],
                                           stdout=self.log("nats.log"), stderr=subprocess.STDOUT,
                                           start_new_session=True))
        wait_port(nats_port, 10, "nats-server", self.procs[-1])
        control = Nats(nats_port)
        try:
            control.sub("runtime.operator.heartbeat.*", 1)
            url = f"nats://127.0.0.1:{nats_port}"
            for i in range(self.hosts):
                port = free_port()
                # RUST_LIB_BACKTRACE=0 unless set (1 measures the "before"): wash
                # builds two wasmtime::Errors per request even when it succeeds,
                # and under RUST_BACKTRACE=1 each captured a backtrace: ~12 ms of
                # CPU a request (hosts/wasi-http/UPSTREAM.md, section 4). Panics
                # still print theirs (RUST_BACKTRACE).
                env = {**os.environ, "HOME": str(self.work / f"home{i}"),
                       "RUST_LIB_BACKTRACE": os.environ.get("RUST_LIB_BACKTRACE", "0"), **self.host_env}
                proc = subprocess.Popen(
                    [str(WASH), "host", "--non-interactive", "--scheduler-nats-url", url, "--data-nats-url", url,
                     "--http-addr", f"127.0.0.1:{port}", "--host-name", f"qrglue-{i}",
                     "--allow-insecure-registries", "--oci-cache-dir", str(self.work / f"oci{i}")],
                    stdout=self.log(f"host{i}.log"), stderr=subprocess.STDOUT, env=env, start_new_session=True)
                self.procs.append(proc)
                self.host_procs.append(proc)
                self.host_ports.append(port)
            # Their ids, from their heartbeats (runtime.operator.heartbeat.<id>).
            ids: set[str] = set()
            while len(ids) < self.hosts:
                subject, _ = control.read_msg()
                ids.add(subject.rsplit(".", 1)[1])
            self.host_ids = sorted(ids)
            image = f"127.0.0.1:{self.registry.server_address[1]}/qrglue/http:0.1.0"
            for n, host_id in enumerate(self.host_ids):
                reply = json.loads(control.request(f"runtime.host.{host_id}.workload.start",
                                                   start_request(f"qrglue-{n}", image, self.pool_size), 10 + n))
                state = json.dumps(reply)
                if "RUNNING" not in state and "STARTING" not in state:
                    raise RuntimeError(f"workload.start on {host_id}: {state}")
        finally:
            control.close()
        for i, port in enumerate(self.host_ports):
            self.wait_served(port, f"host {i}")
        self.port = self.port or free_port()
        (self.work / "nginx-tmp").mkdir(exist_ok=True)
        conf = self.work / "nginx.conf"
        conf.write_text(nginx_conf(self.work, self.port, self.host_ports, self.request_timeout))
        # -e: nginx would otherwise open /var/log/nginx/error.log before reading the config.
        self.nginx = subprocess.Popen([NGINX, "-e", str(self.work / "nginx-error.log"), "-p", str(self.work),
                                       "-c", str(conf)], stdout=self.log("nginx.log"), stderr=subprocess.STDOUT,
                                      start_new_session=True)
        self.procs.append(self.nginx)
        wait_port(self.port, 10, "nginx", self.nginx)
        self.wait_served(self.port, "nginx")

    def wait_served(self, port: int, what: str) -> None:
        """Until the workload answers there (routable a moment after workload.start)."""
        deadline = time.monotonic() + 60
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/healthz", headers={"Host": HOSTNAME})
                if conn.getresponse().status == 200:
                    conn.close()
                    return
                conn.close()
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} on {port} never served /healthz within 60 s")
            time.sleep(0.3)

    def stop(self) -> None:
        # nginx first (SIGQUIT: a graceful stop), then the hosts, then NATS.
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGQUIT if proc is self.nginx else signal.SIGTERM)
        for proc in reversed(self.procs):
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        for f in self._logs:
            f.close()
        self._logs.clear()
        if self.registry is not None:
            self.registry.shutdown()
            self.registry.server_close()
            self.registry = None


def default_nats() -> Path:
    if os.environ.get("QRGLUE_NATS_SERVER"):
        return Path(os.environ["QRGLUE_NATS_SERVER"])
    # The justfile's go_cache / nats-server-<version> (`just _setup-nats`).
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "qrglue"
    found = sorted(cache.glob("nats-server-v*/nats-server"))
    return found[-1] if found else cache / "nats-server"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--request-timeout", type=float, default=10.0, help="nginx's client timeouts (seconds)")
    parser.add_argument("--work", type=Path, help="logs, nginx.conf, the hosts' state (default: a temporary dir)")
    parser.add_argument("--pool-size", type=int, default=POOL_SIZE, help="warm instances per host (0: none)")
    # One host measures what a single wash host serves behind nginx (just bench-http's lattice-1host).
    parser.add_argument("--hosts", type=int, default=HOSTS, help=f"wash hosts behind nginx (default {HOSTS})")
    args = parser.parse_args()
    if args.hosts < 1:
        parser.error(f"--hosts must be at least 1, not {args.hosts}")
    stopping = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stopping.set())
    work = (args.work or Path(tempfile.mkdtemp(prefix="qrglue-lattice-"))).resolve()
    lattice = Lattice(work=work, nats=default_nats(), port=args.port, hosts=args.hosts, pool_size=args.pool_size,
                      request_timeout=args.request_timeout)
    lattice.start()
    print(f"lattice: nginx on 127.0.0.1:{lattice.port} -> wash hosts {lattice.host_ports}; logs in {work}", flush=True)
    try:
        while not stopping.is_set():
            for proc in lattice.procs:
                if proc.poll() is not None:
                    print(f"lattice: {proc.args[0]} exited with {proc.returncode}", file=sys.stderr)
                    return 1
            stopping.wait(0.5)
    finally:
        lattice.stop()
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
