//! qrglue-core behind a C ABI: the native path of the Go host (cgo), and of
//! any host that loads a C library (the Java host will load this one).
//!
//! The calls mirror the raw wasm ABI (`guest/raw/ABI.md`): the same options
//! as eleven `u32`s (here a `QrglueOptions` struct), the same checks in the
//! same order, the same status codes and messages; what differs is what a
//! shared address space allows: the caller's buffers are read where they are
//! (borrowed for the call, never freed here), and a result is one
//! `QrglueResult` returned by value, whose payload the caller frees with
//! `qrglue_result_free`.
//!
//! No panic crosses into the caller: every call runs under `catch_unwind`
//! (the `addon` profile unwinds), and a panic is the result status
//! `QRGLUE_STATUS_PANIC` with the panic's message as the payload.

use std::panic::{AssertUnwindSafe, catch_unwind};

use qrglue_core::contract;
use qrglue_core::{EcLevel, ErrorKind, Options, QrError, Rgba, SvgOptions, Symbol, TextStyle};
use qrglue_http_query::{Checked, Refusal, with_core};

/// The version of this C ABI; check it once after loading the library.
pub const QRGLUE_CAPI_VERSION: u32 = 1;
/// A result's status: the call succeeded, the payload is its output.
pub const QRGLUE_STATUS_OK: u32 = 0;
/// A result's status: the library panicked (a bug); the payload is the panic's message.
pub const QRGLUE_STATUS_PANIC: u32 = 5;
// Statuses 1..=4 are the contract's error kinds (empty-text, invalid-text,
// data-too-long, invalid-options), as in the raw ABI: the payload is the message.
/// A result's status from `qrglue_parse_query`: the query is not the
/// endpoint's (kind `bad-query`); the payload is the message.
pub const QRGLUE_STATUS_BAD_QUERY: u32 = 6;
/// A result's status from `qrglue_parse_query`: the text is over the
/// endpoint's limit (kind `text-too-long`); the payload is the message.
pub const QRGLUE_STATUS_TEXT_TOO_LONG: u32 = 7;
/// `qrglue_parse_query`'s flag for a caller that answers without a qrglue
/// generator: an empty text is refused (status 1, empty-text) and the options
/// must pass the generator's own checks (status 4, invalid-options).
pub const QRGLUE_QUERY_ALONE: u32 = 1;
/// `qrglue_method_class`: GET and HEAD, which the endpoint serves.
pub const QRGLUE_METHOD_SERVED: u32 = 0;
/// `qrglue_method_class`: another method of RFC 9110, or PATCH (405 on a known path).
pub const QRGLUE_METHOD_NOT_ALLOWED: u32 = 1;
/// `qrglue_method_class`: no method of this endpoint (400: methods are case-sensitive).
pub const QRGLUE_METHOD_UNKNOWN: u32 = 2;
/// `qrglue_http_message`: the 400 for an unknown method (kind `bad-request`).
pub const QRGLUE_HTTP_UNKNOWN_METHOD: u32 = 0;
/// `qrglue_http_message`: the 400 for an HTTP/1.1 request without Host (kind `bad-request`).
pub const QRGLUE_HTTP_NO_HOST: u32 = 1;

/// What a call returns: `status` (0, a kind 1..=4 with its message, or
/// `QRGLUE_STATUS_PANIC`) and a payload the caller owns until it passes the
/// whole result to `qrglue_result_free`. `payload` is null when
/// `payload_len` is 0.
#[repr(C)]
pub struct QrglueResult {
    pub status: u32,
    pub payload: *mut u8,
    pub payload_len: usize,
}

/// The options, as the raw ABI's eleven arguments after the text: `ec_level`
/// 0..=3, `min_size`, `quiet_zone`, `has_scale` (0: none) and `scale`,
/// colours as 0xRRGGBBAA, `symbol_flags` (micro 1, boost-ec 2, version 4,
/// min-version 8, mask 16, eci 32) and the numbers its bits give.
#[repr(C)]
pub struct QrglueOptions {
    pub ec_level: u32,
    pub min_size: u32,
    pub quiet_zone: u32,
    pub has_scale: u32,
    pub scale: u32,
    pub dark: u32,
    pub light: u32,
    pub symbol_flags: u32,
    pub version: u32,
    pub min_version: u32,
    pub mask: u32,
}

/// The SVG options: `flags` (view-box-only 1, title given 2, class given
/// 4), and the title's and the class's UTF-8 (null when empty).
#[repr(C)]
pub struct QrglueSvgOptions {
    pub flags: u32,
    pub title: *const u8,
    pub title_len: usize,
    pub class_name: *const u8,
    pub class_len: usize,
}

/// This library's C ABI version (`QRGLUE_CAPI_VERSION`).
#[unsafe(no_mangle)]
pub extern "C" fn qrglue_capi_version() -> u32 {
    QRGLUE_CAPI_VERSION
}

/// The PNG for the text's UTF-8 in (`text`, `len`): checked as UTF-8.
///
/// # Safety
/// `text` points to `len` readable bytes (or is null with `len` 0) and
/// `options` to a `QrglueOptions`, both for the length of the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qrglue_png(text: *const u8, len: usize, options: *const QrglueOptions) -> QrglueResult {
    guarded(|| generate(Input::Text, unsafe { bytes(text, len) }, unsafe { options.as_ref() }, qrglue_core::png_bytes))
}

/// `qrglue_png` for a binary payload: its bytes as they are.
///
/// # Safety
/// As `qrglue_png`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qrglue_png_bytes(data: *const u8, len: usize, options: *const QrglueOptions) -> QrglueResult {
    guarded(|| generate(Input::Bytes, unsafe { bytes(data, len) }, unsafe { options.as_ref() }, qrglue_core::png_bytes))
}

/// The SVG document (UTF-8) for the text, with the SVG options, checked after the others.
///
/// # Safety
/// As `qrglue_png`; `svg` points to a `QrglueSvgOptions` whose strings are readable for the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qrglue_svg(
    text: *const u8,
    len: usize,
    options: *const QrglueOptions,
    svg: *const QrglueSvgOptions,
) -> QrglueResult {
    guarded(|| {
        let svg = unsafe { svg_options(svg) };
        generate(Input::Text, unsafe { bytes(text, len) }, unsafe { options.as_ref() }, |data, o| svg_payload(data, o, svg))
    })
}

/// `qrglue_svg` for a binary payload.
///
/// # Safety
/// As `qrglue_svg`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qrglue_svg_bytes(
    data: *const u8,
    len: usize,
    options: *const QrglueOptions,
    svg: *const QrglueSvgOptions,
) -> QrglueResult {
    guarded(|| {
        let svg = unsafe { svg_options(svg) };
        generate(Input::Bytes, unsafe { bytes(data, len) }, unsafe { options.as_ref() }, |data, o| svg_payload(data, o, svg))
    })
}

/// The module matrix for the text: the width as a little-endian u32, then
/// the packed modules (row-major, most significant bit first).
///
/// # Safety
/// As `qrglue_png`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qrglue_matrix(text: *const u8, len: usize, options: *const QrglueOptions) -> QrglueResult {
    guarded(|| generate(Input::Text, unsafe { bytes(text, len) }, unsafe { options.as_ref() }, matrix_payload))
}

/// `qrglue_matrix` for a binary payload.
///
/// # Safety
/// As `qrglue_png`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qrglue_matrix_bytes(data: *const u8, len: usize, options: *const QrglueOptions) -> QrglueResult {
    guarded(|| generate(Input::Bytes, unsafe { bytes(data, len) }, unsafe { options.as_ref() }, matrix_payload))
}

/// The code as text (UTF-8) in `style` (0 half-blocks, 1 half-blocks-inverted, 2 ascii), checked after the options.
///
/// # Safety
/// As `qrglue_png`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qrglue_text(text: *const u8, len: usize, options: *const QrglueOptions, style: u32) -> QrglueResult {
    guarded(|| generate(Input::Text, unsafe { bytes(text, len) }, unsafe { options.as_ref() }, |data, o| text_payload(data, o, style)))
}

/// `qrglue_text` for a binary payload.
///
/// # Safety
/// As `qrglue_png`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qrglue_text_bytes(data: *const u8, len: usize, options: *const QrglueOptions, style: u32) -> QrglueResult {
    guarded(|| generate(Input::Bytes, unsafe { bytes(data, len) }, unsafe { options.as_ref() }, |data, o| text_payload(data, o, style)))
}

/// Checks the text and the options as `qrglue_png` does, without rendering:
/// an empty payload on success (the raw ABI's `qr_png_repeat` with `times` 0).
///
/// # Safety
/// As `qrglue_png`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qrglue_check(text: *const u8, len: usize, options: *const QrglueOptions) -> QrglueResult {
    guarded(|| generate(Input::Text, unsafe { bytes(text, len) }, unsafe { options.as_ref() }, |_, o| o.validate().map(|()| Vec::new())))
}

/// Parses the query of the HTTP endpoint's `GET /qrcode` (tests/http/README.md)
/// with guest/http-query, the grammar every server uses: `query` is what the
/// client sent after the `?` (`len` bytes, still percent-encoded, any bytes).
///
/// Passed (status 0): the payload is the text's UTF-8 (none for an empty
/// text, which the caller's generator then refuses), and `*options` holds the
/// options, those the query does not give at the core's defaults (a `scale`,
/// `version`, `min-version` or `mask` not given is not flagged), ready for
/// the `qrglue_png` family. Refused: the status is the kind (1 empty-text,
/// with `QRGLUE_QUERY_ALONE` only; 2 invalid-text; 4 invalid-options; 6
/// bad-query; 7 text-too-long), the payload its message (the endpoint's 400
/// body is `{"kind":…,"message":…}`), and `*options` is not written. `flags`:
/// 0, or `QRGLUE_QUERY_ALONE`.
///
/// # Safety
/// `query` points to `len` readable bytes (or is null with `len` 0) and
/// `options` to a writable `QrglueOptions`, for the length of the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qrglue_parse_query(query: *const u8, len: usize, flags: u32, options: *mut QrglueOptions) -> QrglueResult {
    let refused = |status: u32, message: String| into_result(status, message.into_bytes());
    let invalid = |message: &str| refused(ErrorKind::InvalidOptions.code(), message.to_owned());
    match catch_unwind(AssertUnwindSafe(|| {
        let Some(query) = (unsafe { bytes(query, len) }) else { return invalid("query is a null pointer with a nonzero length") };
        let Some(out) = (unsafe { options.as_mut() }) else { return invalid("options is a null pointer") };
        if flags > QRGLUE_QUERY_ALONE {
            return invalid(&contract::out_of_range("flags", 0, QRGLUE_QUERY_ALONE, flags));
        }
        let checked =
            if flags & QRGLUE_QUERY_ALONE != 0 { with_core::check_alone(query).map(Checked::Request) } else { with_core::check(query) };
        match checked {
            Ok(Checked::Empty) => {
                *out = from_options(&Options::default());
                into_result(QRGLUE_STATUS_OK, Vec::new())
            }
            Ok(Checked::Request(request)) => {
                *out = from_options(&with_core::options(&request));
                into_result(QRGLUE_STATUS_OK, request.text.into_bytes())
            }
            Err(Refusal { kind, message }) => {
                let status = match kind {
                    "bad-query" => QRGLUE_STATUS_BAD_QUERY,
                    "text-too-long" => QRGLUE_STATUS_TEXT_TOO_LONG,
                    other => ErrorKind::from_name(other).map_or(QRGLUE_STATUS_PANIC, ErrorKind::code),
                };
                refused(status, message)
            }
        }
    })) {
        Ok(result) => result,
        Err(_) => into_result(QRGLUE_STATUS_PANIC, b"the qrglue library panicked while parsing a query".to_vec()),
    }
}

/// Where a request target's path and query lie in it (`qrglue_path_and_query`):
/// byte offsets and lengths. A `path_len` of 0 is the empty path, which
/// stands for `/`.
#[repr(C)]
pub struct QrglueTarget {
    pub path_start: usize,
    pub path_len: usize,
    pub query_start: usize,
    pub query_len: usize,
}

/// The path and the query (after the first `?`, still percent-encoded) of
/// the request target `target` (`len` bytes, as the client sent it), by
/// guest/http-query's rule, the one every server uses (tests/http/README.md,
/// "Request targets and methods"): a fragment dropped, an absolute-form target
/// reduced to its path and query. Writes `*out` and returns 0, or returns 4
/// (invalid-options) for a null pointer, writing nothing.
///
/// # Safety
/// `target` points to `len` readable bytes (or is null with `len` 0), `out`
/// to a writable `QrglueTarget`, for the length of the call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qrglue_path_and_query(target: *const u8, len: usize, out: *mut QrglueTarget) -> u32 {
    let (Some(target), Some(out)) = (unsafe { bytes(target, len) }, unsafe { out.as_mut() }) else {
        return ErrorKind::InvalidOptions.code();
    };
    // The rule reads only ASCII (delimiters, a scheme's letters), and a
    // target may hold any byte: each byte as the char of that code point
    // (Latin-1) keeps every ASCII byte and every other byte's place.
    let latin1: String = target.iter().map(|&b| char::from(b)).collect();
    let (path, query) = qrglue_http_query::path_and_query(&latin1);
    // A slice of `latin1` -> (its start, its length) in `target`'s bytes.
    let place = |part: &str| {
        let start = part.as_ptr() as usize - latin1.as_ptr() as usize;
        (latin1[..start].chars().count(), part.chars().count())
    };
    // The path is a slice of the target, or the rule's own "/" for an empty one.
    let (path_start, path_len) = if latin1.as_bytes().as_ptr_range().contains(&path.as_ptr()) { place(path) } else { (0, 0) };
    let (query_start, query_len) = if query.is_empty() { (0, 0) } else { place(query) };
    *out = QrglueTarget { path_start, path_len, query_start, query_len };
    0
}

/// A request method's class by guest/http-query's rule:
/// `QRGLUE_METHOD_SERVED`, `QRGLUE_METHOD_NOT_ALLOWED` or
/// `QRGLUE_METHOD_UNKNOWN` (also for bytes that are not UTF-8).
///
/// # Safety
/// `method` points to `len` readable bytes (or is null with `len` 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qrglue_method_class(method: *const u8, len: usize) -> u32 {
    match unsafe { bytes(method, len) }.and_then(|m| std::str::from_utf8(m).ok()).map(qrglue_http_query::method_class) {
        Some(qrglue_http_query::MethodClass::Served) => QRGLUE_METHOD_SERVED,
        Some(qrglue_http_query::MethodClass::NotAllowed) => QRGLUE_METHOD_NOT_ALLOWED,
        _ => QRGLUE_METHOD_UNKNOWN,
    }
}

/// One of the endpoint's fixed messages (guest/http-query's), by
/// `QRGLUE_HTTP_UNKNOWN_METHOD` or `QRGLUE_HTTP_NO_HOST`: static UTF-8, not
/// NUL-terminated, its length in `*len`; null (and `*len` 0) for another number.
///
/// # Safety
/// `len` points to a writable `size_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qrglue_http_message(message: u32, len: *mut usize) -> *const u8 {
    let text = match message {
        QRGLUE_HTTP_UNKNOWN_METHOD => qrglue_http_query::UNKNOWN_METHOD_MESSAGE,
        QRGLUE_HTTP_NO_HOST => qrglue_http_query::NO_HOST_MESSAGE,
        _ => "",
    };
    if let Some(len) = unsafe { len.as_mut() } {
        *len = text.len();
    }
    if text.is_empty() { std::ptr::null() } else { text.as_ptr() }
}

/// Probe: panics inside the library, to prove that a panic comes back as
/// `QRGLUE_STATUS_PANIC` and never crosses into the caller.
#[unsafe(no_mangle)]
pub extern "C" fn qrglue_panic_probe() -> QrglueResult {
    guarded(|| panic!("qrglue_panic_probe: a deliberate panic"))
}

/// Frees a result's payload. Results from this library only, each once.
///
/// # Safety
/// `result` is a result this library returned, not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn qrglue_result_free(result: QrglueResult) {
    if !result.payload.is_null() {
        // Made from a boxed slice of exactly this length in `into_result`.
        drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(result.payload, result.payload_len)) });
    }
}

/// What a call reads: a text (its UTF-8, checked) or a binary payload.
#[derive(Clone, Copy)]
enum Input {
    Text,
    Bytes,
}

/// The caller's buffer; `None` for a null pointer with a length (a bug of
/// the caller's, answered as the raw ABI answers a buffer that is not live).
unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        Some(&[])
    } else if ptr.is_null() {
        None
    } else {
        Some(unsafe { std::slice::from_raw_parts(ptr, len) })
    }
}

/// Every generating call's checks, in the contract's order (as the raw
/// guest's `generate`): the text's UTF-8, the payload's length, the options,
/// then `f`'s own.
fn generate(
    input: Input,
    data: Option<&[u8]>,
    options: Option<&QrglueOptions>,
    f: impl FnOnce(&[u8], &Options) -> Result<Vec<u8>, QrError>,
) -> Result<Vec<u8>, QrError> {
    let data = data.ok_or_else(|| QrError::InvalidText("text is a null pointer with a nonzero length".to_owned()))?;
    if let Input::Text = input {
        qrglue_core::text_from_utf8(data)?;
    }
    qrglue_core::validate_payload(data)?;
    let options = options.ok_or_else(|| QrError::InvalidOptions("options is a null pointer".to_owned()))?;
    f(data, &to_options(options)?)
}

/// The raw guest's `options`: the same checks and messages.
/// The core's options as this ABI passes them (the inverse of [`to_options`]).
fn from_options(o: &Options) -> QrglueOptions {
    let s = o.symbol;
    let bit = |on: bool, bit: u32| if on { bit } else { 0 };
    QrglueOptions {
        ec_level: o.ec_level.index(),
        min_size: o.min_size,
        quiet_zone: o.quiet_zone,
        has_scale: u32::from(o.scale.is_some()),
        scale: o.scale.unwrap_or(0),
        dark: o.dark.to_u32(),
        light: o.light.to_u32(),
        symbol_flags: bit(s.micro, contract::RAW_SYMBOL_MICRO)
            | bit(s.boost_ec, contract::RAW_SYMBOL_BOOST_EC)
            | bit(s.eci, contract::RAW_SYMBOL_ECI)
            | bit(s.version.is_some(), contract::RAW_SYMBOL_HAS_VERSION)
            | bit(s.min_version.is_some(), contract::RAW_SYMBOL_HAS_MIN_VERSION)
            | bit(s.mask.is_some(), contract::RAW_SYMBOL_HAS_MASK),
        version: s.version.unwrap_or(0),
        min_version: s.min_version.unwrap_or(0),
        mask: s.mask.unwrap_or(0),
    }
}

fn to_options(o: &QrglueOptions) -> Result<Options, QrError> {
    let ec_level = EcLevel::from_index(o.ec_level).ok_or_else(|| QrError::InvalidOptions(contract::bad_ec_level_index(o.ec_level)))?;
    if o.symbol_flags > contract::RAW_SYMBOL_FLAGS_MAX {
        return Err(QrError::InvalidOptions(contract::out_of_range("symbol-flags", 0, contract::RAW_SYMBOL_FLAGS_MAX, o.symbol_flags)));
    }
    let flag = |bit: u32| o.symbol_flags & bit != 0;
    let symbol = Symbol {
        micro: flag(contract::RAW_SYMBOL_MICRO),
        boost_ec: flag(contract::RAW_SYMBOL_BOOST_EC),
        eci: flag(contract::RAW_SYMBOL_ECI),
        version: flag(contract::RAW_SYMBOL_HAS_VERSION).then_some(o.version),
        min_version: flag(contract::RAW_SYMBOL_HAS_MIN_VERSION).then_some(o.min_version),
        mask: flag(contract::RAW_SYMBOL_HAS_MASK).then_some(o.mask),
        // ABI version 7 has no word for Kanji mode or an exact size: off.
        kanji: false,
    };
    Ok(Options {
        ec_level,
        min_size: o.min_size,
        quiet_zone: o.quiet_zone,
        scale: (o.has_scale != 0).then_some(o.scale),
        size: None,
        dark: Rgba::from_u32(o.dark),
        light: Rgba::from_u32(o.light),
        symbol,
    })
}

/// The SVG options as the raw guest reads its strings buffer: the flags'
/// bound, then each given string's UTF-8; errors wait for `svg_payload`.
unsafe fn svg_options(svg: *const QrglueSvgOptions) -> Result<SvgOptions, QrError> {
    let Some(svg) = (unsafe { svg.as_ref() }) else {
        return Ok(SvgOptions::default());
    };
    if svg.flags > contract::RAW_SVG_FLAGS_MAX {
        return Err(QrError::InvalidOptions(contract::out_of_range("svg-flags", 0, contract::RAW_SVG_FLAGS_MAX, svg.flags)));
    }
    let text = |option: &str, ptr: *const u8, len: usize| -> Result<String, QrError> {
        let bytes = unsafe { bytes(ptr, len) }
            .ok_or_else(|| QrError::InvalidOptions(format!("{option} is a null pointer with a nonzero length")))?;
        String::from_utf8(bytes.to_vec())
            .map_err(|e| QrError::InvalidOptions(contract::option_not_text(option, bytes, e.utf8_error().valid_up_to())))
    };
    let given = |bit: u32| svg.flags & bit != 0;
    Ok(SvgOptions {
        view_box_only: given(contract::RAW_SVG_VIEW_BOX_ONLY),
        title: if given(contract::RAW_SVG_HAS_TITLE) { Some(text("title", svg.title, svg.title_len)?) } else { None },
        class: if given(contract::RAW_SVG_HAS_CLASS) { Some(text("class", svg.class_name, svg.class_len)?) } else { None },
    })
}

fn svg_payload(data: &[u8], options: &Options, svg: Result<SvgOptions, QrError>) -> Result<Vec<u8>, QrError> {
    options.validate()?;
    qrglue_core::svg_bytes_with(data, options, &svg?).map(String::into_bytes)
}

fn text_payload(data: &[u8], options: &Options, style: u32) -> Result<Vec<u8>, QrError> {
    options.validate()?;
    let style = TextStyle::from_index(style).ok_or_else(|| QrError::InvalidOptions(contract::bad_text_style_index(style)))?;
    qrglue_core::text_bytes(data, options, style).map(String::into_bytes)
}

fn matrix_payload(data: &[u8], options: &Options) -> Result<Vec<u8>, QrError> {
    let matrix = qrglue_core::matrix_bytes(data, options)?;
    let mut payload = (matrix.width() as u32).to_le_bytes().to_vec();
    payload.extend(matrix.packed_modules());
    Ok(payload)
}

/// Runs a call; a panic becomes `QRGLUE_STATUS_PANIC` with its message.
fn guarded(call: impl FnOnce() -> Result<Vec<u8>, QrError>) -> QrglueResult {
    match catch_unwind(AssertUnwindSafe(call)) {
        Ok(Ok(payload)) => into_result(QRGLUE_STATUS_OK, payload),
        Ok(Err(error)) => into_result(error.kind().code(), error.to_string().into_bytes()),
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_owned());
            into_result(QRGLUE_STATUS_PANIC, format!("the qrglue library panicked: {message}").into_bytes())
        }
    }
}

fn into_result(status: u32, payload: Vec<u8>) -> QrglueResult {
    if payload.is_empty() {
        return QrglueResult { status, payload: std::ptr::null_mut(), payload_len: 0 };
    }
    let boxed = payload.into_boxed_slice();
    let payload_len = boxed.len();
    QrglueResult { status, payload: Box::into_raw(boxed).cast::<u8>(), payload_len }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(query: &[u8], flags: u32) -> (u32, Vec<u8>, Option<QrglueOptions>) {
        let mut options = QrglueOptions { ec_level: 99, ..from_options(&Options::default()) };
        // SAFETY: `query` and `options` live for the call; the result is freed once.
        let result = unsafe { qrglue_parse_query(query.as_ptr(), query.len(), flags, &mut options) };
        let payload = if result.payload.is_null() {
            Vec::new()
        } else {
            unsafe { std::slice::from_raw_parts(result.payload, result.payload_len) }.to_vec()
        };
        let status = result.status;
        unsafe { qrglue_result_free(result) };
        (status, payload, (options.ec_level != 99).then_some(options))
    }

    fn same(a: &QrglueOptions, b: &QrglueOptions) -> bool {
        let fields = |o: &QrglueOptions| {
            [o.ec_level, o.min_size, o.quiet_zone, o.has_scale, o.scale, o.dark, o.light, o.symbol_flags, o.version, o.min_version, o.mask]
        };
        fields(a) == fields(b)
    }

    /// tests/http/query_cases.json through the C ABI: what the Go and Java
    /// servers get from qrglue_parse_query.
    #[test]
    fn shared_cases() {
        let cases: serde_json::Value = serde_json::from_str(include_str!("../../../tests/http/query_cases.json")).expect("JSON");
        let status_of = |kind: &str| match kind {
            "bad-query" => QRGLUE_STATUS_BAD_QUERY,
            "text-too-long" => QRGLUE_STATUS_TEXT_TOO_LONG,
            other => ErrorKind::from_name(other).expect("kind").code(),
        };
        for case in cases["queries"].as_array().expect("queries") {
            let query = case["query"].as_str().expect("query");
            let (status, payload, options) = parse(query.as_bytes(), 0);
            if let Some(want) = case.get("refused") {
                let message = String::from_utf8(payload).expect("UTF-8");
                assert_eq!(
                    (status, message.as_str()),
                    (status_of(want["kind"].as_str().unwrap()), want["message"].as_str().unwrap()),
                    "{query}"
                );
                assert!(options.is_none(), "{query}: options written on a refusal");
                continue;
            }
            assert_eq!(status, QRGLUE_STATUS_OK, "{query}");
            let options = options.expect("options written");
            if case.get("empty").is_some() {
                assert!(payload.is_empty(), "{query}");
                assert!(same(&options, &from_options(&Options::default())), "{query}");
                continue;
            }
            let want = &case["request"];
            assert_eq!(String::from_utf8(payload).expect("UTF-8"), want["text"].as_str().unwrap(), "{query}");
            let mut expected = Options::default();
            let number = |key: &str| want.get(key).map(|v| v.as_u64().expect("u32") as u32);
            let flag = |key: &str| want.get(key).is_some_and(|v| v.as_bool().expect("bool"));
            let colour = |key: &str| want.get(key).map(|v| Rgba::from_hex(v.as_str().expect("colour")).expect("hex"));
            if let Some(level) = want.get("ec-level") {
                expected.ec_level = EcLevel::from_name(level.as_str().unwrap()).expect("level");
            }
            expected.min_size = number("min-size").unwrap_or(expected.min_size);
            expected.quiet_zone = number("quiet-zone").unwrap_or(expected.quiet_zone);
            expected.scale = number("scale");
            expected.dark = colour("dark").unwrap_or(expected.dark);
            expected.light = colour("light").unwrap_or(expected.light);
            expected.symbol = Symbol {
                micro: flag("micro"),
                version: number("version"),
                min_version: number("min-version"),
                mask: number("mask"),
                boost_ec: flag("boost-ec"),
                eci: flag("eci"),
                kanji: false,
            };
            assert!(same(&options, &from_options(&expected)), "{query}");
        }
    }

    /// The shared targets and methods through the C ABI, as the Go server reads them.
    #[test]
    fn shared_targets_and_methods() {
        let cases: serde_json::Value = serde_json::from_str(include_str!("../../../tests/http/query_cases.json")).expect("JSON");
        let split = |target: &[u8]| {
            let mut out = QrglueTarget { path_start: 9, path_len: 9, query_start: 9, query_len: 9 };
            assert_eq!(unsafe { qrglue_path_and_query(target.as_ptr(), target.len(), &mut out) }, 0);
            let path = if out.path_len == 0 { b"/".to_vec() } else { target[out.path_start..][..out.path_len].to_vec() };
            (path, target[out.query_start..][..out.query_len].to_vec())
        };
        for case in cases["targets"].as_array().expect("targets") {
            let [target, path, query] = [0, 1, 2].map(|i| case[i].as_str().expect("string").as_bytes());
            assert_eq!(split(target), (path.to_vec(), query.to_vec()), "{case}");
        }
        // Any byte: the rule reads ASCII only, and a non-ASCII byte keeps its place.
        assert_eq!(split(b"/q\xffr?text=\xe9&a#\xff"), (b"/q\xffr".to_vec(), b"text=\xe9&a".to_vec()));
        assert_eq!(split(b"h\xfft://x/p?q"), (b"h\xfft://x/p".to_vec(), b"q".to_vec()));
        let mut out = QrglueTarget { path_start: 0, path_len: 0, query_start: 0, query_len: 0 };
        assert_eq!(unsafe { qrglue_path_and_query(std::ptr::null(), 1, &mut out) }, ErrorKind::InvalidOptions.code());
        let want = |class: &str| match class {
            "served" => QRGLUE_METHOD_SERVED,
            "not-allowed" => QRGLUE_METHOD_NOT_ALLOWED,
            _ => QRGLUE_METHOD_UNKNOWN,
        };
        for (class, methods) in cases["methods"].as_object().expect("methods") {
            for m in methods.as_array().expect("list") {
                let m = m.as_str().expect("method").as_bytes();
                assert_eq!(unsafe { qrglue_method_class(m.as_ptr(), m.len()) }, want(class), "{m:?}");
            }
        }
        assert_eq!(unsafe { qrglue_method_class(b"G\xffT".as_ptr(), 3) }, QRGLUE_METHOD_UNKNOWN);
        let mut len = 9;
        let message = unsafe { qrglue_http_message(QRGLUE_HTTP_NO_HOST, &mut len) };
        assert_eq!(unsafe { std::slice::from_raw_parts(message, len) }, qrglue_http_query::NO_HOST_MESSAGE.as_bytes());
        assert!(unsafe { qrglue_http_message(2, &mut len) }.is_null() && len == 0);
    }

    #[test]
    fn alone_and_bad_arguments() {
        assert_eq!(parse(b"text=", QRGLUE_QUERY_ALONE).0, ErrorKind::EmptyText.code());
        let (status, message, _) = parse(b"text=a&scale=21", QRGLUE_QUERY_ALONE);
        assert_eq!((status, message.as_slice()), (ErrorKind::InvalidOptions.code(), b"scale must be within 1..=20, got 21".as_slice()));
        // Without the flag the generator is the one to refuse these.
        assert_eq!(parse(b"text=a&scale=21", 0).0, QRGLUE_STATUS_OK);
        assert_eq!(parse(b"text=a", 2).0, ErrorKind::InvalidOptions.code());
        // SAFETY: a null query with a nonzero length, and null options: refused, nothing read or written.
        let result = unsafe { qrglue_parse_query(std::ptr::null(), 3, 0, &mut from_options(&Options::default())) };
        assert_eq!(result.status, ErrorKind::InvalidOptions.code());
        unsafe { qrglue_result_free(result) };
        let result = unsafe { qrglue_parse_query(b"text=a".as_ptr(), 6, 0, std::ptr::null_mut()) };
        assert_eq!(result.status, ErrorKind::InvalidOptions.code());
        unsafe { qrglue_result_free(result) };
        // The options are ready for the qrglue_png family: the same PNG as the core's.
        let (_, text, options) = parse(b"text=hi&scale=3&micro=true&dark=%23f00", 0);
        let options = options.expect("options");
        let png = unsafe { qrglue_png(text.as_ptr(), text.len(), &options) };
        let mut want = Options { scale: Some(3), dark: Rgba::from_hex("#f00").unwrap(), ..Options::default() };
        want.symbol.micro = true;
        assert_eq!(png.status, QRGLUE_STATUS_OK);
        assert_eq!(unsafe { std::slice::from_raw_parts(png.payload, png.payload_len) }, qrglue_core::png("hi", &want).unwrap().as_slice());
        unsafe { qrglue_result_free(png) };
    }
}
