//! The wasm-bindgen adapter: qrglue-core as a plain wasm module whose JS glue
//! wasm-bindgen-cli generates (Node's `qrglue/bindgen`, and the browser).
//!
//! The exports mirror wit/qr.wit's `generator` (the `*-bytes` calls as
//! `pngBytes` and so on, taking a `Uint8Array`) and `probe` interfaces with
//! flat arguments, as the raw ABI passes them: the EC level is its WIT index
//! (0..=3), `min_size` and `quiet_zone` plain u32s, `scale` a u32 or
//! `undefined`, the colours `0xRRGGBBAA`, then the symbol options (`micro`,
//! `version`, `min_version`, `mask`, `boost_ec`, `eci`: a boolean, three
//! u32s or `undefined`, two booleans). wasm-bindgen's glue does
//! the copying: a `&str` is encoded into guest memory with `TextEncoder`
//! (which would replace a lone surrogate, so the host rejects those first),
//! and a `Vec<u8>` or `String` result is copied out into a JS value owned by
//! JS and freed in the guest before the call returns.
//!
//! A core error is thrown as a JS `Error` whose `message` is the core's
//! message (the contract's text) and whose `kind` is the WIT case name; the
//! host maps it to its `QrError`. A trap (the `trap` probe, or a panic, which
//! aborts under the release profile) reaches JS as `WebAssembly.RuntimeError`.

#![cfg(target_arch = "wasm32")]
// The exports pass the contract's options as flat integers (the ABI's shape,
// ABI.md), one argument each: up to fourteen arguments is the design, not a smell.
#![allow(clippy::too_many_arguments)]

use qrglue_core::{EcLevel, Options, QrError, Rgba, Symbol, TextStyle, contract};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// JavaScript's own `Error` class, imported so a core error is thrown as
    /// a real `Error` (with a stack) carrying the WIT kind.
    #[wasm_bindgen(js_name = Error)]
    type JsErrorObject;

    #[wasm_bindgen(constructor, js_class = Error)]
    fn new(message: &str) -> JsErrorObject;

    /// Sets `error.kind`, the WIT `qr-error` case name (`"data-too-long"`).
    #[wasm_bindgen(method, setter = kind, js_class = Error)]
    fn set_kind(this: &JsErrorObject, kind: &str);
}

/// The core's error as the JS value wasm-bindgen throws: `Error(message)`
/// with `kind` set.
fn js_error(error: QrError) -> JsValue {
    let thrown = JsErrorObject::new(&error.to_string());
    thrown.set_kind(error.kind().as_str());
    thrown.into()
}

/// The options as the exports take them, flat (the module's doc says how).
struct Flat {
    ec_level: u32,
    min_size: u32,
    quiet_zone: u32,
    scale: Option<u32>,
    dark: u32,
    light: u32,
    symbol: Symbol,
}

/// The common body of every generating export: the payload's checks first
/// (empty, too long: the order every path reports errors in, see
/// wit/qr.wit), then the options (an EC index outside 0..=3 is
/// `invalid-options` only once the payload is known to be fine), then `f`.
/// A text arrives as `&str` (the glue encoded it) and is run as its UTF-8.
fn generate<T>(data: &[u8], flat: Flat, f: impl FnOnce(&[u8], &Options) -> Result<T, QrError>) -> Result<T, JsValue> {
    let Flat { ec_level, min_size, quiet_zone, scale, dark, light, symbol } = flat;
    qrglue_core::validate_payload(data).map_err(js_error)?;
    let ec_level =
        EcLevel::from_index(ec_level).ok_or_else(|| js_error(QrError::InvalidOptions(contract::bad_ec_level_index(ec_level))))?;
    // `scale`: `undefined` is WIT's `none`; colours are 0xRRGGBBAA.
    let options = Options { ec_level, min_size, quiet_zone, scale, dark: Rgba::from_u32(dark), light: Rgba::from_u32(light), symbol };
    f(data, &options).map_err(js_error)
}

/// The `matrix` exports' result: the width as a little-endian u32, then the
/// packed modules, in one `Uint8Array` (the raw ABI's payload: one copy out,
/// and the host splits it).
fn matrix_payload(data: &[u8], options: &Options) -> Result<Vec<u8>, QrError> {
    let matrix = qrglue_core::matrix_bytes(data, options)?;
    let mut out = (matrix.width() as u32).to_le_bytes().to_vec();
    out.extend(matrix.packed_modules());
    Ok(out)
}

/// The `svg` exports' body: the SVG options (`view_box_only`, then `title`
/// and `class` as strings or `undefined`) are checked after the options.
/// wasm-bindgen's glue encodes the strings with `TextEncoder`, which would
/// replace a lone surrogate: the host rejects those first.
fn svg_payload(data: &[u8], options: &Options, svg: &qrglue_core::SvgOptions) -> Result<String, QrError> {
    options.validate()?;
    qrglue_core::svg_bytes_with(data, options, svg)
}

/// The `text` exports' body: `style` is the WIT index (0..=2), checked after
/// the options.
fn text_payload(data: &[u8], options: &Options, style: u32) -> Result<String, QrError> {
    options.validate()?;
    let style = TextStyle::from_index(style).ok_or_else(|| QrError::InvalidOptions(contract::bad_text_style_index(style)))?;
    qrglue_core::text_bytes(data, options, style)
}

/// Declares one generating export with the options as flat parameters (the
/// module's doc says how): the text or payload, then the eleven options every
/// generating export takes, then the export's own (`$extra`). The options reach
/// `$body` gathered into `$options` (a [`Flat`]), the rest by their names. A
/// macro so that the eleven shared parameters are written once, not in each of
/// the nine exports (a text export and its `*Bytes` twin differ only in taking
/// `text: &str` or `data: &[u8]`); the names, parameters and their order are
/// the glue's, unchanged. Each export's doc is a `#[doc = " ..."]` attribute,
/// not a `///` comment: inside a macro's input, `///` becomes a raw string
/// (`r" ..."`), which wasm-bindgen copies into the generated .d.ts and JSDoc
/// as written, `r"` and all.
macro_rules! generating_export {
    (
        $(#[$attr:meta])*
        fn $name:ident($input:ident: $input_type:ty, $options:ident $(, $extra:ident: $extra_type:ty)* $(,)?) -> $output:ty $body:block
    ) => {
        $(#[$attr])*
        pub fn $name(
            $input: $input_type,
            ec_level: u32,
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
        ) -> $output {
            let $options =
                Flat { ec_level, min_size, quiet_zone, scale, dark, light, symbol: Symbol { micro, version, min_version, mask, boost_ec, eci } };
            $body
        }
    };
}

generating_export! {
    #[doc = " The QR code for `text` as a 1-bit grayscale PNG (WIT `generator.png`)."]
    #[wasm_bindgen]
    fn png(text: &str, options) -> Result<Vec<u8>, JsValue> {
        generate(text.as_bytes(), options, qrglue_core::png_bytes)
    }
}

generating_export! {
    #[doc = " `png` for a binary payload (WIT `generator.png-bytes`)."]
    #[wasm_bindgen(js_name = pngBytes)]
    fn png_bytes(data: &[u8], options) -> Result<Vec<u8>, JsValue> {
        generate(data, options, qrglue_core::png_bytes)
    }
}

generating_export! {
    #[doc = " The QR code for `text` as an SVG document (WIT `generator.svg`)."]
    #[wasm_bindgen]
    fn svg(text: &str, options, view_box_only: bool, title: Option<String>, class: Option<String>) -> Result<String, JsValue> {
        let svg = qrglue_core::SvgOptions { view_box_only, title, class };
        generate(text.as_bytes(), options, |data, options| svg_payload(data, options, &svg))
    }
}

generating_export! {
    #[doc = " `svg` for a binary payload (WIT `generator.svg-bytes`)."]
    #[wasm_bindgen(js_name = svgBytes)]
    fn svg_bytes(data: &[u8], options, view_box_only: bool, title: Option<String>, class: Option<String>) -> Result<String, JsValue> {
        let svg = qrglue_core::SvgOptions { view_box_only, title, class };
        generate(data, options, |data, options| svg_payload(data, options, &svg))
    }
}

generating_export! {
    #[doc = " The module matrix (WIT `generator.matrix`): see `matrix_payload`."]
    #[wasm_bindgen]
    fn matrix(text: &str, options) -> Result<Vec<u8>, JsValue> {
        generate(text.as_bytes(), options, matrix_payload)
    }
}

generating_export! {
    #[doc = " `matrix` for a binary payload (WIT `generator.matrix-bytes`)."]
    #[wasm_bindgen(js_name = matrixBytes)]
    fn matrix_bytes(data: &[u8], options) -> Result<Vec<u8>, JsValue> {
        generate(data, options, matrix_payload)
    }
}

generating_export! {
    #[doc = " The code as text (WIT `generator.text`); `style` is the WIT index (0..=2)."]
    #[wasm_bindgen]
    fn text(text: &str, options, style: u32) -> Result<String, JsValue> {
        generate(text.as_bytes(), options, |data, options| text_payload(data, options, style))
    }
}

generating_export! {
    #[doc = " `text` for a binary payload (WIT `generator.text-bytes`)."]
    #[wasm_bindgen(js_name = textBytes)]
    fn text_bytes(data: &[u8], options, style: u32) -> Result<String, JsValue> {
        generate(data, options, |data, options| text_payload(data, options, style))
    }
}

/// Probe: does nothing (the fixed cost of one call).
#[wasm_bindgen]
pub fn noop() {}

/// Probe: takes `data` (copied into the guest by the glue) and returns its length.
#[wasm_bindgen]
pub fn consume(data: Vec<u8>) -> u32 {
    data.len() as u32
}

/// Probe: `len` bytes, byte i = i mod 251. Traps if `len` is over 16 MiB,
/// as WIT's `produce` does (a probe, not an API: a trap is the clear answer).
#[wasm_bindgen]
pub fn produce(len: u32) -> Vec<u8> {
    assert!(len <= qrglue_core::probe::MAX_PRODUCE_BYTES, "produce: len over 16 MiB");
    qrglue_core::probe::pattern(len as usize)
}

generating_export! {
    #[doc = " Probe: renders the PNG `times` times in the guest; the last PNG's length."]
    #[wasm_bindgen(js_name = pngRepeat)]
    fn png_repeat(text: &str, options, times: u32) -> Result<u32, JsValue> {
        generate(text.as_bytes(), options, |_, options| qrglue_core::probe::png_repeat(text, options, times))
    }
}

/// Probe: traps, always (wasm `unreachable`), so hosts can test recovery.
#[wasm_bindgen]
pub fn trap() {
    core::arch::wasm32::unreachable()
}

/// Probe: the linear memory size in 64 KiB pages (bounded-memory tests).
#[wasm_bindgen(js_name = memoryPages)]
pub fn memory_pages() -> u32 {
    core::arch::wasm32::memory_size(0) as u32
}

/// Probe: this instance's `WebAssembly.Memory`, so the host can read the
/// memory's size itself (`buffer.byteLength`) and check `memoryPages` against
/// it. The glue replaces the instance after a trap, so the host asks again
/// rather than keeping the first instance's memory.
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}
