//! The core: arbitrary text or bytes x arbitrary options -> png, svg, matrix
//! and text. No panic; errors only of the contract's kinds, the same error
//! from every output for the same input (one validation, one order); every
//! PNG decodes to exactly the matrix's modules; a normal QR symbol reads
//! back (rqrr) as the input text.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qrglue_core::{QrError, Rgba, flat};
use qrglue_fuzz::{check_error, check_png_matches, check_svg, read_back};

/// Fixed-size fields first and the payload last (the rest of the input), so
/// that the seeds (fuzz/seeds/core, made from tests/vectors by
/// fuzz/make_seeds.py) are a plain header followed by a case's bytes.
#[derive(Arbitrary, Debug)]
struct Input {
    /// Through the text API (UTF-8 checked) or the bytes API.
    as_text: bool,
    /// Small numbers mostly (the options' ranges and just past them).
    ec_level: u8,
    min_size: u16,
    quiet_zone: u8,
    has_scale: bool,
    scale: u8,
    /// The default colours (a readable code) or any two.
    default_colors: bool,
    dark: u32,
    light: u32,
    symbol_flags: u8,
    version: u8,
    min_version: u8,
    mask: u8,
    svg_flags: u8,
    /// The SVG strings are the payload's first `svg_len` bytes, the title
    /// their first `title_len`.
    svg_len: u8,
    title_len: u16,
    style: u8,
    /// Every option word verbatim, for the far ends of each range.
    wide: Option<[u32; flat::OPTION_WORDS]>,
    data: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let (dark, light) = if input.default_colors { (Rgba::BLACK.to_u32(), Rgba::WHITE.to_u32()) } else { (input.dark, input.light) };
    let words = input.wide.unwrap_or([
        u32::from(input.ec_level % 5),
        u32::from(input.min_size % 4200),
        u32::from(input.quiet_zone % 18),
        u32::from(input.has_scale),
        u32::from(input.scale % 22),
        dark,
        light,
        u32::from(input.symbol_flags % 66),
        u32::from(input.version % 42),
        u32::from(input.min_version % 42),
        u32::from(input.mask % 9),
    ]);
    let options = match flat::options(words) {
        Ok(options) => options,
        Err(error) => {
            assert!(matches!(error, QrError::InvalidOptions(_)), "{error:?}");
            return check_error(&error);
        }
    };
    let strings = &input.data[..input.data.len().min(usize::from(input.svg_len))];
    // Decoded and checked: the SVG options' own error is the decoding's or
    // the grammar's (`SvgOptions::validate`, which svg_with runs too), and
    // either precedes an encoding error (an empty class with a text M1
    // cannot hold at level medium was the finding that showed it).
    let svg_options =
        flat::svg_options(u32::from(input.svg_flags % 9), u32::from(input.title_len), strings).and_then(|svg| svg.validate().map(|()| svg));
    let style = flat::text_style(u32::from(input.style % 4));

    let text = if input.as_text { Some(std::str::from_utf8(&input.data)) } else { None };
    let (matrix, png, svg, rendered) = match text {
        Some(Err(_)) => {
            // Not UTF-8: the text API cannot be called with it; the bytes
            // API takes it, below, as a binary payload.
            return run_bytes(&input.data, &options, svg_options, style);
        }
        Some(Ok(text)) => (
            qrglue_core::matrix(text, &options),
            qrglue_core::png(text, &options),
            // The SVG options and the style are checked after the common
            // checks (ABI.md: "after the other options"), before encoding.
            qrglue_core::validate(text, &options).and(svg_options.clone()).and_then(|svg| qrglue_core::svg_with(text, &options, &svg)),
            qrglue_core::validate(text, &options).and(style.clone()).and_then(|style| qrglue_core::text(text, &options, style)),
        ),
        None => return run_bytes(&input.data, &options, svg_options, style),
    };
    let common = text.and_then(Result::ok).map(|text| qrglue_core::validate(text, &options));
    let own = (svg_options.as_ref().err(), style.as_ref().err());
    check_outputs(&matrix, &png, &svg, &rendered, &options, common.and_then(Result::err).as_ref(), own);
    // The readback: a normal (not micro) symbol without ECI, in the
    // default colours, with a quiet zone and at least 2 px per module, is
    // what any reader must read; its text must be the input.
    if let (Ok(matrix), Ok(png), Some(Ok(text))) = (&matrix, &png, text) {
        let symbol = options.symbol;
        let image = check_png_matches(png, matrix, &options);
        let px = image.width / (matrix.width() + 2 * options.quiet_zone as usize);
        if input.default_colors && !symbol.micro && !symbol.eci && options.quiet_zone >= 1 && px >= 2 && image.width <= 1200 {
            assert_eq!(read_back(&image).as_deref(), Some(text), "rqrr reads back the input ({} modules, {px} px)", matrix.width());
        }
    }
});

fn run_bytes(
    data: &[u8],
    options: &qrglue_core::Options,
    svg_options: Result<qrglue_core::SvgOptions, QrError>,
    style: Result<qrglue_core::TextStyle, QrError>,
) {
    let common = qrglue_core::validate_data(data, options).err();
    let own = (svg_options.as_ref().err().cloned(), style.as_ref().err().cloned());
    let matrix = qrglue_core::matrix_bytes(data, options);
    let png = qrglue_core::png_bytes(data, options);
    let svg = qrglue_core::validate_data(data, options).and(svg_options).and_then(|svg| qrglue_core::svg_bytes_with(data, options, &svg));
    let rendered = qrglue_core::validate_data(data, options).and(style).and_then(|style| qrglue_core::text_bytes(data, options, style));
    check_outputs(&matrix, &png, &svg, &rendered, options, common.as_ref(), (own.0.as_ref(), own.1.as_ref()));
    if let (Ok(matrix), Ok(png)) = (&matrix, &png) {
        check_png_matches(png, matrix, options);
    }
}

/// One validation for every output: the matrix's outcome is the PNG's; the
/// SVG's and the text's too unless their own options fail (checked after
/// the common ones and before encoding, as the contract orders them).
/// `common` is the common checks' error (`validate`), `own` the SVG
/// options' and the style's own.
fn check_outputs(
    matrix: &Result<qrglue_core::QrMatrix, QrError>,
    png: &Result<Vec<u8>, QrError>,
    svg: &Result<String, QrError>,
    rendered: &Result<String, QrError>,
    options: &qrglue_core::Options,
    common: Option<&QrError>,
    own: (Option<&QrError>, Option<&QrError>),
) {
    for error in [matrix.as_ref().err(), png.as_ref().err(), svg.as_ref().err(), rendered.as_ref().err()].into_iter().flatten() {
        check_error(error);
    }
    assert_eq!(matrix.as_ref().err(), png.as_ref().err(), "matrix and png agree");
    if let Err(error) = matrix {
        for (other, own) in [(svg.as_ref().err(), own.0), (rendered.as_ref().err(), own.1)] {
            let other = other.expect("a matrix error fails every output");
            // A common check's error wins everywhere. An encoding error (a
            // text that does not fit the symbol asked for) comes after the
            // SVG options and the style, so their own error, if any, is first.
            let first = if let Some(common) = common {
                assert_eq!(common, error, "the matrix reports the common error");
                common
            } else {
                own.unwrap_or(error)
            };
            assert_eq!(other, first, "every output reports the first error in the contract's order");
        }
        return;
    }
    let matrix = matrix.as_ref().unwrap();
    assert!(matrix.width() >= 11 && matrix.width() <= 177);
    assert_eq!(matrix.packed_modules().len(), (matrix.width() * matrix.width()).div_ceil(8));
    if let Ok(svg) = svg {
        check_svg(svg);
    } else if let Err(error) = svg {
        assert!(matches!(error, QrError::InvalidOptions(_)), "only svg-options can fail after the matrix: {error:?}");
    }
    match rendered {
        Ok(text) => {
            let lines = text.lines().count();
            let modules = matrix.width() + 2 * options.quiet_zone as usize;
            assert!(lines == modules || lines == modules.div_ceil(2), "{lines} lines for {modules} modules");
        }
        Err(error) => assert!(matches!(error, QrError::InvalidOptions(_)), "only the style can fail after the matrix: {error:?}"),
    }
}
