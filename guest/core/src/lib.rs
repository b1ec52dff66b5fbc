//! qrglue-core: text (or bytes) + options -> QR code as PNG bytes or SVG text.
//!
//! This crate is the one implementation every qrglue path runs: natively (the
//! Rust host links it directly), inside `qrglue.component.wasm` (through
//! wit-bindgen) and inside `qrglue.raw.wasm` (through the hand-written ABI).
//! It knows nothing of wasm; adapters stay thin.
//!
//! The pipeline has two stages, exposed separately so they can be measured:
//! 1. [`encode`]: text or bytes -> [`QrMatrix`] (the `qrcode` crate's segmentation
//!    without Kanji mode, its codewords and mask choice define the image),
//! 2. [`render_png`] / [`render_svg`] / [`render_text`]: matrix + options ->
//!    file bytes or text; [`matrix`] stops after stage 1 for hosts that draw
//!    the modules themselves.
//!
//! The bytes produced here are the project's golden output
//! (`tests/vectors/expected.json`): speed work must not change them.

#![warn(missing_docs)]

pub mod contract;
mod deflate;
mod encode;
mod error;
pub mod flat;
mod mask;
mod options;
mod png;
pub mod probe;
mod svg;
mod text;

pub use encode::{QrMatrix, data_bits, encode, encode_symbol};
pub use error::{ErrorKind, QrError};
pub use options::{
    EcLevel, MAX_MICRO_VERSION, MAX_MIN_SIZE, MAX_QUIET_ZONE, MAX_SCALE, MAX_SVG_CLASS_BYTES, MAX_SVG_TITLE_BYTES, MAX_TEXT_BYTES,
    MAX_VERSION, Options, Rgba, SvgOptions, Symbol, TextStyle,
};
pub use png::render_png;

/// The PNG stage's sub-stages, public for the stage benchmark and the
/// pixel-equality tests: [`render_png`] is
/// `write_container(rows, deflate(filter(rows)))` with `rows =
/// render_rows(..)`; `render_png_zlib_rs` is the same image through the
/// previous writer's zlib-rs deflate (the tests' oracle).
pub mod png_stages {
    pub use crate::png::{Filtered, PixelRows, deflate, filter, render_png_zlib_rs, render_rows, write_container, zlib_rs_deflate};
}
pub use svg::render_svg;
pub use text::render_text;

/// Checks the text and options, in the order every path reports them:
/// empty text, then text too long for any QR code, then the options.
///
/// Hosts may run the cheap text checks themselves before copying a text into
/// a guest (so guest memory stays bounded); they must use the same order.
pub fn validate(text: &str, options: &Options) -> Result<(), QrError> {
    validate_data(text.as_bytes(), options)
}

/// [`validate`] for a binary payload (the `*_bytes` generators): the same
/// checks and order, without the text's (a payload need not be UTF-8).
pub fn validate_data(data: &[u8], options: &Options) -> Result<(), QrError> {
    validate_payload(data)?;
    options.validate()
}

/// The text checks of [`validate`] alone: empty, then longer than any code.
pub fn validate_text(text: &str) -> Result<(), QrError> {
    validate_payload(text.as_bytes())
}

/// The payload checks of [`validate_data`] alone: empty (`empty-text`, one
/// kind and message for a text and for bytes), then longer than any code.
pub fn validate_payload(data: &[u8]) -> Result<(), QrError> {
    if data.is_empty() {
        return Err(QrError::EmptyText);
    }
    if data.len() > MAX_TEXT_BYTES {
        return Err(QrError::over_max_text_bytes());
    }
    Ok(())
}

// A text's code is its UTF-8 bytes' code: each text generator is its bytes
// generator on `text.as_bytes()`, so `png(t) == png_bytes(t.as_bytes())` for
// every text, on every path (the corpus's bytes cases check it).

/// The QR code for `text` as a 1-bit grayscale PNG.
pub fn png(text: &str, options: &Options) -> Result<Vec<u8>, QrError> {
    png_bytes(text.as_bytes(), options)
}

/// The QR code for `text` as an SVG document (one path for the dark modules).
pub fn svg(text: &str, options: &Options) -> Result<String, QrError> {
    svg_with(text, options, &SvgOptions::default())
}

/// [`svg`] written as `svg` asks (viewBox only, a title, a class), checked
/// after `options`.
pub fn svg_with(text: &str, options: &Options, svg: &SvgOptions) -> Result<String, QrError> {
    svg_bytes_with(text.as_bytes(), options, svg)
}

/// The module matrix for `text`, quiet zone not included: what a host's own
/// renderer (a canvas, a PDF) draws. `options` are checked as for [`png`];
/// only the EC level and the symbol options shape the matrix.
pub fn matrix(text: &str, options: &Options) -> Result<QrMatrix, QrError> {
    matrix_bytes(text.as_bytes(), options)
}

/// The QR code for `text` as lines of text in `style`, quiet zone included
/// (`min_size` is checked but a text has no pixels).
pub fn text(text: &str, options: &Options, style: TextStyle) -> Result<String, QrError> {
    text_bytes(text.as_bytes(), options, style)
}

/// [`png`] for a binary payload: its bytes go into numeric, alphanumeric and
/// byte segments as a text's UTF-8 does, with no ECI header (a reader gets
/// the bytes back as they are).
pub fn png_bytes(data: &[u8], options: &Options) -> Result<Vec<u8>, QrError> {
    validate_data(data, options)?;
    let matrix = encode_symbol(data, options.ec_level, &options.symbol)?;
    Ok(render_png(&matrix, options))
}

/// [`svg`] for a binary payload.
pub fn svg_bytes(data: &[u8], options: &Options) -> Result<String, QrError> {
    svg_bytes_with(data, options, &SvgOptions::default())
}

/// [`svg_with`] for a binary payload.
pub fn svg_bytes_with(data: &[u8], options: &Options, svg: &SvgOptions) -> Result<String, QrError> {
    validate_data(data, options)?;
    svg.validate()?;
    let matrix = encode_symbol(data, options.ec_level, &options.symbol)?;
    Ok(render_svg(&matrix, options, svg))
}

/// [`matrix`] for a binary payload.
pub fn matrix_bytes(data: &[u8], options: &Options) -> Result<QrMatrix, QrError> {
    validate_data(data, options)?;
    encode_symbol(data, options.ec_level, &options.symbol)
}

/// [`text`] for a binary payload.
pub fn text_bytes(data: &[u8], options: &Options, style: TextStyle) -> Result<String, QrError> {
    validate_data(data, options)?;
    let matrix = encode_symbol(data, options.ec_level, &options.symbol)?;
    Ok(render_text(&matrix, options, style))
}

/// Bytes from a host that claim to be a text: exact UTF-8 or `invalid-text`.
/// Used by the raw ABI, where the guest receives bytes, not a string, and by
/// Rust callers whose text arrives as bytes.
///
/// An encoded UTF-16 surrogate (`ED A0..BF xx`, how WTF-8 carries the lone
/// surrogate of a JavaScript or Python string) gets the message every host
/// gives a lone surrogate, so the same input reads the same on every path.
pub fn text_from_utf8(bytes: &[u8]) -> Result<&str, QrError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        match bytes[at..] {
            [0xED, 0xA0..=0xBF, 0x80..=0xBF, ..] => QrError::InvalidText(contract::LONE_SURROGATE_MESSAGE.to_owned()),
            _ => QrError::InvalidText(contract::not_utf8(at)),
        }
    })
}
