//! `hosts/python/src/qrglue/_native.pyi`: the types of the PyO3 extension
//! (hosts/python/native), whose functions take every option positionally in
//! the table's order. Written from the table so that a new option changes
//! the stub by itself: the signatures were restated nine times by hand.

use qrglue_core::contract::{OptionSpec, Place, Ty};

use crate::{notice, places};

/// The extension's Python type for an option: its strings are checked by the
/// extension (the level by name, the colours as CSS hex), so they are `str`.
fn native_type(spec: &OptionSpec) -> &'static str {
    match spec.ty {
        Ty::EcLevel | Ty::TextStyle | Ty::Rgba => "str",
        Ty::U32 => "int",
        Ty::OptionU32 => "int | None",
        Ty::Bool => "bool",
        Ty::OptionString => "str | None",
    }
}

/// A function's stub: `head` (the input and what comes before the options),
/// the options of `places` one a line, positional only.
fn stub(name: &str, head: &[&str], places_: &[Place], returns: &str) -> String {
    let params: Vec<String> =
        head.iter().map(|p| p.to_string()).chain(places(places_).map(|s| format!("{}: {}", s.py, native_type(s)))).collect();
    format!("def {name}(\n    {},\n    /,\n) -> {returns}: ...\n", params.join(",\n    "))
}

pub fn native_pyi() -> String {
    const TEXT: &str = "text: str";
    const DATA: &str = "data: bytes | bytearray | memoryview";
    const STYLE: &str = "style: str";
    let common = [Place::Options, Place::Symbol];
    let with_svg = [Place::Options, Place::Symbol, Place::Svg];
    let mut out = notice("#");
    out += "# Types of the compiled extension qrglue._native (hosts/python/native/src/lib.rs),\n";
    out += "# installed by the qrglue-native distribution. Use it through qrglue.native,\n";
    out += "# which supplies the defaults; the options here are positional, in the contract's\n";
    out += "# order (None for none, the level and colours as strings), and unchecked by Python\n";
    out += "# (the extension checks them, with the messages of the other paths).\n\n";
    out += "MAX_TEXT_BYTES: int\nMAX_PRODUCE_BYTES: int\n\nclass NativePanic(RuntimeError): ...\n\n";
    out += &stub("png", &[TEXT], &common, "bytes");
    out += "# The SVG options last (WIT `svg-options`).\n";
    out += &stub("svg", &[TEXT], &with_svg, "str");
    out += "# (width, modules): qrglue.native.matrix wraps the pair in a QrMatrix.\n";
    out += &stub("matrix", &[TEXT], &common, "tuple[int, bytes]");
    out += &stub("text", &[TEXT, STYLE], &common, "str");
    out += "# Binary payloads (bytes, bytearray or a C-contiguous memoryview of bytes):\n";
    out += "# the core's *_bytes, never decoded.\n";
    out += &stub("png_bytes", &[DATA], &common, "bytes");
    out += &stub("svg_bytes", &[DATA], &with_svg, "str");
    out += &stub("matrix_bytes", &[DATA], &common, "tuple[int, bytes]");
    out += &stub("text_bytes", &[DATA, STYLE], &common, "str");
    out += &stub("png_repeat", &[TEXT, "times: int"], &common, "int");
    out += "def noop() -> None: ...\ndef consume(data: bytes, /) -> int: ...\ndef produce(length: int, /) -> bytes: ...\n";
    out += "def panic() -> None: ...\n\n";
    out += "# The HTTP endpoint's query grammar (guest/http-query), for hosts/python/server\n";
    out += "# only: not part of the qrglue API.\nclass QueryRefused(ValueError): ...\n\n";
    out += "HTTP_UNKNOWN_METHOD_MESSAGE: str\nHTTP_NO_HOST_MESSAGE: str\n\n";
    out += "def http_query(query: bytes, alone: bool, /) -> tuple[str, dict[str, object]]: ...\n";
    out += "def http_method_class(method: str, /) -> str: ...\n";
    out
}
