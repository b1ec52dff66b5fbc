//! qrglue over wasi:http: a `wasi:http/incoming-handler` that serves
//! `GET /qrcode?text=…[&ec-level=…&min-size=…&quiet-zone=…&scale=…&dark=…&light=…&micro=…&version=…&min-version=…&mask=…&boost-ec=…]`
//! as a PNG.
//!
//! The QR code itself comes from an *import*, `qrglue:qr/generator`: this
//! component holds only HTTP and query parsing. `wasm-tools compose` (tools/plug.sh) wires the import
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
//! The endpoint contract is `tests/http/README.md`; the query is checked by
//! `qrglue-http-query` (guest/http-query), shared with the axum server. The
//! messages of the errors this component makes itself (bad UTF-8, empty
//! text) are the core's (`guest/core/src/contract.rs`, `text_from_utf8`).

use std::io::Write as _;

use qrglue_http_query::{Checked, MethodClass, Refusal, Request};
use wasip2::http::types::{Fields, IncomingRequest, Method, OutgoingBody, OutgoingResponse, ResponseOutparam};

#[cfg(not(feature = "static"))]
wit_bindgen::generate!({
    path: "../../wit",
    inline: "
        package qrglue:http-proxy;
        world proxy {
            import qrglue:qr/generator@0.2.0;
        }
    ",
    world: "qrglue:http-proxy/proxy",
    generate_all,
});

// The core's messages (guest/core/src/contract.rs), restated like every host
// does; the shared endpoint tests compare every answer with the library's.
const EMPTY_TEXT_MESSAGE: &str = "text is empty";
const LONE_SURROGATE_MESSAGE: &str = "text contains a lone surrogate (not encodable as UTF-8)";

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
        Answer::new(status, "application/json; charset=utf-8", qrglue_http_query::error_json(kind, message).into_bytes())
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

/// Header lines a request may have, as hyper allows (tests/http/README.md);
/// jco serve (node:http) passes up to 2,000 on.
pub const MAX_HEADERS: usize = 100;

fn answer(request: &IncomingRequest) -> Answer {
    let target = request.path_with_query().unwrap_or_default();
    let entries = request.headers().entries();
    let head: usize = entries.iter().map(|(name, value)| name.len() + value.len() + 4).sum();
    if target.len() + head > MAX_HEAD_BYTES {
        return Answer::error(431, "head-too-large", "request head over 16 KiB");
    }
    if entries.len() > MAX_HEADERS {
        return Answer::error(431, "head-too-large", "more than 100 header lines");
    }
    // Methods are case-sensitive: `get` arrives as Method::Other("get").
    let class = match request.method() {
        Method::Get | Method::Head => MethodClass::Served,
        Method::Post | Method::Put | Method::Delete | Method::Connect | Method::Options | Method::Trace | Method::Patch => {
            MethodClass::NotAllowed
        }
        Method::Other(name) => qrglue_http_query::method_class(&name),
    };
    if class == MethodClass::Unknown {
        return Answer::error(400, "bad-request", qrglue_http_query::UNKNOWN_METHOD_MESSAGE);
    }
    // wasmtime serve hands over the origin-form already; jco serve passes the
    // target as sent (a fragment, an absolute-form).
    let (path, query) = qrglue_http_query::path_and_query(&target);
    match path {
        "/qrcode" | "/healthz" if class != MethodClass::Served => {
            let mut answer = Answer::error(405, "method-not-allowed", "only GET and HEAD are allowed");
            answer.allow = true;
            answer
        }
        "/healthz" => Answer::new(200, "text/plain; charset=utf-8", b"ok\n".to_vec()),
        "/qrcode" => qrcode(query),
        _ => Answer::error(404, "not-found", "no such path (known: /qrcode, /healthz)"),
    }
}

/// What `GET /qrcode` was asked for, checked in the contract's order by
/// qrglue-http-query with the core's UTF-8 check; empty-text in the core's
/// words. Ranges are the generator's to refuse.
fn check(query: &str) -> Result<Request, Refusal> {
    match qrglue_http_query::check(query, text_from_utf8)? {
        Checked::Empty => Err(Refusal { kind: "empty-text", message: EMPTY_TEXT_MESSAGE.to_owned() }),
        Checked::Request(request) => Ok(request),
    }
}

fn refused(refusal: Refusal) -> Answer {
    Answer::error(400, refusal.kind, &refusal.message)
}

#[cfg(not(feature = "static"))]
fn qrcode(query: &str) -> Answer {
    use qrglue::qr::generator;
    use qrglue::qr::types::{EcLevel, Options, QrError, Rgba, SymbolOptions};
    use qrglue_http_query::Level;

    let request = match check(query) {
        Ok(request) => request,
        Err(refusal) => return refused(refusal),
    };
    // The host-side defaults every qrglue host applies (WIT has none); the
    // symbol options only when the query gives one (none: the automatic symbol).
    let rgba = |c: qrglue_http_query::Rgba| Rgba { r: c.r, g: c.g, b: c.b, a: c.a };
    let options = Options {
        ec_level: match request.ec_level.unwrap_or(Level::Low) {
            Level::Low => EcLevel::Low,
            Level::Medium => EcLevel::Medium,
            Level::Quartile => EcLevel::Quartile,
            Level::High => EcLevel::High,
        },
        min_size: request.min_size.unwrap_or(200),
        quiet_zone: request.quiet_zone.unwrap_or(4),
        scale: request.scale,
        dark: rgba(request.dark.unwrap_or(qrglue_http_query::Rgba::BLACK)),
        light: rgba(request.light.unwrap_or(qrglue_http_query::Rgba::WHITE)),
        symbol: request.symbol.map(|s| SymbolOptions {
            micro: s.micro.unwrap_or(false),
            version: s.version,
            min_version: s.min_version,
            mask: s.mask,
            boost_ec: s.boost_ec.unwrap_or(false),
            eci: s.eci.unwrap_or(false),
        }),
    };
    match generator::png(&request.text, options) {
        Ok(png) => Answer::new(200, "image/png", png),
        Err(error) => {
            let (kind, message) = match &error {
                QrError::EmptyText => ("empty-text", EMPTY_TEXT_MESSAGE),
                QrError::InvalidText(message) => ("invalid-text", message.as_str()),
                QrError::DataTooLong(message) => ("data-too-long", message.as_str()),
                QrError::InvalidOptions(message) => ("invalid-options", message.as_str()),
            };
            Answer::error(400, kind, message)
        }
    }
}

#[cfg(feature = "static")]
fn qrcode(query: &str) -> Answer {
    // The same request checks as the real tier, the option checks the
    // generator would make (qrglue-http-query's check_ranges), then the
    // bytes the build computed (build.rs) instead of a call into the
    // generator: the server's own ceiling.
    static GOLDEN: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/golden.png"));
    let request = match check(query) {
        Ok(request) => request,
        Err(refusal) => return refused(refusal),
    };
    if let Err(refusal) = qrglue_http_query::check_ranges(&request) {
        return refused(refusal);
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
            _ => format!("text is not valid UTF-8 from byte {at}"), // the contract's NOT_UTF8_TEMPLATE
        }
    })
}
