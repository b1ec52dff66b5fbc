//! One case on one path, in expected.json's form. Shared by the conformance
//! runner (hosts/rust/conformance) and the golden test (tests/host/golden.rs),
//! so both judge a path the same way.

use qrglue_host::{Generator, Options, SvgOptions, TextStyle};
use qrglue_vectors::{Outcome, Text};

/// A lone surrogate (U+D800) in WTF-8, the form an unpaired surrogate takes
/// in Rust bytes (a Windows `OsStr`). A Rust `String` cannot hold the
/// corpus's lone-surrogate texts at all, so a Rust host meets them only as
/// such bytes; the paths must refuse them (`invalid-text`) without repair.
const WTF8_LONE_SURROGATE: &[u8] = b"\xed\xa0\x80";

/// Every output of one case on one path: the digests, or the one error all
/// of them gave.
pub fn outcome(generator: &mut dyn Generator, text: &Text, options: &Options, svg: &SvgOptions) -> Outcome {
    // A text goes in as bytes that claim to be UTF-8 (the `*_from_utf8`
    // calls check them), a `data_hex` payload through the `*_bytes` calls.
    let (bytes, payload) = match text {
        Text::Utf8(text) => (text.as_bytes(), false),
        Text::LoneSurrogate => (WTF8_LONE_SURROGATE, false),
        Text::Bytes(data) => (data.as_slice(), true),
    };
    let (png, svg, matrix, texts): (_, _, _, Result<Vec<(TextStyle, String)>, qrglue_host::Error>) = if payload {
        (
            generator.png_bytes(bytes, options),
            generator.svg_bytes_with(bytes, options, svg),
            generator.matrix_bytes(bytes, options),
            TextStyle::ALL.into_iter().map(|style| Ok((style, generator.text_bytes(bytes, options, style)?))).collect(),
        )
    } else {
        (
            generator.png_from_utf8(bytes, options),
            generator.svg_from_utf8_with(bytes, options, svg),
            generator.matrix_from_utf8(bytes, options),
            TextStyle::ALL.into_iter().map(|style| Ok((style, generator.text_from_utf8(bytes, options, style)?))).collect(),
        )
    };
    match (png, svg, matrix, texts) {
        (Ok(png), Ok(svg), Ok(matrix), Ok(texts)) => Outcome::image(&png, &svg, (matrix.width, &matrix.modules), &texts),
        (png, svg, matrix, texts) => {
            let errors = [png.err(), svg.err(), matrix.err(), texts.err()];
            match &errors {
                [Some(qrglue_host::Error::Qr(first)), rest @ ..]
                    if rest.iter().all(|e| matches!(e, Some(qrglue_host::Error::Qr(other)) if other == first)) =>
                {
                    Outcome::from_error(first)
                }
                // A trap, a runtime failure, or outputs disagreeing: the
                // README's marker, which never matches an expectation.
                _ => {
                    let described = errors.map(|e| e.map_or("ok".to_owned(), |e| e.to_string()));
                    eprintln!("png, svg, matrix and text disagree: {described:?}");
                    Outcome::error("outputs-disagree", "")
                }
            }
        }
    }
}
