#!/usr/bin/env bash
# Tier wasi-http-host (`just serve rust wasi-http-host [PORT]`): the wasi:http proxy component under our own server, see guest/http-proxy/serve.sh.
exec bash "$(dirname "${BASH_SOURCE[0]}")/../../../../guest/http-proxy/serve.sh" wasi-http-host "$@"
