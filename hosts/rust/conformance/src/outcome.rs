//! One case on one path, in expected.json's form. Shared by the conformance
//! runner (hosts/rust/conformance) and the golden test (tests/host/golden.rs),
//! so both judge a path the same way.

use qrglue_host::{Generator, Options};
use qrglue_vectors::{Outcome, Text};

/// A lone surrogate (U+D800) in WTF-8, the form an unpaired surrogate takes
/// in Rust bytes (a Windows `OsStr`). A Rust `String` cannot hold the
/// corpus's lone-surrogate texts at all, so a Rust host meets them only as
/// such bytes; the paths must refuse them (`invalid-text`) without repair.
const WTF8_LONE_SURROGATE: &[u8] = b"\xed\xa0\x80";

pub fn outcome(generator: &mut dyn Generator, text: &Text, options: &Options) -> Outcome {
    let (png, svg) = match text {
        Text::Utf8(text) => (generator.png(text, options), generator.svg(text, options)),
        Text::LoneSurrogate => {
            (generator.png_from_bytes(WTF8_LONE_SURROGATE, options), generator.svg_from_bytes(WTF8_LONE_SURROGATE, options))
        }
    };
    match (png, svg) {
        (Ok(png), Ok(svg)) => Outcome::image(&png, &svg),
        (Err(qrglue_host::Error::Qr(png)), Err(qrglue_host::Error::Qr(svg))) if png == svg => Outcome::from_error(&png),
        // A trap, a runtime failure, or png and svg disagreeing: the
        // README's marker, which never matches an expectation.
        (png, svg) => {
            let describe = |r: Result<(), qrglue_host::Error>| r.err().map_or("ok".to_owned(), |e| e.to_string());
            eprintln!("png and svg disagree: {} / {}", describe(png.map(drop)), describe(svg.map(drop)));
            Outcome::error("png-svg-disagree", "")
        }
    }
}
