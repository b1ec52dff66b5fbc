//! qrglue-core: text + options -> QR code as PNG bytes or SVG text.
//!
//! This crate is the one implementation every qrglue path runs: natively (the
//! Rust host links it directly), inside `qrglue.component.wasm` (through
//! wit-bindgen) and inside `qrglue.raw.wasm` (through the hand-written ABI).
//! It knows nothing of wasm; adapters stay thin.
//!
//! The pipeline has two stages, exposed separately so they can be measured:
//! 1. [`encode`]: text -> [`QrMatrix`] (the `qrcode` crate's segmentation
//!    without Kanji mode, its codewords and mask choice define the image),
//! 2. [`render_png`] / [`render_svg`] / [`render_text`]: matrix + options ->
//!    file bytes or text; [`matrix`] stops after stage 1 for hosts that draw
//!    the modules themselves.
//!
//! The bytes produced here are the project's golden output
//! (`tests/vectors/expected.json`): speed work must not change them.

pub mod contract;
mod encode;
mod error;
mod mask;
mod options;
mod png;
pub mod probe;
mod svg;
mod text;

pub use encode::{QrMatrix, data_bits, encode, encode_symbol};
pub use error::{ErrorKind, QrError};
pub use options::{
    EcLevel, MAX_MICRO_VERSION, MAX_MIN_SIZE, MAX_QUIET_ZONE, MAX_SCALE, MAX_TEXT_BYTES, MAX_VERSION, Options, Rgba, Symbol, TextStyle,
};
pub use png::render_png;
pub use svg::render_svg;
pub use text::render_text;

/// Checks the text and options, in the order every path reports them:
/// empty text, then text too long for any QR code, then the options.
///
/// Hosts may run the cheap text checks themselves before copying a text into
/// a guest (so guest memory stays bounded); they must use the same order.
pub fn validate(text: &str, options: &Options) -> Result<(), QrError> {
    validate_text(text)?;
    options.validate()
}

/// The text checks of [`validate`] alone: empty, then longer than any code.
pub fn validate_text(text: &str) -> Result<(), QrError> {
    if text.is_empty() {
        return Err(QrError::EmptyText);
    }
    if text.len() > MAX_TEXT_BYTES {
        return Err(QrError::DataTooLong);
    }
    Ok(())
}

/// The QR code for `text` as a 1-bit grayscale PNG.
pub fn png(text: &str, options: &Options) -> Result<Vec<u8>, QrError> {
    validate(text, options)?;
    let matrix = encode_symbol(text, options.ec_level, &options.symbol)?;
    Ok(render_png(&matrix, options))
}

/// The QR code for `text` as an SVG document (one path for the dark modules).
pub fn svg(text: &str, options: &Options) -> Result<String, QrError> {
    validate(text, options)?;
    let matrix = encode_symbol(text, options.ec_level, &options.symbol)?;
    Ok(render_svg(&matrix, options))
}

/// The module matrix for `text`, quiet zone not included: what a host's own
/// renderer (a canvas, a PDF) draws. `options` are checked as for [`png`];
/// only the EC level and the symbol options shape the matrix.
pub fn matrix(text: &str, options: &Options) -> Result<QrMatrix, QrError> {
    validate(text, options)?;
    encode_symbol(text, options.ec_level, &options.symbol)
}

/// The QR code for `text` as lines of text in `style`, quiet zone included
/// (`min_size` is checked but a text has no pixels).
pub fn text(text: &str, options: &Options, style: TextStyle) -> Result<String, QrError> {
    validate(text, options)?;
    let matrix = encode_symbol(text, options.ec_level, &options.symbol)?;
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
