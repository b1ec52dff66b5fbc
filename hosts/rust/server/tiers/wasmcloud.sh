#!/usr/bin/env bash
# Tier wasmcloud (`just serve rust wasmcloud [PORT]`): the wasi:http proxy component under wasmCloud's wash dev, see guest/http-proxy/serve.sh.
exec bash "$(dirname "${BASH_SOURCE[0]}")/../../../../guest/http-proxy/serve.sh" wasmcloud "$@"
