#!/usr/bin/env bash
# Tier wasi-http-static (`just serve rust wasi-http-static [PORT]`): the wasi:http proxy component, see guest/http-proxy/serve.sh.
exec bash "$(dirname "${BASH_SOURCE[0]}")/../../../../guest/http-proxy/serve.sh" wasi-http-static "$@"
