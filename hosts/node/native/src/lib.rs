//! qrglue/native: qrglue-core as a Node-API addon, built with napi-rs.
//!
//! The core runs in the Node process itself: no wasm, no linear memory; the
//! text is read straight from the JS string (a binary payload, for the
//! `*_bytes` exports, in place from its Uint8Array) and the result copied
//! once into a JS-owned ArrayBuffer ([`JsBytes`]). `hosts/node/lib/native.js` wraps these exports with
//! the same API as the other Node paths; it runs the host-side checks of
//! `lib/common.js` first, so these functions see well-formed strings and
//! resolved options. They still check both themselves, so that calling the
//! addon directly cannot alter a text or copy an oversized one.
//!
//! Errors: a core `QrError` is thrown as a JS Error whose `code` is the WIT
//! kind (`"empty-text"`, ...) and whose message is the core's message; the
//! JS side turns it into `QrError`. Every export is `catch_unwind`: the addon
//! is built with `panic = "unwind"` (Cargo profile `addon`), so a panic
//! becomes a JS Error (code `GenericFailure`) instead of aborting Node.

use std::ptr;

use napi::bindgen_prelude::{ToNapiValue, TypeName};
use napi::sys;
use napi::{JsString, JsValue, ValueType, check_status};
use napi_derive::napi;
use qrglue_core::{EcLevel, MAX_TEXT_BYTES, Options, QrError, Rgba, SvgOptions, Symbol, TextStyle, contract, probe};

/// Rust's allocations in the addon come from mimalloc, not from the malloc
/// that V8 uses for ArrayBuffer memory. Measured with glibc's malloc: the
/// core's transient buffers (some 30 KiB per PNG) interleaved with the
/// ArrayBuffers of the results grew RSS by about 30 KiB per call without
/// bound (600 MB after 20,000 PNGs, all of it freed but never reused), even
/// with every result collected; with mimalloc RSS stays flat.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A JS exception whose `code` is a WIT error kind or names a host failure
/// (napi-derive recognises a `Result<T, E>` return only when spelt out).
type JsError = napi::Error<&'static str>;

fn qr_error(error: QrError) -> JsError {
    JsError::new(error.kind().as_str(), error.to_string())
}

/// Bytes made in Rust, returned to JS as a Uint8Array over an ArrayBuffer that
/// V8 allocates and owns: one copy, and the Rust `Vec` is freed before the
/// call returns.
///
/// Not napi-rs's `Uint8Array::from(Vec<u8>)`, which hands the `Vec` itself to
/// an external ArrayBuffer: its memory (the whole capacity, tens of KiB for a
/// 398-byte PNG) is freed by a finalizer that Node defers until the event
/// loop turns, so a synchronous loop of calls holds every result's `Vec`
/// (measured: RSS grew by about 140 KiB per call over a 100,000-call soak)
/// and V8 never counts that memory towards its GC pressure.
pub struct JsBytes(Vec<u8>);

impl TypeName for JsBytes {
    fn type_name() -> &'static str {
        "Uint8Array"
    }

    fn value_type() -> ValueType {
        ValueType::Object
    }
}

impl ToNapiValue for JsBytes {
    unsafe fn to_napi_value(env: sys::napi_env, bytes: Self) -> napi::Result<sys::napi_value> {
        let len = bytes.0.len();
        let mut data = ptr::null_mut();
        let mut buffer = ptr::null_mut();
        // SAFETY: env is the current call's; V8 returns `len` writable bytes at `data`.
        unsafe {
            check_status!(sys::napi_create_arraybuffer(env, len, &mut data, &mut buffer))?;
            if len > 0 {
                ptr::copy_nonoverlapping(bytes.0.as_ptr(), data.cast::<u8>(), len);
            }
            let mut array = ptr::null_mut();
            check_status!(sys::napi_create_typedarray(env, sys::TypedarrayType::uint8_array, len, buffer, 0, &mut array))?;
            Ok(array)
        }
    }
}

/// Reads a JS string as exactly the text it holds.
///
/// Taken as UTF-16 and decoded strictly: Node-API's UTF-8 conversion
/// (`napi_get_value_string_utf8`) replaces a lone surrogate with U+FFFD,
/// which would encode a different text; here it is `invalid-text`. A string
/// of more than [`MAX_TEXT_BYTES`] UTF-16 units has more UTF-8 bytes than
/// that too, so it is `data-too-long` before a single unit is copied; a
/// shorter one is copied into a bounded stack buffer.
fn read_text(text: &JsString) -> Result<String, JsError> {
    let value = text.value();
    let mut units = 0usize;
    // SAFETY: env and value come from the current call; a null buffer asks only for the length.
    let status = unsafe { sys::napi_get_value_string_utf16(value.env, value.value, std::ptr::null_mut(), 0, &mut units) };
    if status != sys::Status::napi_ok {
        return Err(JsError::new("StringExpected", "qrglue: text must be a string"));
    }
    if units > MAX_TEXT_BYTES {
        return Err(qr_error(QrError::over_max_text_bytes()));
    }
    // One more unit than the text: Node-API always writes a terminating NUL.
    let mut buffer = [0u16; MAX_TEXT_BYTES + 1];
    let mut written = 0usize;
    // SAFETY: `buffer` holds `units + 1` <= its length units.
    let status = unsafe { sys::napi_get_value_string_utf16(value.env, value.value, buffer.as_mut_ptr(), units + 1, &mut written) };
    if status != sys::Status::napi_ok || written != units {
        return Err(JsError::new("GenericFailure", "qrglue: could not read the text"));
    }
    String::from_utf16(&buffer[..written]).map_err(|_| qr_error(QrError::InvalidText(contract::LONE_SURROGATE_MESSAGE.to_owned())))
}

/// The JS side's resolved options, passed flat as on the raw ABI: the level
/// as its WIT index (as `lib/common.js` resolves it), `scale` a number or
/// `undefined` (WIT's `none`), the colours as `0xRRGGBBAA` (`lib/common.js`
/// reads the CSS hex strings and words a bad one itself), then the symbol
/// options as the wasm-bindgen exports take them (see [`symbol`]).
struct Flat {
    ec_index: u32,
    min_size: u32,
    quiet_zone: u32,
    scale: Option<u32>,
    dark: u32,
    light: u32,
    symbol: Symbol,
}

/// The core's options from the flat ones. The ranges, the same-colour check
/// and the symbol checks are the core's.
fn options(flat: Flat) -> Result<Options, JsError> {
    let Flat { ec_index, min_size, quiet_zone, scale, dark, light, symbol } = flat;
    let ec_level =
        EcLevel::from_index(ec_index).ok_or_else(|| qr_error(QrError::InvalidOptions(contract::bad_ec_level_index(ec_index))))?;
    Ok(Options { ec_level, min_size, quiet_zone, scale, dark: Rgba::from_u32(dark), light: Rgba::from_u32(light), symbol })
}

/// The symbol options (WIT `symbol-options`) from the five arguments every
/// generating export takes after `light`: `micro`, `boost_ec` and `eci`
/// booleans, `version`, `min_version` and `mask` a number or `undefined`
/// (WIT's `none`), as guest/bindgen's exports take them.
const fn symbol(micro: bool, version: Option<u32>, min_version: Option<u32>, mask: Option<u32>, boost_ec: bool, eci: bool) -> Symbol {
    Symbol { micro, version, min_version, mask, boost_ec, eci }
}

/// Text and options as the core takes them; the text checks come first, in
/// the contract's order (a text error is reported before an options error).
fn arguments(text: &JsString, flat: Flat) -> Result<(String, Options), JsError> {
    let text = read_text(text)?;
    qrglue_core::validate_text(&text).map_err(qr_error)?;
    Ok((text, options(flat)?))
}

/// Declares one generating export: the text (a `JsString`) or the binary
/// payload (`&[u8]`), then the twelve options every generating export takes
/// flat, as the wasm-bindgen exports do (ec_index, min_size, quiet_zone,
/// scale, dark, light, micro, version, min_version, mask, boost_ec, eci), then the
/// export's own (`$extra`). The options reach `$body` gathered into
/// `$options` (a [`Flat`]), the rest by their names. A macro so that the
/// twelve shared parameters are written once, not in each of the nine
/// exports (a text export and its `_bytes` twin differ only in how the input
/// is read and checked); the names, parameters and their order are
/// `lib/native.js`'s and `native.d.ts`'s, unchanged. The options are flat
/// arguments by design (as on the raw ABI), hence the clippy allow.
macro_rules! generating_export {
    // napi-derive reads some types by their tokens (a `&[u8]` argument is
    // borrowed in place; `Result` is recognised only when spelt out), so the
    // input's type and `Result` are matched here as written, not as `ty`
    // fragments (which reach napi-derive wrapped, and read differently). The
    // other arguments (`u32`, `Option<..>`) are converted by their traits,
    // wrapped or not.
    (
        $(#[$attr:meta])*
        fn $name:ident($input:ident: JsString, $($rest:tt)*) -> Result<$ok:ty, JsError> $body:block
    ) => {
        generating_export! { @emit [$input: JsString] $(#[$attr])* fn $name($($rest)*) -> $ok $body }
    };
    (
        $(#[$attr:meta])*
        fn $name:ident($input:ident: &[u8], $($rest:tt)*) -> Result<$ok:ty, JsError> $body:block
    ) => {
        generating_export! { @emit [$input: &[u8]] $(#[$attr])* fn $name($($rest)*) -> $ok $body }
    };
    (
        @emit [$($input:tt)*]
        $(#[$attr:meta])*
        fn $name:ident($options:ident $(, $extra:ident: $extra_type:ty)* $(,)?) -> $ok:ty $body:block
    ) => {
        $(#[$attr])*
        #[allow(clippy::too_many_arguments)]
        pub fn $name(
            $($input)*,
            ec_index: u32,
            min_size: u32,
            quiet_zone: u32,
            scale: Option<u32>,
            dark: u32,
            light: u32,
            micro: bool,
            version: Option<u32>,
            min_version: Option<u32>,
            mask: Option<u32>,
            boost_ec: bool,
            eci: bool,
            $($extra: $extra_type,)*
        ) -> Result<$ok, JsError> {
            let $options = Flat {
                ec_index,
                min_size,
                quiet_zone,
                scale,
                dark,
                light,
                symbol: symbol(micro, version, min_version, mask, boost_ec, eci),
            };
            $body
        }
    };
}

generating_export! {
    /// The QR code as a PNG, in a Uint8Array that JS owns.
    #[napi(catch_unwind)]
    fn png(text: JsString, options) -> Result<JsBytes, JsError> {
        let (text, options) = arguments(&text, options)?;
        qrglue_core::png(&text, &options).map(JsBytes).map_err(qr_error)
    }
}

generating_export! {
    /// The QR code as an SVG document.
    #[napi(catch_unwind)]
    fn svg(
        text: JsString,
        options,
        view_box_only: Option<bool>,
        title: Option<JsString>,
        class: Option<JsString>,
    ) -> Result<String, JsError> {
        let svg = svg_options(view_box_only.unwrap_or(false), title.as_ref(), class.as_ref());
        let (text, options) = arguments(&text, options)?;
        svg_payload(text.as_bytes(), &options, svg)
    }
}

/// The SVG options (WIT `svg-options`) from the three arguments the svg
/// exports take after `boost_ec`: `view_box_only` (`undefined` is false),
/// then `title` and `class` as strings or `undefined` (WIT's `none`). The strings are read as
/// UTF-16 and decoded strictly, as the text is ([`read_text`]): a lone
/// surrogate is the contract's `option-lone-surrogate`, never U+FFFD. Its
/// error waits for [`svg_payload`], after the text's and the options'.
fn svg_options(view_box_only: bool, title: Option<&JsString>, class: Option<&JsString>) -> Result<SvgOptions, QrError> {
    let read = |option: &str, value: Option<&JsString>| -> Result<Option<String>, QrError> {
        let Some(value) = value else { return Ok(None) };
        let units = read_utf16(value).ok_or_else(|| QrError::InvalidOptions(format!("qrglue: could not read {option} as a string")))?;
        String::from_utf16(&units)
            .map(Some)
            .map_err(|_| QrError::InvalidOptions(contract::OPTION_LONE_SURROGATE_TEMPLATE.replace("{option}", option)))
    };
    Ok(SvgOptions { view_box_only, title: read("title", title)?, class: read("class", class)? })
}

/// A JS string's UTF-16 units, all of them (any length: the addon has no
/// guest memory to exhaust), or None when it is not a string.
fn read_utf16(text: &JsString) -> Option<Vec<u16>> {
    let value = text.value();
    let mut units = 0usize;
    // SAFETY: env and value come from the current call; a null buffer asks only for the length.
    let status = unsafe { sys::napi_get_value_string_utf16(value.env, value.value, ptr::null_mut(), 0, &mut units) };
    if status != sys::Status::napi_ok {
        return None;
    }
    // One more unit than the string: Node-API always writes a terminating NUL.
    let mut buffer = vec![0u16; units + 1];
    let mut written = 0usize;
    // SAFETY: `buffer` holds `units + 1` units.
    let status = unsafe { sys::napi_get_value_string_utf16(value.env, value.value, buffer.as_mut_ptr(), units + 1, &mut written) };
    (status == sys::Status::napi_ok && written == units).then(|| {
        buffer.truncate(written);
        buffer
    })
}

/// The svg exports' body: the data's and the options' checks first, then the
/// SVG options' (the contract's order).
fn svg_payload(data: &[u8], options: &Options, svg: Result<SvgOptions, QrError>) -> Result<String, JsError> {
    qrglue_core::validate_data(data, options).map_err(qr_error)?;
    qrglue_core::svg_bytes_with(data, options, &svg.map_err(qr_error)?).map_err(qr_error)
}

generating_export! {
    /// The module matrix in one Uint8Array: the width as a little-endian u32,
    /// then the packed modules (the raw ABI's payload; `lib/common.js` splits it
    /// for every path that returns it so).
    #[napi(catch_unwind)]
    fn matrix(text: JsString, options) -> Result<JsBytes, JsError> {
        let (text, options) = arguments(&text, options)?;
        let matrix = qrglue_core::matrix(&text, &options).map_err(qr_error)?;
        Ok(JsBytes(matrix_payload(&matrix)))
    }
}

/// The matrix exports' payload: the width as a little-endian u32, then the
/// packed modules.
fn matrix_payload(matrix: &qrglue_core::QrMatrix) -> Vec<u8> {
    let modules = matrix.packed_modules();
    let mut payload = Vec::with_capacity(4 + modules.len());
    payload.extend_from_slice(&(matrix.width() as u32).to_le_bytes());
    payload.extend_from_slice(&modules);
    payload
}

generating_export! {
    /// The code as text; `style` is the WIT index (0..=2), as on the raw ABI,
    /// checked after every option as the contract orders it (the JS side maps
    /// the style's name, and words a bad name itself).
    #[napi(catch_unwind)]
    fn text(text: JsString, options, style: u32) -> Result<String, JsError> {
        let (text, options) = arguments(&text, options)?;
        let style = text_style(&options, style)?;
        qrglue_core::text(&text, &options, style).map_err(qr_error)
    }
}

/// The text exports' style from its WIT index, checked after every option
/// (the contract's order: the options are validated first).
fn text_style(options: &Options, style: u32) -> Result<TextStyle, JsError> {
    options.validate().map_err(qr_error)?;
    TextStyle::from_index(style).ok_or_else(|| qr_error(QrError::InvalidOptions(contract::bad_text_style_index(style))))
}

/// A binary payload's checks (empty, then longer than any code: one kind and
/// message for bytes and for a text) and the options, in the contract's
/// order, as [`arguments`] does for a text. The bytes are read in place, from
/// the caller's Uint8Array (no copy), and never checked as UTF-8.
fn payload_options(data: &[u8], flat: Flat) -> Result<Options, JsError> {
    qrglue_core::validate_payload(data).map_err(qr_error)?;
    options(flat)
}

generating_export! {
    /// [`png`] for a binary payload (WIT `generator.png-bytes`): any bytes, in a
    /// Uint8Array (a Buffer is one), read in place.
    #[napi(catch_unwind)]
    fn png_bytes(data: &[u8], options) -> Result<JsBytes, JsError> {
        let options = payload_options(data, options)?;
        qrglue_core::png_bytes(data, &options).map(JsBytes).map_err(qr_error)
    }
}

generating_export! {
    /// [`svg`] for a binary payload (WIT `generator.svg-bytes`).
    #[napi(catch_unwind)]
    fn svg_bytes(
        data: &[u8],
        options,
        view_box_only: Option<bool>,
        title: Option<JsString>,
        class: Option<JsString>,
    ) -> Result<String, JsError> {
        let svg = svg_options(view_box_only.unwrap_or(false), title.as_ref(), class.as_ref());
        let options = payload_options(data, options)?;
        svg_payload(data, &options, svg)
    }
}

generating_export! {
    /// [`matrix`] for a binary payload (WIT `generator.matrix-bytes`), in the same
    /// one-array shape.
    #[napi(catch_unwind)]
    fn matrix_bytes(data: &[u8], options) -> Result<JsBytes, JsError> {
        let options = payload_options(data, options)?;
        let matrix = qrglue_core::matrix_bytes(data, &options).map_err(qr_error)?;
        Ok(JsBytes(matrix_payload(&matrix)))
    }
}

generating_export! {
    /// [`text`] for a binary payload (WIT `generator.text-bytes`).
    #[napi(catch_unwind)]
    fn text_bytes(data: &[u8], options, style: u32) -> Result<String, JsError> {
        let options = payload_options(data, options)?;
        let style = text_style(&options, style)?;
        qrglue_core::text_bytes(data, &options, style).map_err(qr_error)
    }
}

/// Probe: does nothing; the fixed cost of one call.
#[napi(catch_unwind)]
pub fn noop() {}

/// Probe: `data`'s length. The bytes are borrowed in place (a native addon
/// needs no copy to read a typed array); `black_box` keeps the length read
/// from data the optimiser cannot see through.
#[napi(catch_unwind)]
pub fn consume(data: &[u8]) -> u32 {
    std::hint::black_box(data).len() as u32
}

/// Probe: `len` bytes, byte i = i mod 251; over 16 MiB is `invalid-options`,
/// as on the raw path and the Rust host's native path.
#[napi(catch_unwind)]
pub fn produce(len: u32) -> Result<JsBytes, JsError> {
    if len > probe::MAX_PRODUCE_BYTES {
        let message = format!("produce: len must be at most {}, got {len}", probe::MAX_PRODUCE_BYTES);
        return Err(qr_error(QrError::InvalidOptions(message)));
    }
    Ok(JsBytes(probe::pattern(len as usize)))
}

generating_export! {
    /// Probe: renders the PNG `times` times in Rust; the last PNG's length.
    #[napi(catch_unwind)]
    fn png_repeat(text: JsString, options, times: u32) -> Result<u32, JsError> {
        let (text, options) = arguments(&text, options)?;
        probe::png_repeat(&text, &options, times).map_err(qr_error)
    }
}

/// Probe: panics in Rust, always, so tests can check that a panic reaches
/// JS as an Error and the process (and the next call) carry on.
#[napi(catch_unwind)]
pub fn panic() {
    panic!("qrglue native: the panic probe was called");
}

/// The query of the HTTP endpoint's `GET /qrcode` (tests/http/README.md),
/// checked by guest/http-query, the one grammar every server uses: for
/// hosts/node/server, which loads this addon for it on every tier. Not part
/// of the qrglue API (lib/native.js does not export it).
///
/// `query` is what the client sent after the `?`, as bytes; `alone` is for
/// the tiers that answer without a qrglue generator (static, qrcode): an
/// empty text is then `empty-text` and the options pass the core's own
/// checks here. Returns `{ text, options }`, the options the query gives
/// under the JS API's names (`ecLevel`, `minSize`, ..., colours as
/// `#rrggbbaa`); an empty text (without `alone`) is `text: ''`, for the
/// generator to refuse. A refusal is thrown as an Error whose `code` is its
/// kind (`bad-query`, `invalid-text`, `empty-text`, `text-too-long`,
/// `invalid-options`).
#[napi(catch_unwind)]
pub fn http_query<'env>(env: &'env napi::Env, query: &[u8], alone: bool) -> Result<napi::bindgen_prelude::Object<'env>, JsError> {
    use qrglue_http_query::{Checked, Value, with_core};
    let refused = |r: qrglue_http_query::Refusal| JsError::new(r.kind, r.message);
    let failed = |e: napi::Error| JsError::new("GenericFailure", e.reason.clone());
    let request = if alone {
        Some(with_core::check_alone(query).map_err(refused)?)
    } else {
        match with_core::check(query).map_err(refused)? {
            Checked::Empty => None,
            Checked::Request(request) => Some(request),
        }
    };
    let mut options = napi::bindgen_prelude::Object::new(env).map_err(failed)?;
    for (name, value) in request.as_ref().map(|r| r.given()).unwrap_or_default() {
        // The JS API's name: the WIT name in camelCase (min-version: minVersion).
        let key: String =
            name.split('-').enumerate().map(|(i, w)| if i == 0 { w.to_owned() } else { w[..1].to_uppercase() + &w[1..] }).collect();
        match value {
            Value::Level(level) => options.set(&key, level.as_str()),
            Value::Number(n) => options.set(&key, n),
            Value::Color(c) => options.set(&key, c.to_hex()),
            Value::Flag(b) => options.set(&key, b),
        }
        .map_err(failed)?;
    }
    let mut answer = napi::bindgen_prelude::Object::new(env).map_err(failed)?;
    answer.set("text", request.map(|r| r.text).unwrap_or_default()).map_err(failed)?;
    answer.set("options", options).map_err(failed)?;
    Ok(answer)
}

/// The endpoint's request-target rules (tests/http/README.md, "Request
/// targets and methods"), guest/http-query's, for hosts/node/server: the
/// target's `[path, query]` (a fragment dropped, an absolute-form target
/// reduced to its path and query, an empty path `/`).
#[napi(catch_unwind)]
pub fn http_path_and_query(target: String) -> Vec<String> {
    let (path, query) = qrglue_http_query::path_and_query(&target);
    vec![path.to_owned(), query.to_owned()]
}

/// A request method's class: `served` (GET, HEAD), `not-allowed` (405) or
/// `unknown` (400: methods are case-sensitive); guest/http-query's rule.
#[napi(catch_unwind)]
pub fn http_method_class(method: String) -> &'static str {
    match qrglue_http_query::method_class(&method) {
        qrglue_http_query::MethodClass::Served => "served",
        qrglue_http_query::MethodClass::NotAllowed => "not-allowed",
        qrglue_http_query::MethodClass::Unknown => "unknown",
    }
}

/// Bounds what a connection of hosts/node/server may hold written but unsent
/// in the kernel: sets `TCP_NOTSENT_LOWAT` to `bytes` on the socket `fd`
/// (Linux), so that a write blocks once that much waits unsent. Node has no
/// API for socket options; the Rust, Go and Python servers set the same
/// option on each accepted connection (issue 39: without it the kernel's
/// send buffer took all 200 answers of a client that pipelines and never
/// reads). Not part of the qrglue API. Throws the OS error if it fails.
#[napi(catch_unwind)]
pub fn http_bound_unsent(fd: i32, bytes: u32) -> Result<(), JsError> {
    let value = bytes as libc::c_int;
    // SAFETY: setsockopt reads a c_int of the given size; a bad descriptor is an error, not UB.
    let status = unsafe {
        libc::setsockopt(
            fd,
            libc::IPPROTO_TCP,
            libc::TCP_NOTSENT_LOWAT,
            (&value as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if status == 0 { Ok(()) } else { Err(JsError::new("ERR_SOCKET_OPTION", std::io::Error::last_os_error().to_string())) }
}

/// The endpoint's 400 for an unknown method (guest/http-query), for hosts/node/server.
#[napi]
pub const HTTP_UNKNOWN_METHOD_MESSAGE: &str = qrglue_http_query::UNKNOWN_METHOD_MESSAGE;

/// The endpoint's 400 for an HTTP/1.1 request without Host (guest/http-query), for hosts/node/server.
#[napi]
pub const HTTP_NO_HOST_MESSAGE: &str = qrglue_http_query::NO_HOST_MESSAGE;
