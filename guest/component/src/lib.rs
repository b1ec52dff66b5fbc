//! The Component Model adapter: wires `wit/qr.wit`'s exports to qrglue-core.
//! Built for wasm32-unknown-unknown and turned into a component by
//! `wasm-tools component new` (see the justfile): it imports nothing.
//!
//! Strings arrive already validated: the canonical ABI only carries UTF-8,
//! and each host rejects lone surrogates before lowering (invalid-text). A
//! text's code is its UTF-8's code, so `svg`, `matrix` and `text` reuse the bytes
//! calls on the string's own buffer (no copy).

wit_bindgen::generate!({
    path: "../../wit",
    world: "qrglue",
});

use exports::qrglue::qr::types::{EcLevel, Options, QrError, QrMatrix, Rgba, SvgOptions, SymbolOptions, TextStyle};
use exports::qrglue::qr::{generator, probe};

struct Qrglue;

fn core_options(options: Options) -> qrglue_core::Options {
    qrglue_core::Options {
        ec_level: match options.ec_level {
            EcLevel::Low => qrglue_core::EcLevel::Low,
            EcLevel::Medium => qrglue_core::EcLevel::Medium,
            EcLevel::Quartile => qrglue_core::EcLevel::Quartile,
            EcLevel::High => qrglue_core::EcLevel::High,
        },
        min_size: options.min_size,
        quiet_zone: options.quiet_zone,
        scale: options.scale,
        dark: core_rgba(options.dark),
        light: core_rgba(options.light),
        symbol: options.symbol.map_or_else(qrglue_core::Symbol::default, core_symbol),
    }
}

fn core_symbol(SymbolOptions { micro, version, min_version, mask, boost_ec, eci }: SymbolOptions) -> qrglue_core::Symbol {
    qrglue_core::Symbol { micro, version, min_version, mask, boost_ec, eci }
}

fn core_rgba(Rgba { r, g, b, a }: Rgba) -> qrglue_core::Rgba {
    qrglue_core::Rgba { r, g, b, a }
}

fn wit_error(error: qrglue_core::QrError) -> QrError {
    match error {
        qrglue_core::QrError::EmptyText => QrError::EmptyText,
        qrglue_core::QrError::InvalidText(message) => QrError::InvalidText(message),
        qrglue_core::QrError::DataTooLong(message) => QrError::DataTooLong(message),
        qrglue_core::QrError::InvalidOptions(message) => QrError::InvalidOptions(message),
    }
}

impl generator::Guest for Qrglue {
    fn png(text: String, options: Options) -> Result<Vec<u8>, QrError> {
        qrglue_core::png(&text, &core_options(options)).map_err(wit_error)
    }

    fn svg(text: String, options: Options, svg: SvgOptions) -> Result<String, QrError> {
        Self::svg_bytes(text.into_bytes(), options, svg)
    }

    fn matrix(text: String, options: Options) -> Result<QrMatrix, QrError> {
        Self::matrix_bytes(text.into_bytes(), options)
    }

    fn text(text: String, options: Options, style: TextStyle) -> Result<String, QrError> {
        Self::text_bytes(text.into_bytes(), options, style)
    }

    fn png_bytes(data: Vec<u8>, options: Options) -> Result<Vec<u8>, QrError> {
        qrglue_core::png_bytes(&data, &core_options(options)).map_err(wit_error)
    }

    fn svg_bytes(data: Vec<u8>, options: Options, svg: SvgOptions) -> Result<String, QrError> {
        let SvgOptions { view_box_only, title, class } = svg;
        let svg = qrglue_core::SvgOptions { view_box_only, title, class };
        qrglue_core::svg_bytes_with(&data, &core_options(options), &svg).map_err(wit_error)
    }

    fn matrix_bytes(data: Vec<u8>, options: Options) -> Result<QrMatrix, QrError> {
        let matrix = qrglue_core::matrix_bytes(&data, &core_options(options)).map_err(wit_error)?;
        Ok(QrMatrix { width: matrix.width() as u32, modules: matrix.packed_modules() })
    }

    fn text_bytes(data: Vec<u8>, options: Options, style: TextStyle) -> Result<String, QrError> {
        let style = match style {
            TextStyle::HalfBlocks => qrglue_core::TextStyle::HalfBlocks,
            TextStyle::HalfBlocksInverted => qrglue_core::TextStyle::HalfBlocksInverted,
            TextStyle::Ascii => qrglue_core::TextStyle::Ascii,
        };
        qrglue_core::text_bytes(&data, &core_options(options), style).map_err(wit_error)
    }
}

impl probe::Guest for Qrglue {
    fn noop() {}

    fn consume(data: Vec<u8>) -> u32 {
        data.len() as u32
    }

    fn produce(len: u32) -> Vec<u8> {
        assert!(len <= qrglue_core::probe::MAX_PRODUCE_BYTES, "produce: len over 16 MiB");
        qrglue_core::probe::pattern(len as usize)
    }

    fn png_repeat(text: String, options: Options, times: u32) -> Result<u32, QrError> {
        qrglue_core::probe::png_repeat(&text, &core_options(options), times).map_err(wit_error)
    }

    fn trap() {
        core::arch::wasm32::unreachable()
    }

    fn memory_pages() -> u32 {
        core::arch::wasm32::memory_size(0) as u32
    }
}

export!(Qrglue);
