//! tests/vectors/expected.json on all three paths: the same PNG and SVG
//! digests, or the same error kind, for every case.

use qrglue_host::{Generator, Options, Path};
use serde_json::{Value, json};

use crate::vectors::{self, sha256_hex};

/// One path's result for one case, in expected.json's form.
pub fn outcome(generator: &mut dyn Generator, text: &str, options: &Options) -> Value {
    match (generator.png(text, options), generator.svg(text, options)) {
        (Ok(png), Ok(svg)) => json!({ "png_sha256": sha256_hex(&png), "png_bytes": png.len(), "svg_sha256": sha256_hex(svg.as_bytes()) }),
        (Err(png), Err(svg)) => {
            let (png_kind, svg_kind) = (png.kind(), svg.kind());
            assert_eq!(png_kind, svg_kind, "{}: png and svg fail differently: {png} / {svg}", generator.path());
            let kind = png_kind.unwrap_or_else(|| panic!("{}: not a contract error: {png}", generator.path()));
            json!({ "error": kind.as_str() })
        }
        (png, svg) => panic!("{}: png and svg disagree: {:?} / {:?}", generator.path(), png.map(|_| ()), svg.map(|_| ())),
    }
}

#[test]
fn golden_vectors_on_every_path() {
    let cases = vectors::cases();
    let expected = vectors::expected();
    let mut failures = Vec::new();
    for path in Path::ALL {
        let mut generator = qrglue_host::generator(path).expect("generator");
        for case in &cases {
            let got = outcome(generator.as_mut(), &case.text, &case.options);
            let want = expected.get(&case.id).unwrap_or_else(|| panic!("{} missing from expected.json", case.id));
            if &got != want {
                failures.push(format!("{path} {}: expected {want}, got {got}", case.id));
            }
        }
    }
    assert!(failures.is_empty(), "{} golden mismatches:\n{}", failures.len(), failures.join("\n"));
}
