//! The corpus (tests/vectors) through the shared reader, qrglue-vectors,
//! plus the few helpers these tests need.

use qrglue_host::Options;
use qrglue_vectors::{Outcome, Text};

pub use qrglue_vectors::sha256_hex;

/// A case whose text is a Rust string (every reference URL is).
pub struct Case {
    pub text: String,
    pub options: Options,
}

pub fn case(id: &str) -> Case {
    let case = qrglue_vectors::cases().into_iter().find(|case| case.id == id).unwrap_or_else(|| panic!("no case {id}"));
    match case.text {
        Text::Utf8(text) => Case { text, options: case.options },
        Text::LoneSurrogate | Text::Bytes(_) => panic!("{id} is not a Rust string"),
    }
}

/// Every case that is a Rust string.
pub fn utf8_cases() -> Vec<Case> {
    qrglue_vectors::cases()
        .into_iter()
        .filter_map(|case| match case.text {
            Text::Utf8(text) => Some(Case { text, options: case.options }),
            Text::LoneSurrogate | Text::Bytes(_) => None,
        })
        .collect()
}

fn expected_image(id: &str) -> (usize, String, String) {
    match qrglue_vectors::expected().remove(id) {
        Some(Outcome::Image { png_bytes, png_sha256, svg_sha256, .. }) => (png_bytes, png_sha256, svg_sha256),
        other => panic!("{id}: expected an image, expected.json has {other:?}"),
    }
}

/// The golden PNG digest of a case that succeeds.
pub fn expected_png_sha256(id: &str) -> String {
    expected_image(id).1
}

pub fn expected_png_bytes(id: &str) -> usize {
    expected_image(id).0
}

pub fn expected_svg_sha256(id: &str) -> String {
    expected_image(id).2
}

/// The ten reference texts (ref-01..ref-10) with their golden PNG digests.
pub fn reference_cases() -> Vec<(Case, String)> {
    (1..=10)
        .map(|i| {
            let id = format!("ref-{i:02}");
            (case(&id), expected_png_sha256(&id))
        })
        .collect()
}
