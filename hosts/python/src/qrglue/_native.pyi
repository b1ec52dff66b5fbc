# generated; do not edit.
# tools/contract writes it from guest/core/src/contract.rs (`just contract`); `just lint` checks it.
# Types of the compiled extension qrglue._native (hosts/python/native/src/lib.rs),
# installed by the qrglue-native distribution. Use it through qrglue.native,
# which supplies the defaults; the options here are positional, in the contract's
# order (None for none, the level and colours as strings), and unchecked by Python
# (the extension checks them, with the messages of the other paths).

MAX_TEXT_BYTES: int
MAX_PRODUCE_BYTES: int

class NativePanic(RuntimeError): ...

def png(
    text: str,
    ec_level: str,
    min_size: int,
    quiet_zone: int,
    scale: int | None,
    dark: str,
    light: str,
    micro: bool,
    version: int | None,
    min_version: int | None,
    mask: int | None,
    boost_ec: bool,
    eci: bool,
    /,
) -> bytes: ...
# The SVG options last (WIT `svg-options`).
def svg(
    text: str,
    ec_level: str,
    min_size: int,
    quiet_zone: int,
    scale: int | None,
    dark: str,
    light: str,
    micro: bool,
    version: int | None,
    min_version: int | None,
    mask: int | None,
    boost_ec: bool,
    eci: bool,
    view_box_only: bool,
    title: str | None,
    svg_class: str | None,
    /,
) -> str: ...
# (width, modules): qrglue.native.matrix wraps the pair in a QrMatrix.
def matrix(
    text: str,
    ec_level: str,
    min_size: int,
    quiet_zone: int,
    scale: int | None,
    dark: str,
    light: str,
    micro: bool,
    version: int | None,
    min_version: int | None,
    mask: int | None,
    boost_ec: bool,
    eci: bool,
    /,
) -> tuple[int, bytes]: ...
def text(
    text: str,
    style: str,
    ec_level: str,
    min_size: int,
    quiet_zone: int,
    scale: int | None,
    dark: str,
    light: str,
    micro: bool,
    version: int | None,
    min_version: int | None,
    mask: int | None,
    boost_ec: bool,
    eci: bool,
    /,
) -> str: ...
# Binary payloads (bytes, bytearray or a C-contiguous memoryview of bytes):
# the core's *_bytes, never decoded.
def png_bytes(
    data: bytes | bytearray | memoryview,
    ec_level: str,
    min_size: int,
    quiet_zone: int,
    scale: int | None,
    dark: str,
    light: str,
    micro: bool,
    version: int | None,
    min_version: int | None,
    mask: int | None,
    boost_ec: bool,
    eci: bool,
    /,
) -> bytes: ...
def svg_bytes(
    data: bytes | bytearray | memoryview,
    ec_level: str,
    min_size: int,
    quiet_zone: int,
    scale: int | None,
    dark: str,
    light: str,
    micro: bool,
    version: int | None,
    min_version: int | None,
    mask: int | None,
    boost_ec: bool,
    eci: bool,
    view_box_only: bool,
    title: str | None,
    svg_class: str | None,
    /,
) -> str: ...
def matrix_bytes(
    data: bytes | bytearray | memoryview,
    ec_level: str,
    min_size: int,
    quiet_zone: int,
    scale: int | None,
    dark: str,
    light: str,
    micro: bool,
    version: int | None,
    min_version: int | None,
    mask: int | None,
    boost_ec: bool,
    eci: bool,
    /,
) -> tuple[int, bytes]: ...
def text_bytes(
    data: bytes | bytearray | memoryview,
    style: str,
    ec_level: str,
    min_size: int,
    quiet_zone: int,
    scale: int | None,
    dark: str,
    light: str,
    micro: bool,
    version: int | None,
    min_version: int | None,
    mask: int | None,
    boost_ec: bool,
    eci: bool,
    /,
) -> str: ...
def png_repeat(
    text: str,
    times: int,
    ec_level: str,
    min_size: int,
    quiet_zone: int,
    scale: int | None,
    dark: str,
    light: str,
    micro: bool,
    version: int | None,
    min_version: int | None,
    mask: int | None,
    boost_ec: bool,
    eci: bool,
    /,
) -> int: ...
def noop() -> None: ...
def consume(data: bytes, /) -> int: ...
def produce(length: int, /) -> bytes: ...
def panic() -> None: ...

# The HTTP endpoint's query grammar (guest/http-query), for hosts/python/server
# only: not part of the qrglue API.
class QueryRefused(ValueError): ...

HTTP_UNKNOWN_METHOD_MESSAGE: str
HTTP_NO_HOST_MESSAGE: str

def http_query(query: bytes, alone: bool, /) -> tuple[str, dict[str, object]]: ...
def http_method_class(method: str, /) -> str: ...
