"""The endpoint's query grammar and method rule (tests/http/README.md) are
guest/http-query's: the one Rust crate every server uses. This server reaches
it through the native extension (qrglue._native: http_query,
http_method_class), imported on every tier whatever path the tier measures;
docs/contract.md ("One query grammar") says why the extension. httptools
drops a fragment and reduces an absolute-form target to its path and query.
"""

from __future__ import annotations

from qrglue import _native

UNKNOWN_METHOD_MESSAGE = _native.HTTP_UNKNOWN_METHOD_MESSAGE
NO_HOST_MESSAGE = _native.HTTP_NO_HOST_MESSAGE


class HttpError(Exception):
    def __init__(self, kind: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status


def check_query(query: bytes, alone: bool) -> tuple[str, dict[str, object]]:
    """The raw query string -> (text, options), the options the query gives by
    the Python API's keyword names. `alone`: the tier has no qrglue generator
    (static, segno), so an empty text and the generator's option checks are
    refused here; without it an empty text is ("", {}), for the generator."""
    try:
        return _native.http_query(query, alone)
    except _native.QueryRefused as refused:
        kind, message = refused.args
        raise HttpError(kind, message) from None


def method_class(method: str) -> str:
    """'served' (GET, HEAD), 'not-allowed' (405) or 'unknown' (400: methods are case-sensitive)."""
    return _native.http_method_class(method)
