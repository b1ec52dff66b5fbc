"""The endpoint of tests/http/README.md in Python: uvicorn (httptools), one worker process per core.

    python server.py --tier TIER [--port 8080] [--workers N] [--request-timeout SECS]

Tiers: segno, cli (the Rust qrglue CLI per request), component, raw, native
(the qrglue paths), static (the reference URL's golden PNG from memory).
Listens on 127.0.0.1 only. Limits: request head 16 KiB (431), whole head
within the request timeout (default 10 s) or disconnected, keep-alive 5 s
(http_protocol.py). SIGINT/SIGTERM: uvicorn stops its workers and exits 0.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
from types import FrameType

TIERS = ("segno", "cli", "component", "raw", "native", "static")


def main() -> None:
    parser = argparse.ArgumentParser(prog="server.py")
    parser.add_argument("--tier", required=True, choices=TIERS)
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--request-timeout", type=float, default=10.0)
    args = parser.parse_args()
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    # Read by every worker process at import (they re-import these modules).
    os.environ["QRGLUE_SERVER_TIER"] = args.tier
    os.environ["QRGLUE_SERVER_REQUEST_TIMEOUT"] = str(args.request_timeout)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import uvicorn
    from http_protocol import GuardedHttpToolsProtocol

    # uvicorn shuts down gracefully on SIGINT/SIGTERM, then raises the signal
    # again under the handler it found: this one, so the exit status is 0.
    def exit_cleanly(signum: int, frame: FrameType | None) -> None:
        sys.exit(0)

    signal.signal(signal.SIGTERM, exit_cleanly)
    signal.signal(signal.SIGINT, exit_cleanly)
    # Fail before claiming the URL when the port is taken (uvicorn binds later, in run()).
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", args.port))
        except OSError as error:
            sys.exit(f"qrglue-server python/{args.tier}: cannot listen on 127.0.0.1:{args.port}: {error.strerror}")
    print(f"qrglue-server python/{args.tier}: listening on http://127.0.0.1:{args.port} "
          f"(workers: {args.workers}; head limit 16 KiB, request timeout {args.request_timeout:g} s)", flush=True)
    uvicorn.run("http_app:app", host="127.0.0.1", port=args.port, workers=args.workers,
                http=GuardedHttpToolsProtocol, loop="asyncio", lifespan="on", log_level="warning",
                access_log=False, timeout_keep_alive=5, timeout_graceful_shutdown=2)


if __name__ == "__main__":
    main()
