//! qrglue over wasi:http: a `wasi:http/incoming-handler` that serves
//! `GET /qrcode?text=…[&ec-level=&min-size=&quiet-zone=]` as a PNG.
//!
//! The QR code itself comes from an *import*, `qrglue:qr/generator`: this
//! component holds only HTTP and query parsing. `wac plug` wires the import
//! to `target/wasm/qrglue.component.wasm` (see the justfile's
//! `build-http-proxy`), so the core is compiled once, in the component every
//! other path uses. Built for wasm32-unknown-unknown and turned into a
//! component by `wasm-tools component new`, like the other guests; the result
//! imports only wasi:io and wasi:http (checked by tests/http-proxy).
//!
//! With the `static` feature the handler answers the golden PNG of the
//! reference URL from memory and imports no generator: the ceiling of the
//! server that runs it (tier `static`).
//!
//! The endpoint contract is `tests/http/README.md`; the messages of the
//! errors this component makes itself (bad UTF-8, option parsing) are the
//! core's (`guest/core/src/contract.rs`, `text_from_utf8`).

use std::io::Write as _;

use wasip2::http::types::{Fields, IncomingRequest, Method, OutgoingBody, OutgoingResponse, ResponseOutparam};

#[cfg(not(feature = "static"))]
wit_bindgen::generate!({
    path: "../../wit",
    inline: "
        package qrglue:http-proxy;
        world proxy {
            import qrglue:qr/generator@0.1.0;
        }
    ",
    world: "qrglue:http-proxy/proxy",
    generate_all,
});

/// The experiment's own limit on the text, in UTF-8 bytes.
pub const MAX_HTTP_TEXT_BYTES: usize = 512;

// The core's messages (guest/core/src/contract.rs), restated like every host
// does; the shared endpoint tests compare every answer with the library's.
const EMPTY_TEXT_MESSAGE: &str = "text is empty";
const LONE_SURROGATE_MESSAGE: &str = "text contains a lone surrogate (not encodable as UTF-8)";
#[cfg(not(feature = "static"))]
const DATA_TOO_LONG_MESSAGE: &str = "text does not fit in a QR code at this error-correction level";
#[cfg(feature = "static")]
const MIN_SIZE_BOUNDS: (u32, u32) = (1, 4096);
#[cfg(feature = "static")]
const QUIET_ZONE_BOUNDS: (u32, u32) = (0, 16);

struct Handler;

wasip2::http::proxy::export!(Handler);

/// An HTTP answer before it is written.
struct Answer {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    allow: bool,
}

impl Answer {
    fn new(status: u16, content_type: &'static str, body: Vec<u8>) -> Self {
        Answer { status, content_type, body, allow: false }
    }

    fn error(status: u16, kind: &str, message: &str) -> Self {
        let body = format!("{{\"kind\":{},\"message\":{}}}", json_string(kind), json_string(message));
        Answer::new(status, "application/json; charset=utf-8", body.into_bytes())
    }
}

impl wasip2::exports::http::incoming_handler::Guest for Handler {
    fn handle(request: IncomingRequest, response_out: ResponseOutparam) {
        let answer = answer(&request);
        drop(request);
        respond(answer, response_out);
    }
}

fn respond(answer: Answer, response_out: ResponseOutparam) {
    let mut headers: Vec<(String, Vec<u8>)> = vec![
        ("content-type".into(), answer.content_type.as_bytes().to_vec()),
        ("content-length".into(), answer.body.len().to_string().into_bytes()),
    ];
    if answer.allow {
        headers.push(("allow".into(), b"GET, HEAD".to_vec()));
    }
    let fields = Fields::from_list(&headers).unwrap_or_else(|_| Fields::new());
    let response = OutgoingResponse::new(fields);
    // Every status used here is valid: set-status-code cannot fail.
    let _ = response.set_status_code(answer.status);
    let Ok(body) = response.body() else { return };
    ResponseOutparam::set(response_out, Ok(response));
    let Ok(mut out) = body.write() else { return };
    // The whole body, for HEAD too: the server sends the head only (hyper and
    // node:http drop a HEAD response's body), and the content-length matches.
    // A client that went away is not worth a trap.
    if out.write_all(&answer.body).is_ok() {
        let _ = out.flush();
    }
    drop(out);
    let _ = OutgoingBody::finish(body, None);
}

/// The request head this endpoint accepts, like the other servers (16 KiB):
/// `wasmtime serve` itself buffers up to ~400 KiB (hyper's default) and
/// answers 431 only beyond that.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;

fn answer(request: &IncomingRequest) -> Answer {
    let target = request.path_with_query().unwrap_or_default();
    let head: usize = request.headers().entries().iter().map(|(name, value)| name.len() + value.len() + 4).sum();
    if target.len() + head > MAX_HEAD_BYTES {
        return Answer::error(431, "head-too-large", "request head over 16 KiB");
    }
    let (path, query) = target.split_once('?').unwrap_or((target.as_str(), ""));
    let get_or_head = matches!(request.method(), Method::Get | Method::Head);
    match path {
        "/qrcode" | "/healthz" if !get_or_head => {
            let mut answer = Answer::error(405, "method-not-allowed", "only GET and HEAD are allowed");
            answer.allow = true;
            answer
        }
        "/healthz" => Answer::new(200, "text/plain; charset=utf-8", b"ok\n".to_vec()),
        "/qrcode" => qrcode(query),
        _ => Answer::error(404, "not-found", "no such path (known: /qrcode, /healthz)"),
    }
}

/// A refused request: its kind and message (always a 400).
struct Refusal {
    kind: &'static str,
    message: String,
}

fn refuse(kind: &'static str, message: impl Into<String>) -> Refusal {
    Refusal { kind, message: message.into() }
}

/// What `GET /qrcode` was asked for, checked in the contract's order
/// (tests/http/README.md): bad-query (syntax, names, repeats, missing text),
/// invalid-text, empty-text, text-too-long, then invalid-options for values
/// that are not an ec-level name or a decimal u32. Ranges are the
/// generator's to refuse.
struct Request {
    text: String,
    ec_level: Option<Level>,
    min_size: Option<u32>,
    quiet_zone: Option<u32>,
}

#[derive(Clone, Copy)]
enum Level {
    Low,
    Medium,
    Quartile,
    High,
}

fn check(query: &str) -> Result<Request, Refusal> {
    let (mut text, mut ec, mut min_size, mut quiet_zone) = (None, None, None, None);
    for part in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = part.split_once('=').unwrap_or((part, ""));
        let name = decode(name)?;
        let value = decode(value)?;
        let slot = match name.as_slice() {
            b"text" => &mut text,
            b"ec-level" => &mut ec,
            b"min-size" => &mut min_size,
            b"quiet-zone" => &mut quiet_zone,
            _ => return Err(refuse("bad-query", "unknown query parameter (known: text, ec-level, min-size, quiet-zone)")),
        };
        if slot.is_some() {
            let name = String::from_utf8(name).unwrap_or_default();
            return Err(refuse("bad-query", format!("query parameter {name} is given more than once")));
        }
        *slot = Some(value);
    }
    let text = text.ok_or_else(|| refuse("bad-query", "query parameter text is required"))?;
    let text = text_from_utf8(text).map_err(|message| refuse("invalid-text", message))?;
    if text.is_empty() {
        return Err(refuse("empty-text", EMPTY_TEXT_MESSAGE));
    }
    if text.len() > MAX_HTTP_TEXT_BYTES {
        return Err(refuse("text-too-long", format!("text is longer than {MAX_HTTP_TEXT_BYTES} UTF-8 bytes (this endpoint's limit)")));
    }
    let ec_level = match ec.as_deref() {
        None => None,
        Some(b"low") => Some(Level::Low),
        Some(b"medium") => Some(Level::Medium),
        Some(b"quartile") => Some(Level::Quartile),
        Some(b"high") => Some(Level::High),
        Some(_) => return Err(refuse("invalid-options", "ec-level must be one of low, medium, quartile, high")),
    };
    let min_size = min_size.map(|v| uint("min-size", &v)).transpose()?;
    let quiet_zone = quiet_zone.map(|v| uint("quiet-zone", &v)).transpose()?;
    Ok(Request { text, ec_level, min_size, quiet_zone })
}

/// 1 to 10 ASCII digits with a value that fits a u32 (the WIT type).
fn uint(name: &str, value: &[u8]) -> Result<u32, Refusal> {
    let digits = !value.is_empty() && value.len() <= 10 && value.iter().all(u8::is_ascii_digit);
    match std::str::from_utf8(value).ok().filter(|_| digits).and_then(|s| s.parse::<u64>().ok()) {
        Some(n) if n <= u64::from(u32::MAX) => Ok(n as u32),
        _ => Err(refuse("invalid-options", format!("{name} must be a decimal integer within 0..=4294967295"))),
    }
}

fn refused(refusal: Refusal) -> Answer {
    Answer::error(400, refusal.kind, &refusal.message)
}

#[cfg(not(feature = "static"))]
fn qrcode(query: &str) -> Answer {
    use qrglue::qr::generator;
    use qrglue::qr::types::{EcLevel, Options, QrError};

    let request = match check(query) {
        Ok(request) => request,
        Err(refusal) => return refused(refusal),
    };
    // The host-side defaults every qrglue host applies (WIT has none).
    let options = Options {
        ec_level: match request.ec_level.unwrap_or(Level::Low) {
            Level::Low => EcLevel::Low,
            Level::Medium => EcLevel::Medium,
            Level::Quartile => EcLevel::Quartile,
            Level::High => EcLevel::High,
        },
        min_size: request.min_size.unwrap_or(200),
        quiet_zone: request.quiet_zone.unwrap_or(4),
    };
    match generator::png(&request.text, options) {
        Ok(png) => Answer::new(200, "image/png", png),
        Err(error) => {
            let (kind, message) = match &error {
                QrError::EmptyText => ("empty-text", EMPTY_TEXT_MESSAGE),
                QrError::InvalidText(message) => ("invalid-text", message.as_str()),
                QrError::DataTooLong => ("data-too-long", DATA_TOO_LONG_MESSAGE),
                QrError::InvalidOptions(message) => ("invalid-options", message.as_str()),
            };
            Answer::error(400, kind, message)
        }
    }
}

#[cfg(feature = "static")]
fn qrcode(query: &str) -> Answer {
    // The same request checks as the real tier, the range checks the
    // generator would make, then the bytes the build computed (build.rs)
    // instead of a call into the generator: the server's own ceiling.
    static GOLDEN: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/golden.png"));
    let request = match check(query) {
        Ok(request) => request,
        Err(refusal) => return refused(refusal),
    };
    let _ = (&request.text, request.ec_level);
    for (name, value, (min, max)) in
        [("min-size", request.min_size.unwrap_or(200), MIN_SIZE_BOUNDS), ("quiet-zone", request.quiet_zone.unwrap_or(4), QUIET_ZONE_BOUNDS)]
    {
        if !(min..=max).contains(&value) {
            return Answer::error(400, "invalid-options", &format!("{name} must be within {min}..={max}, got {value}"));
        }
    }
    Answer::new(200, "image/png", GOLDEN.to_vec())
}

/// Exactly `qrglue_core::text_from_utf8`: UTF-8, or the core's message.
fn text_from_utf8(bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        match bytes[at..] {
            [0xED, 0xA0..=0xBF, 0x80..=0xBF, ..] => LONE_SURROGATE_MESSAGE.to_owned(),
            _ => format!("text is not valid UTF-8: {}", e.utf8_error()),
        }
    })
}

/// `+` is a space; `%XY` is the byte 0xXY; a `%` without two hex digits is
/// malformed (bad-query).
fn decode(part: &str) -> Result<Vec<u8>, Refusal> {
    let bytes = part.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => match (bytes.get(i + 1).and_then(|&b| hex(b)), bytes.get(i + 2).and_then(|&b| hex(b))) {
                (Some(hi), Some(lo)) => {
                    out.push(hi << 4 | lo);
                    i += 2;
                }
                _ => {
                    return Err(refuse("bad-query", "malformed percent-encoding in the query (a % must be followed by two hex digits)"));
                }
            },
            b => out.push(b),
        }
        i += 1;
    }
    Ok(out)
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
